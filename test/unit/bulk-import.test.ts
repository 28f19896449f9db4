import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http.js';
import { walkParcels } from '../../src/api/parcels.js';
import type { ImportOptions } from '../../src/bulk/import.js';
import { runImport } from '../../src/bulk/import.js';
import type { ResultLine, Send } from '../../src/bulk/types.js';
import { JournalLockedError } from '../../src/bulk/journal/lock.js';
import { PoolGate } from '../../src/api/core/gate.js';
import type { Timing } from '../../src/api/core/sleep.js';
import type { RunningSandbox, SandboxOptions, TimeSources } from '../../src/sandbox/index.js';
import { DEMO_API_KEY, manualTime, startSandbox } from '../../src/sandbox/index.js';
import { virtualTiming } from '../helpers/timing.js';

const root = mkdtempSync(join(tmpdir(), 'bulk-import-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dataDir: string;
let sandbox: RunningSandbox | undefined;
const clients: ApiClient[] = [];
beforeEach(() => {
  dataDir = mkdtempSync(join(root, 'data-'));
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await sandbox?.close();
  sandbox = undefined;
});

async function start(opts: SandboxOptions = {}): Promise<string> {
  sandbox = await startSandbox({ db: ':memory:', ...opts });
  return sandbox.url;
}

/** The engine's client has no retries of its own; the reader used to check results retries through injected faults. */
function client(url: string, retries = 0, gate?: PoolGate, trace?: (line: string) => void): ApiClient {
  const c = new ApiClient({ baseUrl: url, apiKey: DEMO_API_KEY, timeoutMs: 5000, retries, userAgent: 'bulk-test', connections: 64, sleep: async () => undefined, gate, trace });
  clients.push(c);
  return c;
}

/**
 * The engine's clock on the sandbox's elapsed time. A sleep moves both once every request in flight
 * has its answer: on a real network a round trip is a few milliseconds of a one-second window.
 */
function sandboxTiming(time: TimeSources & { advanceElapsed(ms: number): void }, inFlight: () => number): Timing {
  return {
    now: () => time.elapsedMs(),
    sleep: async (ms) => {
      const until = time.elapsedMs() + ms;
      do await new Promise((resolve) => setImmediate(resolve));
      while (inFlight() > 0);
      time.advanceElapsed(Math.max(0, until - time.elapsedMs()));
    },
  };
}

/** A sender that counts the requests it puts on the wire (every attempt, read from its trace). */
function counting(url: string, gate?: PoolGate): { send: Send; calls: number } {
  const counted = { calls: 0 };
  const sender = client(url, 0, gate, (line) => {
    if (line.startsWith('> POST ')) counted.calls++;
  });
  return Object.assign(counted, { send: sender.send });
}

function parcelLine(i: number): string {
  return JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: String(i) });
}

