/**
 * The completion scripts in real shells, calling the built binary (`npm run build` first; `npm test`
 * does): bash sources the script and calls its function with COMP_WORDS/COMP_CWORD set; zsh loads
 * it through compinit and lists its candidates; fish completes a command line with `complete -C`.
 * A shell that is not installed is skipped with the reason printed, never silently.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeCached } from '../../src/config/cache.js';
import { COURIERS_CACHE_NAME } from '../../src/completions/values.js';
import { targetId } from '../../src/config/target.js';
import { tempConfigDir } from '../helpers/cli.js';
import { startHostileServer } from '../helpers/hostile-server.js';
import { parcels } from '../helpers/spawn.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPTS = { bash: join(ROOT, 'completions', 'parcels.bash'), zsh: join(ROOT, 'completions', '_parcels'), fish: join(ROOT, 'completions', 'parcels.fish') };

function installed(shell: string): boolean {
  const found = spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
  if (!found) console.warn(`completion-shells: ${shell} is not installed here, so its completion test is skipped`);
  return found;
}

/** Each test starts shells that start the CLI several times: generous on a loaded machine. */
const SHELL_TIMEOUT_MS = 60_000;

let env: NodeJS.ProcessEnv;
beforeAll(() => {
  // `parcels` on PATH, as the scripts call it: the built binary of this checkout.
  const bin = join(tempConfigDir(), 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'parcels'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'parcels.js')}" "$@"\n`);
  chmodSync(join(bin, 'parcels'), 0o755);
  env = { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: tempConfigDir(), PARCELS_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' };
});

/**
 * Courier codes a hostile service sent, cached for its base URL: words bash, zsh or fish would expand
 * into others (`{1..3}`, `=ls` to the path of ls, `%self` to fish's process id, `~root`), next to two
 * plain ones. Completion offers only the plain ones, in every shell.
 */
const HOSTILE_BASE = 'https://api.hostile.example';
const EXPANDING = ['{1..3}', '{a,b}', '=ls', '%self', '~root', 'a~b'];
async function plantedEnv(): Promise<NodeJS.ProcessEnv> {
  const planted = { ...env, PARCELS_CONFIG_DIR: tempConfigDir() };
  await writeCached(planted, targetId({ baseUrl: HOSTILE_BASE }), COURIERS_CACHE_NAME, [...EXPANDING, 'SAFE-1', 'a=b%c'].map((code) => ({ code })));
  return planted;
}

/**
 * Parcel ids with what completion may say of them, as a hostile service made the built CLI print
 * them: `parcels list` against a server whose parcels carry a status out of the spec's range, a
 * status and postcodes with terminal escapes and shell text, and one plain parcel; then one more
 * note planted in the known-ids file `list` wrote (the file is read back as untrusted too).
 * Completion says only `picked_up 9999ZZ` of the plain one, the checked part of the others, and
 * nothing of the planted one.
 */
const NOTED = {
  outOfRange: '11111111-1111-4111-8111-111111111111',
  escapedPostcode: '22222222-2222-4222-8222-222222222222',
  escapedBoth: '33333333-3333-4333-8333-333333333333',
  plain: '44444444-4444-4444-8444-444444444444',
  planted: '55555555-5555-4555-8555-555555555555',
};
async function notedEnv(): Promise<NodeJS.ProcessEnv> {
  const items = [
    { entry_id: NOTED.outOfRange, status: 9, courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '1' },
    { entry_id: NOTED.escapedPostcode, status: 2, courier: 'A-BIKE', country: 'NL', postal_code: '12\u001b[31m34', number: '1' },
    { entry_id: NOTED.escapedBoth, status: 'in_transit\u001b]0;pwned\u0007', courier: 'A-BIKE', country: 'NL', postal_code: '1234 AB; rm -rf ~', number: '1' },
    { entry_id: NOTED.plain, status: 1, courier: 'A-BIKE', country: 'NL', postal_code: '9999ZZ', number: '1' },
  ];
  const service = await startHostileServer(() => ({ status: 200, body: { data: { items, next_cursor: null } } }));
  const noted = { ...env, PARCELS_CONFIG_DIR: tempConfigDir(), PARCELS_BASE_URL: service.url, PARCELS_API_KEY: 'key_noted_0123456789' };
  try {
    expect((await parcels(['list'], { env: noted })).code).toBe(0);
  } finally {
    await service.close();
  }
  const dir = join(noted.PARCELS_CONFIG_DIR, 'known-ids');
  const [file] = readdirSync(dir);
  const known = JSON.parse(readFileSync(join(dir, file ?? ''), 'utf8')) as unknown[];
  writeFileSync(join(dir, file ?? ''), JSON.stringify([[NOTED.planted, 'in_transit\u001b[2J', '12\u0007AB'], ...known]));
  return noted;
}

