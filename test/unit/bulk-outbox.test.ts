import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../src/api/http.js';
import type { OutboxPlace } from '../../src/bulk/outbox.js';
import { captureRequest, listOutbox } from '../../src/bulk/outbox.js';
import { flushOutbox } from '../../src/bulk/outbox-flush.js';
import type { ResultLine, SendRequest } from '../../src/bulk/types.js';
import { journalPath } from '../../src/bulk/journal/paths.js';
import { ConflictError } from '../../src/errors.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { DEMO_API_KEY, startSandbox } from '../../src/sandbox/index.js';
import { virtualTiming } from '../helpers/timing.js';
import type * as SleepModule from '../../src/api/core/sleep.js';

// The one abortable sleep, as it is, but telling a test when something starts a wait with it: a lock
// held by another process is released once the capture is seen waiting for it, not after a delay.
const sleeps = vi.hoisted(() => ({ waiters: [] as Array<() => void> }));
vi.mock('../../src/api/core/sleep.js', async (importOriginal) => {
  const real = await importOriginal<typeof SleepModule>();
  const sleep: typeof real.sleep = (ms, signal) => {
    for (const wake of sleeps.waiters.splice(0)) wake();
    return real.sleep(ms, signal);
  };
  return { ...real, sleep };
});
/** Resolves when the next wait starts. */
function nextWait(): Promise<void> {
  return new Promise((resolve) => sleeps.waiters.push(resolve));
}

let dir: string;
let place: OutboxPlace;
let sandbox: RunningSandbox;
let db: string;
const clients: ApiClient[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'outbox-'));
  db = join(dir, 'sandbox.db');
  place = { dir, target: 'default|http://sandbox' };
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

function client(url: string, trace?: (line: string) => void): ApiClient {
  const c = new ApiClient({ baseUrl: url, apiKey: DEMO_API_KEY, timeoutMs: 5000, retries: 0, userAgent: 'outbox-test', trace });
  clients.push(c);
  return c;
}

const eventRequest = (parcel: string, status: number, at: number, key: string): SendRequest => ({
  method: 'POST',
  path: `/deliveries/v1/parcels/${parcel}/events`,
  body: Buffer.from(JSON.stringify({ status, occurred_at: at })),
  idempotencyKey: key,
});

async function flush(url: string) {
  const results: ResultLine[] = [];
  const summary = await flushOutbox(place, { send: client(url).send, emit: (r) => void results.push(r), timing: virtualTiming(), retries: 2 });
  return { results, summary };
}

