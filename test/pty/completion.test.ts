/**
 * Completion as a person uses it: Tab pressed in a real interactive zsh and fish on a pseudo-terminal
 * (issue 33). A file name after `--from` and after `--data @` comes from the shell's own file
 * completion, which the scripts hand over to when `parcels __complete` says a file is wanted; the
 * parcel ids the CLI knows for the target are listed with their status and postcode as last shown.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hasPty, startShell } from '../helpers/pty.js';
import type { PtyRun } from '../helpers/pty.js';
import { tempConfigDir } from '../helpers/cli.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';
import { newParcel, servedForFile } from '../helpers/served.js';

const { env: served } = servedForFile();

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

interface KnownIds {
  env: NodeJS.ProcessEnv;
  seen: string;
  created: string;
  /** Their common prefix, typed before Tab: nothing is left to insert, so the shell lists both at once. */
  typed: string;
}

/**
 * Two parcel ids this config knows for the served sandbox: `seen` only because `parcels list`
 * printed it (another client created it and moved it to picked_up, postcode 9999ZZ), `created`
 * through `parcels create --quiet` here (its ETag and its id, nothing of its status shown).
 * Made once for the file: both shells complete the same ids.
 */
let known: Promise<KnownIds> | undefined;
function knownIds(): Promise<KnownIds> {
  known ??= (async () => {
    const env = { ...served, PARCELS_CONFIG_DIR: tempConfigDir() };
    const other = { ...served, PARCELS_CONFIG_DIR: tempConfigDir() };
    const made = await parcels(['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '9999ZZ', '--number', '2', '--quiet'], { env: other });
    const seen = made.stdout.trim();
    expect((await parcels(['events', 'add', seen, '--status', 'picked_up', '--quiet'], { env: other })).code).toBe(0);
    expect((await parcels(['list'], { env })).code).toBe(0);
    const created = await newParcel(env);
    let typed = '';
    while (seen[typed.length] === created[typed.length]) typed += seen[typed.length];
    return { env, seen, created, typed };
  })();
  return known;
}

/** The rows the shell listed after Tab, below the line `$ parcels get …`, up to the first empty one (sorted). */
function listedBelow(screen: readonly string[], line: string): string[] {
  const at = screen.findLastIndex((row) => row.trimEnd() === line.trimEnd());
  const rows = screen.slice(at + 1).map((row) => row.trimEnd());
  const end = rows.indexOf('');
  return rows.slice(0, end === -1 ? undefined : end).sort();
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

  it('Tab after `parcels get` lists the known parcel ids, each with its status and postcode as last shown', async () => {
    const { env, seen, created, typed } = await knownIds();
    const term = startShell({ env, shell: 'zsh', cwd: workDir() });
    term.type(`PS1='$ '; fpath=('${COMPLETIONS}' $fpath); autoload -Uz compinit && compinit -u -D\r`);
    term.type(`parcels get ${typed}\t`);
    const screen = await term.waitFor('-- picked_up 9999ZZ');
    expect(listedBelow(screen, `$ parcels get ${typed}`)).toEqual([`${seen}  -- picked_up 9999ZZ`, created].sort());
    term.type('\u0015exit\r');
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

  it('Tab after `parcels get` lists the known parcel ids, each with its status and postcode as last shown', async () => {
    const { env, seen, created, typed } = await knownIds();
    // At 60 columns fish's pager has room for one id and its description a row.
    const term = startShell({ env, shell: 'fish', cwd: workDir(), columns: 60 });
    term.type(`function fish_prompt; echo '$ '; end; source '${join(COMPLETIONS, 'parcels.fish')}'\r`);
    term.type(`parcels get ${typed}\t`);
    const screen = await term.waitFor('(picked_up 9999ZZ)');
    // fish's pager: the description in parentheses, after the id padded to the widest one.
    const listed = listedBelow(screen, `$ parcels get ${typed}`).map((row) => row.replace(/ {2,}/, '  '));
    expect(listed).toEqual([`${seen}  (picked_up 9999ZZ)`, created].sort());
    term.type('\u0015exit\r');
    expect(await term.exited).toBe(0);
  });
});