function writeInput(name: string, lines: string[]): string {
  const path = join(dataDir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function allParcels(url: string): Promise<Array<Record<string, unknown>>> {
  const parcels: Array<Record<string, unknown>> = [];
  for await (const page of walkParcels(client(url, 30), { limit: 100 })) {
    parcels.push(...((page.data as { parcels: Array<Record<string, unknown>> }).parcels));
  }
  return parcels;
}

async function importRun(opts: Partial<ImportOptions> & Pick<ImportOptions, 'input' | 'send'>) {
  const results: ResultLine[] = [];
  const summary = await runImport({
    kind: 'create',
    dataDir,
    target: 'test|sandbox',
    timing: virtualTiming(),
    random: () => 0.5,
    emit: (r) => void results.push(r),
    ...opts,
  });
  return { results, summary };
}

describe('bulk import against a real sandbox', () => {
  it('2,000 lines through 10% failures and 10% dropped connections end with exactly 2,000 parcels; a re-run sends nothing', async () => {
    const url = await start({ faults: { failRate: 0.1, dropRate: 0.1, seed: 1234 } });
    const input = writeInput('parcels.ndjson', Array.from({ length: 2000 }, (_, i) => parcelLine(i + 1)));
    const sender = counting(url);
    const first = await importRun({ input, send: sender.send, concurrency: 32 });
    // A line whose first answer was lost is resent: the service replays it, and it is counted as replayed.
    expect(first.summary).toMatchObject({ alreadyDone: 0, failed: 0, exitCode: 0, cancelled: false });
    expect(first.summary.created + first.summary.replayed).toBe(2000);
    expect(first.summary.replayed).toBe(first.results.filter((r) => r.outcome === 'replayed').length);
    expect(first.results.map((r) => r.line)).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
    expect(sender.calls).toBeGreaterThan(2000);

    const parcels = await allParcels(url);
    expect(parcels).toHaveLength(2000);
    expect(new Set(parcels.map((p) => p.number)).size).toBe(2000);
    expect(new Set(first.results.map((r) => r.entry_id))).toEqual(new Set(parcels.map((p) => p.entry_id)));

    const resend = counting(url);
    const second = await importRun({ input, send: resend.send, concurrency: 32 });
    expect(resend.calls).toBe(0);
    expect(second.summary).toMatchObject({ created: 0, alreadyDone: 2000, failed: 0, exitCode: 0, batch: first.summary.batch });
    expect(second.results.every((r) => r.ok && r.outcome === 'already_done')).toBe(true);
    expect(second.results.map((r) => r.entry_id)).toEqual(first.results.map((r) => r.entry_id));
    expect(await allParcels(url)).toHaveLength(2000);
  }, 60_000);

  it('lines left uncertain (answers lost) are resent with their same keys and bytes: no duplicate', async () => {
    const db = join(dataDir, 'sandbox.db');
    const input = writeInput('p.ndjson', Array.from({ length: 20 }, (_, i) => parcelLine(i + 1)));
    let url = await start({ db, faults: { dropRate: 1, seed: 5 } });
    const lost = await importRun({ input, send: client(url).send, retries: 0 });
    // No answer at all: the outage stop ends the run after one line's retry budget; every line stays uncertain.
    expect(lost.summary).toMatchObject({ created: 0, failed: 0, notSent: 20, unreachable: 20, cancelled: false, exitCode: 8 });
    expect(lost.results[0]).toMatchObject({ line: 1, ok: false, outcome: 'not_sent', error: { code: 'service_unreachable' } });
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await sandbox?.close();

    url = await start({ db });
    const again = await importRun({ input, send: client(url).send });
    // The lines in flight when the run stopped had been applied: the service replays them.
    expect(again.summary).toMatchObject({ alreadyDone: 0, failed: 0, exitCode: 0 });
    expect(again.summary.created + again.summary.replayed).toBe(20);
    expect(await allParcels(url)).toHaveLength(20);
  });

  it('bad lines are reported by number with the field and rule; the rest are created; exit 2', async () => {
    const url = await start();
    const input = writeInput('mixed.ndjson', [
      parcelLine(1),
      '{"courier":"DEMO-BIKE","country":"NL","postal_code":"1234AB"}',
      parcelLine(3),
      '{"courier":"DEMO-BIKE",',
      JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '5', parcel_weight: 'heavy' }),
      parcelLine(6),
    ]);
    const { results, summary } = await importRun({ input, send: client(url).send });
    expect(results.filter((r) => !r.ok)).toEqual([
      { line: 2, ok: false, outcome: 'failed', error: { code: 'invalid_line', field: 'number', message: 'number is required' } },
      { line: 4, ok: false, outcome: 'failed', error: { code: 'invalid_line', message: expect.stringMatching(/^is not valid JSON \(/) } },
      { line: 5, ok: false, outcome: 'failed', error: { code: 'invalid_line', field: 'parcel_weight', message: 'parcel_weight must be an integer (got "heavy")' } },
    ]);
    expect(summary).toMatchObject({ created: 3, failed: 3, exitCode: 2 });
    expect((await allParcels(url)).map((p) => p.number).sort()).toEqual(['1', '3', '6']);
  });

  it('CSV: integer columns arrive as integers', async () => {
    const url = await start();
    const path = join(dataDir, 'p.csv');
    writeFileSync(path, 'courier,country,postal_code,number,parcel_weight,addition\nDEMO-BIKE,NL,1234AB,10,1200,\nDEMO-VAN,NL,1234AB,11,,B\n');
    const { results, summary } = await importRun({ input: path, send: client(url).send });
    expect(summary).toMatchObject({ created: 2, exitCode: 0 });
    expect(results.map((r) => r.line)).toEqual([2, 3]);
    const parcels = await allParcels(url);
    const byNumber = Object.fromEntries(parcels.map((p) => [p.number, p]));
    expect(byNumber['10']).toMatchObject({ courier: 'DEMO-BIKE', parcel_weight: 1200 });
    expect(byNumber['11']).toMatchObject({ courier: 'DEMO-VAN', addition: 'B' });
  });

  it('standard input is spooled so it gets a batch identity: the same input twice is one batch', async () => {
    const url = await start();
    const text = `${parcelLine(1)}\n${parcelLine(2)}\n`;
    const first = await importRun({ input: '-', stdin: Readable.from([Buffer.from(text)]), send: client(url).send });
    const sender = counting(url);
    const second = await importRun({ input: '-', stdin: Readable.from([Buffer.from(text)]), send: sender.send });
    expect(first.summary).toMatchObject({ created: 2, exitCode: 0 });
    expect(second.summary).toMatchObject({ created: 0, alreadyDone: 2, exitCode: 0, batch: first.summary.batch });
    expect(sender.calls).toBe(0);
    expect(await allParcels(url)).toHaveLength(2);
  });

  it('two runs of one batch at once: the second is refused before sending anything', async () => {
    const url = await start();
    const input = writeInput('p.ndjson', [parcelLine(1), parcelLine(2)]);
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sending: (() => void) | undefined;
    // The first run holds its journal from before its first request until its end.
    const firstSends = new Promise<void>((resolve) => (sending = resolve));
    const real = client(url).send;
    const firstRun = importRun({
      input,
      send: async (req, run) => {
        sending?.();
        await held;
        return real(req, run);
      },
    });
    await firstSends;
    const other = counting(url);
    await expect(importRun({ input, send: other.send })).rejects.toThrow(JournalLockedError);
    expect(other.calls).toBe(0);
    release?.();
    expect((await firstRun).summary).toMatchObject({ created: 2, exitCode: 0 });
    expect(await allParcels(url)).toHaveLength(2);
  });

  it('the same file to another target is another batch journal: it is sent again there', async () => {
    const url = await start();
    const input = writeInput('p.ndjson', [parcelLine(1)]);
    await importRun({ input, send: client(url).send, target: 'staging' });
    const sender = counting(url);
    const there = await importRun({ input, send: sender.send, target: 'production' });
    expect(sender.calls).toBe(1);
    // The key is the same (not derived from the target): the service recognises the replay.
    expect(there.summary).toMatchObject({ created: 0, replayed: 1, alreadyDone: 0 });
    expect(await allParcels(url)).toHaveLength(1);
  });

  it('events and attempts land on the right parcels; list output lines, bare ids, command-line overrides', async () => {
    const url = await start();
    const created = await importRun({ input: writeInput('p.ndjson', [1, 2, 3].map(parcelLine)), send: client(url).send });
    const ids = created.results.map((r) => r.entry_id as string);
    const listed = await allParcels(url);
    const listOutput = writeInput('list.ndjson', ids.map((id) => JSON.stringify(listed.find((p) => p.entry_id === id))));
    const at = Math.floor(Date.now() / 1000) - 60;
    const events = await importRun({ kind: 'events', input: listOutput, send: client(url).send, overrides: { status: 2, occurred_at: at }, concurrency: 3 });
    expect(events.summary).toMatchObject({ created: 3, failed: 0, exitCode: 0 });
    expect(events.summary.ignoredFields).toBeGreaterThan(0);
    expect(events.results.map((r) => r.entry_id)).toEqual(ids);
    for (const id of ids) {
      const list = await client(url).route('events.list', { params: { id } });
      expect((list.data as { events: Array<Record<string, unknown>> }).events.map((e) => [e.status, e.occurred_at])).toEqual([[2, at]]);
    }

    const idsFile = writeInput('ids.txt', [ids[0] as string, ids[2] as string]);
    const attempts = await importRun({ kind: 'attempts', input: idsFile, send: client(url).send, overrides: { time_attempt: at, outcome: 1, reason: 1 } });
    expect(attempts.summary).toMatchObject({ created: 2, exitCode: 0 });
    expect(attempts.results.map((r) => r.entry_id)).toEqual([ids[0], ids[2]]);
    const parcels = Object.fromEntries((await allParcels(url)).map((p) => [p.entry_id, p]));
    expect(parcels[ids[1] as string]?.status).toBe(2);
    expect(parcels[ids[0] as string]?.status).not.toBe(2);
  });

  it('an event for a parcel that does not exist fails that line with 404 (exit 4), not the run', async () => {
    const url = await start();
    const at = Math.floor(Date.now() / 1000);
    const input = writeInput('e.ndjson', [JSON.stringify({ entry_id: '00000000-0000-4000-8000-000000000000', status: 1, occurred_at: at })]);
    const { results, summary } = await importRun({ kind: 'events', input, send: client(url).send });
    expect(results).toEqual([{ line: 1, ok: false, outcome: 'failed', error: { status: 404, code: 'parcel_not_found', message: expect.any(String) } }]);
    expect(summary.exitCode).toBe(4);
  });

  it('a rate-limited sandbox: the run spends each window and waits out its end, drawing no 429 (virtual time shared with the sandbox)', async () => {
    const time = manualTime(Date.UTC(2026, 10, 22));
    const url = await start({ rateLimit: { requests: 15, window_s: 1 }, time });
    const input = writeInput('p.ndjson', Array.from({ length: 40 }, (_, i) => parcelLine(i + 1)));
    // As a run wires it (bulk/command.ts): the engine admits through the gate that reads the answers.
    const gate: PoolGate = new PoolGate(sandboxTiming(time, () => gate.inFlight));
    const sender = counting(url, gate);
    const { summary } = await importRun({ input, send: sender.send, concurrency: 8, gate });
    expect(summary).toMatchObject({ created: 40, failed: 0, exitCode: 0 });
    // Paced from the RateLimit-* fields: 15 + 15 + 10 lines in three windows, each line sent once.
    // Unpaced, the 16th request of a window draws a 429 and is sent again after its Retry-After.
    expect(sender.calls).toBe(40);
    expect(time.elapsedMs()).toBe(2000);
    expect(await allParcels(url)).toHaveLength(40);
  });

  it('results stay in input order at concurrency 64 with bounded buffering', async () => {
    const url = await start({ faults: { latencyMs: 0 } });
    const input = writeInput('p.ndjson', Array.from({ length: 1500 }, (_, i) => parcelLine(i + 1)));
    const { results, summary } = await importRun({ input, send: client(url).send, concurrency: 64 });
    expect(results.map((r) => r.line)).toEqual(Array.from({ length: 1500 }, (_, i) => i + 1));
    expect(summary.maxBuffered).toBeLessThanOrEqual(256);
  });

  it('an unreachable service: the run stops, every line not sent (exit 8) and uncertain', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
      });
    });
    const input = writeInput('p.ndjson', [parcelLine(1)]);
    const { results, summary } = await importRun({ input, send: client(`http://127.0.0.1:${port}`).send, retries: 2 });
    expect(results).toEqual([{ line: 1, ok: false, outcome: 'not_sent', error: { code: 'service_unreachable', message: expect.any(String) } }]);
    expect(summary).toMatchObject({ failed: 0, unreachable: 1, exitCode: 8 });
  });

  it('a relative time in a file resolves against the batch\'s first run: a line added and sent a day later gets the same time', async () => {
    const url = await start();
    const header = 'courier,country,postal_code,number,time_slot_period_start';
    const input = writeInput('slots.csv', [header, 'DEMO-BIKE,NL,1234AB,1,now']);
    const monday = 1_790_000_000;
    const first = await importRun({ input, send: client(url).send, now: () => monday });
    expect(first.results.map((r) => [r.line, r.outcome])).toEqual([[2, 'created']]);
    writeInput('slots.csv', [header, 'DEMO-BIKE,NL,1234AB,1,now', 'DEMO-BIKE,NL,1234AB,2,now']);
    const second = await importRun({ input, send: client(url).send, now: () => monday + 86_400, continueBatch: true });
    // The first line's identity keeps "now" as written: the same request, already done.
    expect(second.results.map((r) => [r.line, r.outcome])).toEqual([
      [2, 'already_done'],
      [3, 'created'],
    ]);
    expect((await allParcels(url)).map((p) => [p.number, p.time_slot_period_start]).sort()).toEqual([
      ['1', monday],
      ['2', monday],
    ]);
  });
});