describe('offline outbox', () => {
  it('queues while the service is down, then delivers everything exactly once in capture order when it is back', async () => {
    sandbox = await startSandbox({ db });
    const created = await client(sandbox.url).route('parcels.create', { body: { courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '1' }, idempotencyKey: 'setup-key-0001' });
    const parcel = (created.data as { entry_id: string }).entry_id;
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await sandbox.close();

    // Down: the commands capture instead of sending. Observation times are fixed at capture.
    const at = Math.floor(Date.now() / 1000) - 3600;
    expect(await captureRequest(place, { command: 'events add', parcel, request: eventRequest(parcel, 1, at, 'outbox-key-0001') }, 1000)).toEqual({ waiting: 1 });
    expect(await captureRequest(place, { command: 'events add', parcel, request: eventRequest(parcel, 2, at + 60, 'outbox-key-0002') }, 2000)).toEqual({ waiting: 2 });
    expect(await listOutbox(place)).toEqual([
      { seq: 1, command: 'events add', parcel, method: 'POST', path: `/deliveries/v1/parcels/${parcel}/events`, capturedAt: 1000, state: 'waiting', body: { status: 1, occurred_at: at } },
      { seq: 2, command: 'events add', parcel, method: 'POST', path: `/deliveries/v1/parcels/${parcel}/events`, capturedAt: 2000, state: 'waiting', body: { status: 2, occurred_at: at + 60 } },
    ]);

    sandbox = await startSandbox({ db });
    const first = await flush(sandbox.url);
    expect(first.results.map((r) => [r.line, r.ok, r.entry_id])).toEqual([
      [1, true, parcel],
      [2, true, parcel],
    ]);
    expect(first.summary).toMatchObject({ created: 2, failed: 0, left: 0, exitCode: 0 });
    expect(await listOutbox(place)).toEqual([]);

    const second = await flush(sandbox.url);
    expect(second.results).toEqual([]);
    expect(second.summary).toMatchObject({ created: 0, left: 0, exitCode: 0 });
    const events = await client(sandbox.url).route('events.list', { params: { id: parcel } });
    expect((events.data as { events: Array<{ status: number; occurred_at: number }> }).events.map((e) => [e.status, e.occurred_at])).toEqual([
      [1, at],
      [2, at + 60],
    ]);
  });

  it('a capture waits for the outbox held by another command, and past its wait fails with a conflict naming the holder', async () => {
    const parcel = '00000000-0000-4000-8000-000000000001';
    const at = Math.floor(Date.now() / 1000);
    await captureRequest(place, { command: 'events add', parcel, request: eventRequest(parcel, 1, at, 'outbox-key-0001') }, 1);
    const lock = `${journalPath(dir, place.target, 'outbox')}.lock`;
    writeFileSync(lock, `${process.pid}\n`);
    const waiting = nextWait();
    const capture = captureRequest(place, { command: 'events add', parcel, request: eventRequest(parcel, 2, at, 'outbox-key-0002') }, 2, 5_000);
    await waiting;
    rmSync(lock);
    expect(await capture).toEqual({ waiting: 2 });

    writeFileSync(lock, `${process.pid}\n`);
    const refused = captureRequest(place, { command: 'events add', parcel, request: eventRequest(parcel, 3, at, 'outbox-key-0003') }, 3, 100);
    await expect(refused).rejects.toThrow(ConflictError);
    await expect(refused).rejects.toThrow(`the outbox is still in use by another parcels process (pid ${process.pid}) after 0.1 s (outbox ${lock})`);
    rmSync(lock);
    expect((await listOutbox(place)).map((e) => e.seq)).toEqual([1, 2]);
  });

  it('keeps what still fails (service unreachable), moves aside what the service rejects (4xx)', async () => {
    sandbox = await startSandbox({ db });
    const url = sandbox.url;
    await sandbox.close();
    const at = Math.floor(Date.now() / 1000);
    const missing = '00000000-0000-4000-8000-000000000000';
    await captureRequest(place, { command: 'events add', parcel: missing, request: eventRequest(missing, 1, at, 'outbox-key-0003') }, 5);

    const down = await flush(url);
    expect(down.summary).toMatchObject({ created: 0, failed: 1, left: 1, exitCode: 8 });
    expect((await listOutbox(place)).map((e) => e.state)).toEqual(['waiting']);

    sandbox = await startSandbox({ db });
    const back = await flush(sandbox.url);
    expect(back.results).toEqual([{ line: 1, ok: false, outcome: 'failed', error: { status: 404, code: 'parcel_not_found', message: expect.any(String) } }]);
    expect(back.summary).toMatchObject({ failed: 1, left: 0, exitCode: 4 });
    expect(await listOutbox(place)).toEqual([
      { seq: 1, command: 'events add', parcel: missing, method: 'POST', path: `/deliveries/v1/parcels/${missing}/events`, capturedAt: 5, state: 'rejected', status: 404, code: 'parcel_not_found', body: expect.objectContaining({ status: 1 }) },
    ]);
    // Moved aside: never sent again.
    expect((await flush(sandbox.url)).results).toEqual([]);
  });

  it('stops at the first entry that still cannot be delivered: the later ones are not tried and keep their order', async () => {
    sandbox = await startSandbox({ db });
    const url = sandbox.url;
    await sandbox.close();
    const at = Math.floor(Date.now() / 1000);
    const parcel = '00000000-0000-4000-8000-000000000001';
    for (let i = 1; i <= 3; i++) {
      await captureRequest(place, { command: 'events add', parcel, request: eventRequest(parcel, 1, at, `outbox-key-10${i}0`) }, i);
    }
    // Each attempt on the wire, read from the client's trace.
    const sent: string[] = [];
    const results: ResultLine[] = [];
    const summary = await flushOutbox(place, {
      send: client(url, (line) => {
        const key = /^> Idempotency-Key: (.*)$/.exec(line)?.[1];
        if (key !== undefined) sent.push(key);
      }).send,
      emit: (r) => void results.push(r),
      timing: virtualTiming(),
      retries: 2,
    });
    // The first entry with its 2 retries, nothing of the others.
    expect(sent).toEqual(['outbox-key-1010', 'outbox-key-1010', 'outbox-key-1010']);
    expect(results.map((r) => [r.line, r.ok, r.error?.code])).toEqual([[1, false, 'connection_refused']]);
    expect(summary).toMatchObject({ failed: 1, left: 3, notTried: 2, exitCode: 8 });
    expect((await listOutbox(place)).map((e) => [e.seq, e.state])).toEqual([
      [1, 'waiting'],
      [2, 'waiting'],
      [3, 'waiting'],
    ]);
  });

  it('is compacted by a flush: delivered entries leave the file, waiting and rejected ones stay', async () => {
    sandbox = await startSandbox({ db });
    const created = await client(sandbox.url).route('parcels.create', { body: { courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '1' }, idempotencyKey: 'setup-key-0002' });
    const parcel = (created.data as { entry_id: string }).entry_id;
    const missing = '00000000-0000-4000-8000-000000000002';
    const at = Math.floor(Date.now() / 1000);
    await captureRequest(place, { command: 'events add', parcel, request: eventRequest(parcel, 1, at, 'outbox-key-2001') }, 1);
    await captureRequest(place, { command: 'events add', parcel: missing, request: eventRequest(missing, 1, at, 'outbox-key-2002') }, 2);
    await flush(sandbox.url);
    const text = readFileSync(journalPath(dir, place.target, 'outbox'), 'utf8');
    expect(text.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { t: string }).t)).toEqual(['meta', 'sent', 'rejected']);
    expect(text).toContain('outbox-key-2002');
    expect(text).not.toContain('outbox-key-2001');
    // A capture after the compaction still lists after the entry moved aside.
    await captureRequest(place, { command: 'events add', parcel, request: eventRequest(parcel, 2, at, 'outbox-key-2003') }, 3);
    expect((await listOutbox(place)).map((e) => [e.seq, e.state])).toEqual([
      [2, 'rejected'],
      [3, 'waiting'],
    ]);
  });

  it('belongs to its profile and base URL: another target has its own outbox', async () => {
    await captureRequest(place, { command: 'create', request: { method: 'POST', path: '/deliveries/v1/parcels', body: Buffer.from('{}'), idempotencyKey: 'outbox-key-0004' } }, 1);
    expect(await listOutbox({ dir, target: 'default|https://api.example.com' })).toEqual([]);
    expect(await listOutbox(place)).toHaveLength(1);
  });
});