/** COMPREPLY after the bash function ran on these COMP_WORDS with the cursor in the last one. */
function bashComplete(words: string[], shellEnv: NodeJS.ProcessEnv = env): string[] {
  const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const script = `source '${SCRIPTS.bash}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _parcels_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', script], { env: shellEnv, encoding: 'utf8' });
  return out.split('\n').filter((line) => line !== '');
}

describe('dist/complete.cjs', () => {
  it('requires only fs, os and path at load: no zod, commander, node:crypto or fs/promises on every key press (node:crypto only where a target id is needed)', () => {
    const bundle = readFileSync(join(ROOT, 'dist', 'complete.cjs'), 'utf8');
    const required = new Set([...bundle.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]));
    expect([...required].sort()).toEqual(['fs', 'os', 'path']);
  });
});

describe.skipIf(!installed('bash'))('bash', { timeout: SHELL_TIMEOUT_MS }, () => {
  it('completes commands, subcommands, flags and values', () => {
    expect(bashComplete(['parcels', 'ev'])).toEqual(['events']);
    expect(bashComplete(['parcels', 'events', ''])).toEqual(['list', 'add']);
    expect(bashComplete(['parcels', 'events', 'add', 'x', '--status', 'in_'])).toEqual(['in_transit', 'in_delivery']);
    expect(bashComplete(['parcels', 'list', '--al'])).toEqual(['--all']);
  });

  it("handles bash's own word splitting at ':' and '='", () => {
    // bash splits `--require-scope deliveries:w` into `deliveries`, `:`, `w` and replaces only `w`.
    expect(bashComplete(['parcels', 'doctor', '--require-scope', 'deliveries', ':', 'w'])).toEqual(['write']);
    // right after the ':' readline completes the empty text that follows it
    expect(bashComplete(['parcels', 'doctor', '--require-scope', 'deliveries', ':'])).toEqual(['read', 'write']);
    expect(bashComplete(['parcels', 'list', '--status', '=', 'in'])).toEqual(['in_transit', 'in_delivery']);
  });

  it('never offers a value bash would expand into other words ({1..3}, =ls, %self, ~root)', async () => {
    expect(bashComplete(['parcels', 'create', '--base-url', HOSTILE_BASE, '--courier', ''], await plantedEnv())).toEqual(['SAFE-1', 'a=b%c']);
  });

  it('registers the function for the parcels command', () => {
    const out = execFileSync('bash', ['--norc', '--noprofile', '-c', `source '${SCRIPTS.bash}'; complete -p parcels`], { env, encoding: 'utf8' });
    expect(out).toBe('complete -F _parcels_complete parcels\n');
  });

  it('offers field names after --fields, never file names; a file name where one is wanted', () => {
    expect(bashComplete(['parcels', 'get', 'x', '--fields', 'entry_id,sta'])).toEqual(['entry_id,status']);
    expect(bashComplete(['parcels', 'get', 'x', '--fields', 'no-such'])).toEqual([]);
    // `:files` hands the word to readline's own file completion (compopt -o default), offering nothing itself.
    const script = `source '${SCRIPTS.bash}'; COMP_WORDS=(parcels create --from ''); COMP_CWORD=3; _parcels_complete; echo "n=\${#COMPREPLY[@]}"`;
    expect(execFileSync('bash', ['--norc', '--noprofile', '-c', script], { env, encoding: 'utf8' })).toMatch(/^n=0\n/);
  });
});

describe.skipIf(!installed('zsh'))('zsh', { timeout: SHELL_TIMEOUT_MS }, () => {
  it('loads through compinit, registers _parcels, and lists value:description candidates', () => {
    const script = [
      'autoload -Uz compinit && compinit -u -D',
      `source '${SCRIPTS.zsh}'`,
      'print -r -- "registered=$_comps[parcels]"',
      'words=(parcels events "")',
      'CURRENT=3',
      '_parcels_candidates',
      'print -rl -- $reply',
      'words=(parcels doctor --require-scope "deliveries:r")',
      'CURRENT=4',
      '_parcels_candidates',
      'print -rl -- $reply',
    ].join('\n');
    const out = execFileSync('zsh', ['-f', '-c', script], { env, encoding: 'utf8' });
    expect(out).toBe(
      "registered=_parcels\nlist:List a parcel's status events (at most 1000)\nadd:Report a status event (status 0-3)\ndeliveries\\:read\n",
    );
  });

  it('never offers a value zsh would expand into other words ({1..3}, =ls, ~root)', async () => {
    const script = [
      'autoload -Uz compinit && compinit -u -D',
      `source '${SCRIPTS.zsh}'`,
      `words=(parcels create --base-url '${HOSTILE_BASE}' --courier "")`,
      'CURRENT=6',
      '_parcels_candidates',
      'print -rl -- $reply',
    ].join('\n');
    expect(execFileSync('zsh', ['-f', '-c', script], { env: await plantedEnv(), encoding: 'utf8' })).toBe('SAFE-1\na=b%c\n');
  });
  it('lists parcel ids with their checked status and postcode as descriptions, never a hostile one', async () => {
    const script = [
      'autoload -Uz compinit && compinit -u -D',
      `source '${SCRIPTS.zsh}'`,
      'words=(parcels get "")',
      'CURRENT=3',
      '_parcels_candidates',
      'print -rl -- $reply',
    ].join('\n');
    expect(execFileSync('zsh', ['-f', '-c', script], { env: await notedEnv(), encoding: 'utf8' })).toBe(
      `${NOTED.plain}:picked_up 9999ZZ\n${NOTED.escapedBoth}\n${NOTED.escapedPostcode}:in_transit\n${NOTED.outOfRange}:1234AB\n${NOTED.planted}\n`,
    );
  });
});

describe.skipIf(!installed('fish'))('fish', { timeout: SHELL_TIMEOUT_MS }, () => {
  it('completes a command line with `complete -C`', () => {
    const run = (line: string): string =>
      execFileSync('fish', ['--no-config', '-c', `source '${SCRIPTS.fish}'; complete -C'${line}'`], { env, encoding: 'utf8' });
    expect(run('parcels events a')).toBe('add\tReport a status event (status 0-3)\n');
    expect(run('parcels attempts add x --outcome ref')).toBe('refused\tcode 3\n');
    expect(run('parcels doctor --require-scope usage')).toBe('usage:read\n');
  });

  it('never offers a value fish would expand into other words ({a,b}, %self, ~root)', async () => {
    const planted = await plantedEnv();
    const out = execFileSync('fish', ['--no-config', '-c', `source '${SCRIPTS.fish}'; complete -C'parcels create --base-url ${HOSTILE_BASE} --courier '`], { env: planted, encoding: 'utf8' });
    expect(out).toBe('a=b%c\nSAFE-1\n'); // fish sorts what it shows
  });

  it('shows parcel ids with their checked status and postcode, tab-separated; never a hostile description', async () => {
    const out = execFileSync('fish', ['--no-config', '-c', `source '${SCRIPTS.fish}'; complete -C'parcels get '`], { env: await notedEnv(), encoding: 'utf8' });
    // fish sorts what it shows
    expect(out).toBe(`${NOTED.outOfRange}\t1234AB\n${NOTED.escapedPostcode}\tin_transit\n${NOTED.escapedBoth}\n${NOTED.plain}\tpicked_up 9999ZZ\n${NOTED.planted}\n`);
  });
});

describe.skipIf(!installed('zsh') || !installed('fish'))("the README's install lines", { timeout: SHELL_TIMEOUT_MS }, () => {
  it('work as written on a fresh account, and each shell then finds its script', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Shell completion'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    expect(block).toContain('parcels completion zsh');
    const home = tempConfigDir();
    const fresh = { ...env, HOME: home };
    execFileSync('sh', ['-e', '-c', block], { env: fresh, encoding: 'utf8' });
    const bash = execFileSync('bash', ['--norc', '--noprofile', '-c', `source ~/.local/share/bash-completion/completions/parcels; complete -p parcels`], { env: fresh, encoding: 'utf8' });
    expect(bash).toBe('complete -F _parcels_complete parcels\n');
    // zsh reads the ~/.zshrc the lines wrote: compinit finds _parcels on the fpath they set.
    expect(execFileSync('zsh', ['-i', '-c', 'print -r -- $_comps[parcels]'], { env: fresh, encoding: 'utf8' }).trim()).toBe('_parcels');
    expect(execFileSync('fish', ['-c', 'complete -C"parcels ev"'], { env: fresh, encoding: 'utf8' })).toBe("events\tA parcel's status events: add one (or many with --from), list them\n");
  });
});
