/**
 * A hint carrying a service's text (a next_cursor, a courier code) is pasted into bash, zsh or fish
 * and must give back exactly the words it was built from, running nothing. Each printed command is
 * handed to each real shell with `parcels` replaced by `printf '%s\n'`, and the words the shell
 * passed are compared with the argv; a marker file shows whether anything ran. A shell that is not
 * installed is skipped with the reason printed, never silently.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLine } from '../../src/command-kit/command-line.js';
import { definitions } from '../../src/definitions/table.js';
import { sameCommand } from '../../src/hint/hint.js';
import { tempConfigDir } from '../helpers/cli.js';
import { startHostileServer } from '../helpers/hostile-server.js';
import type { HostileServer } from '../helpers/hostile-server.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

function installed(shell: Shell): boolean {
  const found = spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
  if (!found) console.warn(`hint-shells: ${shell} is not installed here, so its case is skipped`);
  return found;
}
const present = SHELLS.filter(installed);

const MARKER = join(tempConfigDir(), 'ran');

/** Text a hostile service may send, each an attack on one shell or another (fish reads `\'` inside '…'). */
const HOSTILE = [
  `\\';touch ${MARKER};#`,
  `'\\'';touch ${MARKER};#`,
  `$(touch ${MARKER})`,
  `\`touch ${MARKER}\``,
  `a\\`,
  `\\\\'`,
  `{1..3}`,
  `{a,b}`,
  `=ls`,
  `%self`,
  `~root`,
  `a~b`,
  `*`,
  `!!`,
  `#x`,
  `a b`,
  `"$HOME"`,
  `a;b|c&d>e`,
  `x'';y`,
  `ü é`,
  ``,
  `--all`,
];

/** The words each shell passes to `printf '%s\n'` for each printed `parcels …` command. */
function readBack(shell: Shell, commands: readonly string[]): string[][] {
  const separator = 'END-OF-COMMAND';
  const script = commands.map((c) => `printf '%s\\n' ${c.replace(/^parcels /, '')}; printf '%s\\n' ${separator}`).join('\n');
  const argv = shell === 'fish' ? ['--no-config', '-c', script] : shell === 'zsh' ? ['-f', '-c', script] : ['--norc', '--noprofile', '-c', script];
  const out = execFileSync(shell, argv, { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: tempConfigDir() } });
  const words = out.split('\n');
  const runs: string[][] = [];
  let current: string[] = [];
  for (const word of words.slice(0, -1)) {
    if (word === separator) {
      runs.push(current);
      current = [];
    } else current.push(word);
  }
  return runs;
}

describe.skipIf(present.length === 0)('hints read back verbatim by bash, zsh and fish', () => {
  it.each(present)('%s: every hint built from hostile text gives back its argv, and nothing runs', (shell) => {
    const argvs = HOSTILE.map((text) => ['list', '--courier', text, '--cursor', text]);
    const printed = argvs.map((words) => sameCommand(commandLine(words, Object.values(definitions.list.flags))));
    expect(readBack(shell, printed)).toEqual(argvs);
    expect(existsSync(MARKER)).toBe(false);
  });
});

describe.skipIf(present.length === 0)("the built CLI's next-page hint, pasted", () => {
  // The attacks on each shell; the rest is covered by sameCommand above (each run of the CLI costs a start-up).
  const cases = HOSTILE.slice(0, 10).map((cursor, i) => ({ cursor, i }));
  const printed: string[] = [];
  let server: HostileServer;
  beforeAll(async () => {
    // The cursor is the one the command's --courier names (its index in HOSTILE), so one server serves every case.
    server = await startHostileServer((req) => {
      const courier = Number(new URL(req.url, 'http://x').searchParams.get('courier'));
      return { status: 200, body: { data: { parcels: [{ entry_id: 'p-1', courier: 'A' }], next_cursor: HOSTILE[courier] } } };
    });
    for (const { i } of cases) {
      const r = await parcels(['list', '-o', 'ndjson', '--courier', String(i)], { env: binaryEnv({ PARCELS_BASE_URL: server.url, PARCELS_API_KEY: 'shell-test-key-0123' }) });
      const hint = /^More results: (parcels .*) {2}\(or --all\)$/m.exec(r.stderr)?.[1];
      if (r.code !== 0 || hint === undefined) throw new Error(`list --courier ${i}: exit ${r.code}, ${r.stderr}`);
      printed.push(hint);
    }
  }, 120_000);
  afterAll(() => server.close());

  it.each(present)('%s: `More results: parcels … --cursor …` gives back the cursor the service sent, and runs nothing', (shell) => {
    expect(readBack(shell, printed)).toEqual(cases.map(({ cursor, i }) => ['list', '-o', 'ndjson', '--courier', String(i), '--cursor', cursor]));
    expect(existsSync(MARKER)).toBe(false);
  });
});
