import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/definitions/table.js';
import { loadCommand } from '../../src/commands/loaders.js';
import { fastAnswer } from '../../src/fast-path.js';

describe('command table', () => {
  it('every command loads an implementation with parse and run', async () => {
    for (const command of COMMANDS) {
      const loaded = (await loadCommand(command)).default as { parse?: unknown; run?: unknown };
      expect(typeof loaded.parse, command.path.join(' ')).toBe('function');
      expect(typeof loaded.run, command.path.join(' ')).toBe('function');
    }
  });

  it('every command has a summary and at least one example that runs parcels', () => {
    for (const command of COMMANDS) {
      expect(command.summary.length, command.path.join(' ')).toBeGreaterThan(0);
      expect(command.examples.length, command.path.join(' ')).toBeGreaterThan(0);
      for (const example of command.examples) expect(example).toMatch(/(^|\| )parcels /);
    }
  });
});

describe('fast path', () => {
  it('answers --version, the top-level help and the help topics, and nothing else', () => {
    expect(fastAnswer(['--version'])).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?\n$/);
    expect(fastAnswer(['-V'])).toBe(fastAnswer(['--version']));
    const help = fastAnswer(['--help']);
    expect(help).toContain('Usage: parcels [options] [command]');
    for (const command of COMMANDS) expect(help).toContain(`  ${command.path.join(' ')}`);
    expect(help).toContain('  patch <id> [options]  ');
    expect(help).toContain('  get <id>  ');
    expect(fastAnswer([])).toBe(help);
    expect(fastAnswer(['help'])).toBe(help);
    expect(fastAnswer(['help', 'exit-codes'])).toContain('5    conflict or stale precondition');
    expect(fastAnswer(['help', 'environment'])).toContain('PARCELS_API_KEY');
    expect(fastAnswer(['help', 'create'])).toBeUndefined();
    expect(fastAnswer(['list'])).toBeUndefined();
    expect(fastAnswer(['--version', '--json'])).toBeUndefined();
  });
});
