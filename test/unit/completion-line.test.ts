import { describe, expect, it } from 'vitest';
import { parseLine } from '../../src/completions/parse-line.js';

describe('the command line completion reads', () => {
  it('is read by the one tokeniser, as commander reads it: -pops is --profile ops, -ojson is --output json', () => {
    const { line, pending } = parseLine(['-pops', 'list', '-ojson', '--status']);
    expect(line.profile).toBe('ops');
    expect(line.where).toEqual(['-pops']);
    expect(line.path).toEqual(['list']);
    expect([...line.given]).toEqual(['--profile', '--output', '--status']);
    expect(pending?.long).toBe('--status');
  });

  it('a value that starts with a dash is the value; -5 and the words after -- are arguments', () => {
    const { line, pending } = parseLine(['list', '--cursor', '-x', '-5', '--', '--all']);
    expect(pending).toBeUndefined();
    expect([...line.given]).toEqual(['--cursor']);
    expect(line.words).toEqual(['-5', '--all']);
  });
});
