/**
 * End-to-end bulk input: the built `parcels` binary, spawned, against `parcels sandbox serve` over
 * real HTTP. A bad line is one result and the rest go on; input that is not text is refused; a
 * planted symbolic link (journal, outbox, spool) is refused with its target untouched; SIGTERM ends
 * a run that waits on a slow pipe.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bulkHelpers, UUID } from '../helpers/bulk.js';
import type { Spawned } from '../helpers/spawn.js';

const { parcels, serve, parcelLine, writeLines, results, allParcels } = bulkHelpers();
const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));

/** Every file under `dir` whose name ends so. */
function filesEndingIn(dir: string, suffix: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((name) => name.endsWith(suffix)).map((name) => join(dir, name));
}

/** Replaces `path` with a symbolic link to a precious file, and returns a check that the file is untouched. */
function plantLink(dir: string, path: string): () => void {
  const precious = join(dir, 'precious.txt');
  writeFileSync(precious, 'precious\n');
  rmSync(path, { force: true });
  symlinkSync(precious, path);
  return () => expect(readFileSync(precious, 'utf8')).toBe('precious\n');
}

/** Spawns the binary with its stdin a pipe the test writes to. */
function piped(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let onStdout: (() => void) | undefined;
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
    onStdout?.();
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<Spawned>((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
  /** Resolves once stdout holds `count` whole lines. */
  const outputLines = (count: number): Promise<void> =>
    new Promise((resolve) => {
      onStdout = () => {
        if (stdout.split('\n').length > count) resolve();
      };
      onStdout();
    });
  return { child, exited, outputLines };
}

describe('bad input is one line, never the file', () => {
  it('a ragged CSV row is one invalid_line with its line number; the other 19 rows are created', async () => {
    const { env, dir } = await serve();
    const rows = Array.from({ length: 20 }, (_, i) => `A-BIKE,NL,1234AB,${i + 1}`);
    rows[7] = 'A-BIKE,NL,1234AB,8,extra';
    const input = writeLines(dir, 'ragged.csv', ['courier,country,postal_code,number', ...rows]);
    const r = await parcels(['create', '--from', input], { env });
    expect(r.code).toBe(2);
    const lines = results(r);
    expect(lines).toHaveLength(20);
    expect(lines[7]).toEqual({ line: 9, ok: false, outcome: 'failed', error: { code: 'invalid_line', message: 'has 5 fields where the header has 4' } });
    expect(lines.filter((l) => l.ok === true).map((l) => l.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
    expect(r.stderr).toMatch(/^! 19 created, 0 already done, 1 failed \(1 invalid\) in /);
    expect((await allParcels(env)).map((p) => p.number).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 20 }, (_, i) => String(i + 1)).filter((n) => n !== '8'),
    );
  });

  it('a 2 MiB line is one invalid_line ("too long"); the lines around it are created', async () => {
    const { env, dir } = await serve();
    const long = JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '2', addition: 'x'.repeat(2 * 1024 * 1024) });
    const input = writeLines(dir, 'long.ndjson', [parcelLine(1), long, parcelLine(3)]);
    const r = await parcels(['create', '--from', input], { env });
    expect(r.code).toBe(2);
    expect(results(r)).toEqual([
      { line: 1, ok: true, outcome: 'created', entry_id: expect.stringMatching(UUID) },
      { line: 2, ok: false, outcome: 'failed', error: { code: 'invalid_line', message: 'is too long (over 1 MiB): skipped to its end' } },
      { line: 3, ok: true, outcome: 'created', entry_id: expect.stringMatching(UUID) },
    ]);
    expect(await allParcels(env)).toHaveLength(2);
  });

  it('--from /dev/zero ends at once: not text, nothing sent (exit 2); so does standard input from it', async () => {
    const { env } = await serve();
    const r = await parcels(['create', '--from', '/dev/zero'], { env });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --from: /dev/zero holds NUL bytes: it is not a text file (NDJSON or CSV); nothing was sent\nHint: give a UTF-8 NDJSON or CSV file\n',
    });
    const fromStdin = await new Promise<Spawned>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'events', 'add', '--from', '-', '--status', 'in_transit'], { env, stdio: [openSync('/dev/zero', 'r'), 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout?.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
    expect(fromStdin).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^Error: --from: - holds NUL bytes: it is not a text file/) });
    expect(await allParcels(env)).toEqual([]);
  });

  it('a NUL byte after the first read: the lines before it are created, then the run ends with the error naming its line', async () => {
    const { env, dir } = await serve();
    // 1,000 lines of ~75 bytes: past the first 64 KiB read, so lines were already handed on.
    const lines = Array.from({ length: 1000 }, (_, i) => parcelLine(i + 1));
    const input = join(dir, 'nul.ndjson');
    writeFileSync(input, `${lines.join('\n')}\n{"courier":"A-BIKE\u0000"}\n${parcelLine(1002)}\n`);
    const r = await parcels(['create', '--from', input], { env });
    expect(r.code).toBe(2);
    expect(results(r).map((l) => [l.line, l.ok])).toEqual(lines.map((_, i) => [i + 1, true]));
    expect(r.stderr).toBe(
      `Error: --from: ${input}:1001: holds a NUL byte: the input is not text from here on; reading stopped at this line (the lines before it were handled, none after it)\n` +
        'Hint: remove what is not text from the file and run the same command again\n',
    );
    expect(await allParcels(env)).toHaveLength(1000);
  });
  it('a --from path that is a pipe (/dev/stdin, `<(cmd)`) is read once, spooled like standard input: every line is created', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'p.ndjson', [parcelLine(1), parcelLine(2)]);
    // A shell pipe: the stdin of a spawned child is a socket, which /dev/stdin cannot open.
    const r = await new Promise<Spawned>((resolve) => {
      const child = spawn('sh', ['-c', 'cat "$0" | "$1" "$2" create --from /dev/stdin', input, process.execPath, BIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
    expect(r.code, r.stderr).toBe(0);
    expect(results(r).map((l) => [l.line, l.ok])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(await allParcels(env)).toHaveLength(2);
  });
});

describe('no symbolic links', () => {
  it('a planted journal link is refused (exit 2, nothing sent), its target untouched', async () => {
    const { env, dir } = await serve();
    const input = writeLines(dir, 'p.ndjson', [parcelLine(1), parcelLine(2)]);
    expect((await parcels(['create', '--from', input], { env })).code).toBe(0);
    const [journal] = filesEndingIn(join(dir, 'journals'), '.ndjson');
    const untouched = plantLink(dir, journal as string);
    const again = await parcels(['create', '--from', input], { env });
    expect(again).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining(`Error: ${journal as string} is a symbolic link; refusing to read it\n`) });
    untouched();
    expect(await allParcels(env)).toHaveLength(2);
  });

  it('a planted outbox link is refused (exit 2), its target untouched', async () => {
    const { env, dir } = await serve();
    const create = ['create', '--courier', 'A-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '7', '--offline', '--quiet'];
    expect((await parcels(create, { env })).code).toBe(75);
    const [outbox] = filesEndingIn(join(dir, 'journals'), 'outbox.ndjson');
    const untouched = plantLink(dir, outbox as string);
    const again = await parcels(create, { env });
    expect(again).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining(`Error: ${outbox as string} is a symbolic link; refusing to read it\n`) });
    expect((await parcels(['outbox', 'flush'], { env })).code).toBe(2);
    untouched();
    expect(await allParcels(env)).toEqual([]);
  });

  it('a planted spool link (standard input) is refused (exit 2, nothing sent), its target untouched', async () => {
    const { env, dir } = await serve();
    const text = `${parcelLine(1)}\n`;
    mkdirSync(join(dir, 'spool'), { recursive: true });
    const spool = join(dir, 'spool', `${createHash('sha256').update(text).digest('hex')}.input`);
    writeFileSync(spool, '');
    const untouched = plantLink(dir, spool);
    const r = await parcels(['create', '--from', '-'], { env, input: text });
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining(`Error: ${spool} is a symbolic link; refusing to write through it\n`) });
    untouched();
    expect(readdirSync(join(dir, 'spool'))).toEqual([`${createHash('sha256').update(text).digest('hex')}.input`]);
    expect(await allParcels(env)).toEqual([]);
  });
});

describe('signals while reading', () => {
  it('SIGTERM while standard input is being spooled ends the run at once: exit 143, nothing sent, no partial spool file', async () => {
    const { env, dir } = await serve();
    const spool = join(dir, 'spool');
    mkdirSync(spool, { recursive: true });
    const started = new Promise<void>((resolve) => {
      const watcher = watch(spool, () => {
        watcher.close();
        resolve();
      });
    });
    const run = piped(['create', '--from', '-'], env);
    run.child.stdin.write(`${parcelLine(1)}\n`);
    await started;
    run.child.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 143, stdout: '', stderr: '' });
    expect(readdirSync(spool)).toEqual([]);
    expect(await allParcels(env)).toEqual([]);
  });
});
