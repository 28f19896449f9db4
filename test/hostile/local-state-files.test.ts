/**
 * Attacks through the CLI's own files (issue 29, findings 10, 11, 12 and 19): a FIFO planted where
 * config.json, a journal, its lock, a done file or the admin token file goes (which hung every
 * command for ever, deaf to Ctrl-C and SIGTERM), a done file with flipped bytes (trusted: wrong
 * entry ids replayed as done), a damaged journal (an unexpected failure, and `batches` broken as a
 * whole), and a config.json that is not JSON (its first bytes quoted back).
 */
import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { binaryEnv } from '../helpers/spawn.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));

const children: ChildProcess[] = [];
// A run that hangs on a FIFO (the code before the fix) is ended here, never left behind.
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** The built binary, waited for until it exits: a hang fails the test by the tier's timeout. */
function spawned(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function mkfifo(path: string): void {
  rmSync(path, { force: true });
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo ${path}: ${made.stderr.toString()}`);
}

function parcelLines(n: number): string {
  return Array.from({ length: n }, (_, i) => JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: String(i + 1) })).join('\n') + '\n';
}

/** A finished bulk run into the embedded sandbox: its config dir, its input and its journal's folder. */
async function finishedBatch(lines = 3): Promise<{ env: NodeJS.ProcessEnv; input: string; folder: string; journal: string }> {
  const dir = tempConfigDir();
  const env = binaryEnv({ PARCELS_CONFIG_DIR: dir });
  const input = join(mkdtempSync(join(tmpdir(), 'parcels-state-')), 'in.ndjson');
  writeFileSync(input, parcelLines(lines));
  const first = await runCli(['create', '--from', input, '--sandbox'], { env });
  expect(first.code, first.stderr).toBe(0);
  const [hash] = readdirSync(join(dir, 'journals'));
  const folder = join(dir, 'journals', hash as string);
  const journal = readdirSync(folder).find((name) => name.startsWith('create~') && name.endsWith('.ndjson')) as string;
  return { env, input, folder, journal: join(folder, journal) };
}

const doneFileOf = (folder: string): string => join(folder, readdirSync(folder).find((name) => name.endsWith('.done')) as string);

describe('a FIFO where a file of the CLI\'s own goes is refused at once (exit 2, naming the file), never waited on', () => {
  it('config.json', async () => {
    const env = binaryEnv();
    const path = join(env.PARCELS_CONFIG_DIR as string, 'config.json');
    mkfifo(path);
    const r = await spawned(['config', 'list'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path} is a FIFO (named pipe), not a regular file; the CLI keeps its state in regular files only`);
  });

  it('config.json and the ETag log while completing: Tab answers at once (no profiles, no ids), never hangs', async () => {
    const env = binaryEnv();
    const dir = env.PARCELS_CONFIG_DIR as string;
    mkfifo(join(dir, 'config.json'));
    const profiles = await spawned(['__complete', 'get', '--profile', ''], env);
    expect(profiles).toEqual({ code: 0, stdout: '', stderr: '' });
    const ids = await spawned(['__complete', 'get', ''], { ...env, PARCELS_BASE_URL: 'http://127.0.0.1:9' });
    expect(ids.code).toBe(0);
    expect(ids.stderr).toBe('');
  });

  it("a batch's journal, its lock and its done file", async () => {
    const batch = await finishedBatch();
    const done = doneFileOf(batch.folder);
    for (const path of [`${batch.journal}.lock`, done, batch.journal]) {
      const saved = path.endsWith('.lock') ? undefined : readFileSync(path);
      mkfifo(path);
      const r = await spawned(['create', '--from', batch.input, '--sandbox'], batch.env);
      expect(r.code, path).toBe(2);
      expect(r.stderr).toContain(`${path} is a FIFO (named pipe), not a regular file`);
      rmSync(path);
      if (saved !== undefined) writeFileSync(path, saved);
    }
  });

  it('the admin token file of a loopback sandbox', async () => {
    const env = binaryEnv();
    const path = join(env.PARCELS_CONFIG_DIR as string, 'sandbox-admin-9.token');
    mkfifo(path);
    const r = await spawned(['sandbox', 'clock', '--base-url', 'http://127.0.0.1:9'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path} is a FIFO (named pipe), not a regular file`);
  });

  it('`parcels batches` lists the other batches and names the FIFO it skipped', async () => {
    const batch = await finishedBatch();
    const other = join(batch.folder, 'create~0123456789abcdef.ndjson');
    mkfifo(other);
    const r = await spawned(['batches', '--json'], batch.env);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as unknown[]).length).toBe(1);
    expect(r.stderr).toContain(`! skipped a journal that cannot be read: ${other} is a FIFO (named pipe), not a regular file`);
  });
});

describe('a done file with flipped bytes is not trusted', () => {
  it('the re-run refuses it (exit 2), naming it and how to rebuild it, instead of replaying wrong entry ids as done', async () => {
    const batch = await finishedBatch(300);
    const done = doneFileOf(batch.folder);
    const bytes = readFileSync(done);
    // The last section holds the entry ids: flip a byte of the last one.
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 0xff;
    writeFileSync(done, bytes);
    const r = await runCli(['create', '--from', batch.input, '--sandbox'], { env: batch.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${batch.journal}: its done file ${done.slice(batch.folder.length + 1)} cannot be read (${done}: its bytes are not those its journal recorded (SHA-256 differs))`);
    expect(r.stderr).toContain(`move ${batch.journal} (and the .done files beside it named after it) aside, then run the same import again`);
  });
});

describe('a damaged journal is a known error, and one bad journal does not break the listing', () => {
  it('a run meeting it exits 2 naming the file and line, with the way on; `batches` skips it and lists the rest', async () => {
    const batch = await finishedBatch();
    const other = await finishedBatch();
    // Two batches in one config dir: the second's journal moved beside the first's, then damaged.
    const damaged = join(batch.folder, 'create~fedcba9876543210.ndjson');
    writeFileSync(damaged, `${readFileSync(other.journal, 'utf8')}not a record\n{"t":"done","line":1}\n`);
    const bad = readFileSync(batch.journal, 'utf8').split('\n').length;
    appendFileSync(batch.journal, 'null\n{"t":"run","created":0,"replayed":0,"failed":0,"invalid":0,"cancelled":0,"at":1}\n');
    const run = await runCli(['create', '--from', batch.input, '--sandbox'], { env: batch.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${batch.journal}:${bad}: not a journal record`);
    expect(run.stderr).not.toContain('unexpected');
    expect(run.stderr).toContain('`parcels doctor --sandbox` names every journal it cannot read');
    const list = await runCli(['batches', '--json'], { env: batch.env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.trim()).toBe('[]');
    expect(list.stderr).toContain(`skipped a journal that cannot be read: ${damaged}:`);
    expect(list.stderr).toContain(`skipped a journal that cannot be read: ${batch.journal}:${bad}: not a journal record`);
  });
});

describe('a config.json that is not JSON', () => {
  it('is reported by position, never quoted back (a key in it stays out of the terminal)', async () => {
    const env = { PARCELS_CONFIG_DIR: tempConfigDir() };
    const secret = 'sk_live_4f9c2a7e1b3d5f6a8c0e';
    writeFileSync(join(env.PARCELS_CONFIG_DIR, 'config.json'), `${secret}\n`);
    const r = await runCli(['config', 'list'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`config file ${join(env.PARCELS_CONFIG_DIR, 'config.json')} is not valid JSON (it does not start with a JSON value)`);
    expect(r.stderr).not.toContain('sk_live');
  });
});
