/**
 * Completion as a person uses it: Tab pressed in a real interactive zsh and fish on a pseudo-terminal
 * (issue 33). A file name after `--from` and after `--data @` comes from the shell's own file
 * completion, which the scripts hand over to when `parcels __complete` says a file is wanted.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hasPty, startShell } from '../helpers/pty.js';
import type { PtyRun } from '../helpers/pty.js';
import { binaryEnv } from '../helpers/spawn.js';

const COMPLETIONS = fileURLToPath(new URL('../../completions', import.meta.url));
const installed = (shell: string): boolean => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

/** A directory holding the files a depot has at hand. */
function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parcels-complete-'));
  writeFileSync(join(dir, 'orders-monday.csv'), 'courier,country,postal_code,number\n');
  writeFileSync(join(dir, 'body.json'), '{}\n');
  mkdirSync(join(dir, 'exports'));
  return dir;
}

/** Types `partial`, presses Tab, and waits until the line reads `expected`; then clears the line. */
async function tabCompletes(term: PtyRun, partial: string, expected: string): Promise<void> {
  term.type(`${partial}\t`);
  await term.waitFor(new RegExp(`${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`));
  // Ctrl-U: the line is emptied for the next one (Ctrl-C would print a new prompt in zsh only).
  term.type('\u0015');
}

describe.skipIf(!hasPty || !installed('zsh'))('zsh', () => {
  it('Tab after --from and after --data @ completes file names', async () => {
    const term = startShell({ env: binaryEnv({}), shell: 'zsh', cwd: workDir() });
    term.type(`PS1='$ '; fpath=('${COMPLETIONS}' $fpath); autoload -Uz compinit && compinit -u -D\r`);
    await tabCompletes(term, 'parcels create --from orders-', 'parcels create --from orders-monday.csv');
    await tabCompletes(term, 'parcels api POST /deliveries/v1/parcels --data @bo', 'parcels api POST /deliveries/v1/parcels --data @body.json');
    term.type('exit\r');
    expect(await term.exited).toBe(0);
  });
});

describe.skipIf(!hasPty || !installed('fish'))('fish', () => {
  it('Tab after --from and after --data @ completes file names', async () => {
    const term = startShell({ env: binaryEnv({}), shell: 'fish', cwd: workDir() });
    term.type(`function fish_prompt; echo '$ '; end; source '${join(COMPLETIONS, 'parcels.fish')}'\r`);
    await tabCompletes(term, 'parcels create --from orders-', 'parcels create --from orders-monday.csv');
    await tabCompletes(term, 'parcels api POST /deliveries/v1/parcels --data @bo', 'parcels api POST /deliveries/v1/parcels --data @body.json');
    term.type('exit\r');
    expect(await term.exited).toBe(0);
  });
});
