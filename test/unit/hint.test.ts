import { describe, expect, it } from 'vitest';
import { closest } from '../../src/schemas/did-you-mean.js';
import type { CommandDefinition } from '../../src/definitions/definition.js';
import { otherCommand, sameCommand, tokenize, typedFlag } from '../../src/hint/hint.js';
import { shellQuote } from '../../src/hint/shell.js';
import type { CommandLine } from '../../src/hint/hint.js';
import { definitions } from '../../src/definitions/table.js';
import { commandLine } from '../../src/command-kit/command-line.js';
import { shellWords } from '../helpers/terminal.js';

/** The command line of `definition` run with these words, as cli.ts hands it to the context. */
const line = (definition: CommandDefinition, words: string[]): CommandLine => commandLine(words, Object.values(definition.flags));

describe('retyping the user command line', () => {
  it('reads options with values in every form commander accepts', () => {
    const read = (definition: CommandDefinition, words: string[]) => tokenize(line(definition, words)).map(({ flag, words, value }) => ({ flag, words, value }));
    expect(read(definitions.list, ['-p', 'ops', 'list', '--status=2', '--limit', '5', '--all', '-q'])).toEqual([
      { flag: '--profile', words: ['-p', 'ops'], value: 'ops' },
      { flag: undefined, words: ['list'], value: undefined },
      { flag: '--status', words: ['--status=2'], value: '2' },
      { flag: '--limit', words: ['--limit', '5'], value: '5' },
      { flag: '--all', words: ['--all'], value: undefined },
      { flag: '--quiet', words: ['-q'], value: undefined },
    ]);
    expect(read(definitions.get, ['get', '--', '-odd'])).toEqual([
      { flag: undefined, words: ['get'], value: undefined },
      { flag: undefined, words: ['-odd'], value: undefined },
    ]);
  });

  it('reads short flags as commander does: -ojson is -o json, -qojson is -q then -o json, a value may start with a dash, -5 is an argument', () => {
    const read = (words: string[]) => tokenize(line(definitions.list, words)).map(({ flag, words, value }) => ({ flag, words, value }));
    expect(read(['list', '-ojson'])).toEqual([
      { flag: undefined, words: ['list'], value: undefined },
      { flag: '--output', words: ['-ojson'], value: 'json' },
    ]);
    expect(read(['-qojson', 'list'])).toEqual([
      { flag: '--quiet', words: ['-q'], value: undefined },
      { flag: '--output', words: ['-ojson'], value: 'json' },
      { flag: undefined, words: ['list'], value: undefined },
    ]);
    expect(read(['list', '--cursor', '-x', '-5'])).toEqual([
      { flag: undefined, words: ['list'], value: undefined },
      { flag: '--cursor', words: ['--cursor', '-x'], value: '-x' },
      { flag: undefined, words: ['-5'], value: undefined },
    ]);
  });

  it('the same command with a flag replaced keeps everything else in order', () => {
    const argv = line(definitions.list, ['--sandbox', 'list', '--status', 'in transit', '--cursor', 'old', '--limit=2']);
    expect(sameCommand(argv, { drop: ['--cursor'], add: ['--cursor', 'a b'] })).toBe("parcels --sandbox list --status 'in transit' --limit=2 --cursor 'a b'");
  });

  it('another command takes only where the requests go: --profile, --base-url, --sandbox', () => {
    const argv = line(definitions.patch, ['patch', 'X', '-p', 'ops', '--weight', '5', '--base-url', 'https://api.example.com', '--json', '--sandbox']);
    expect(otherCommand(argv, ['get', 'X'])).toBe('parcels get X -p ops --base-url https://api.example.com --sandbox');
    expect(typedFlag(argv, '--profile')).toBe(true);
    expect(typedFlag(argv, '--cursor')).toBe(false);
  });

  it('what it prints, the shell reads back as the same words', () => {
    const words = ['list', '--courier', "O'Brien & Co", '--cursor', 'a$b`c'];
    expect(shellWords(sameCommand(line(definitions.list, words))).slice(1)).toEqual(words);
  });
});

describe('did you mean', () => {
  it('suggests a close name and nothing for a far one', () => {
    expect(closest('in_trnasit', ['registered', 'in_transit'])).toBe('in_transit');
    expect(closest('WIEGHT', ['weight', 'width'])).toBe('weight');
    expect(closest('banana', ['registered', 'in_transit'])).toBeUndefined();
  });
});

describe('one quoting for bash, zsh and fish', () => {
  it('bare words stay bare; braces, a leading = or %, ~ and everything else are quoted; \' and \\ are written outside the quotes', () => {
    expect(shellQuote('in_transit')).toBe('in_transit');
    expect(shellQuote('--limit=5')).toBe('--limit=5');
    expect(shellQuote('a=b%c')).toBe('a=b%c');
    expect(shellQuote('Åland_2')).toBe('Åland_2');
    expect(shellQuote('')).toBe("''");
    for (const word of ['{1..3}', '=ls', '%self', '~root', 'a~b', '*', 'a b']) expect(shellQuote(word)).toBe(`'${word}'`);
    expect(shellQuote(String.raw`\';touch x;#`)).toBe(String.raw`\\\'';touch x;#'`);
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });
});
