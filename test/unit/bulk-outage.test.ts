import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runImport } from '../../src/bulk/import.js';
import { OutboxWriter, dropFromOutbox, listOutbox } from '../../src/bulk/outbox.js';
import { flushOutbox } from '../../src/bulk/outbox-flush.js';
import { OutageCircuit, isNoAnswer } from '../../src/api/core/policy.js';
import type { RunOptions } from '../../src/bulk/runner.js';
import { runBulk } from '../../src/bulk/runner.js';
import type { ResultLine, Send, SendRequest } from '../../src/bulk/types.js';
import { ApiError, NetworkError } from '../../src/errors.js';
import { virtualTiming } from '../helpers/timing.js';
import type { Attempt } from '../helpers/bulk-fixtures.js';
import { created, itemsOf, lineOf, sendItem, retried } from '../helpers/bulk-fixtures.js';

const refused = (): NetworkError => new NetworkError('connection refused: connect ECONNREFUSED 127.0.0.1:1', 'connection_refused');

/** A run whose sender is a fake service's `send` attempt under the one retry piece. */
async function run(opts: Omit<RunOptions, 'emit' | 'send'> & { send: Attempt }): Promise<{ results: ResultLine[]; summary: Awaited<ReturnType<typeof runBulk>> }> {
  const results: ResultLine[] = [];
  const summary = await runBulk({ timing: virtualTiming(), random: () => 0.5, ...opts, send: retried(opts.send), emit: (r) => void results.push(r) });
  return { results, summary };
}

describe('outage circuit', () => {
  it('opens when one request fails without an answer more than `retries` times in a row with no answer anywhere since', () => {
    const circuit = new OutageCircuit(2);
    const a = circuit.streak();
    const b = circuit.streak();
    expect(a.failed(refused())).toBe(false);
    expect(b.failed(refused())).toBe(false);
    expect(a.failed(refused())).toBe(false);
    // An answer (any status) elsewhere: the service is reachable, every streak starts again.
    circuit.answered();
    expect(a.failed(refused())).toBe(false);
    expect(a.failed(refused())).toBe(false);
    expect(circuit.open).toBe(false);
    expect(a.failed(refused())).toBe(true);
    expect(circuit.open).toBe(true);
    expect(circuit.signal.aborted).toBe(true);
    expect(circuit.cause?.code).toBe('connection_refused');
    expect(b.failed(refused())).toBe(true);
  });

  it('counts refused, reset and timed-out requests as no answer; a malformed or oversized answer is an answer', () => {
    for (const code of ['connection_refused', 'connection_reset', 'timeout', 'dns_failure']) expect(isNoAnswer(new NetworkError('x', code))).toBe(true);
    for (const code of ['bad_response', 'response_too_large']) expect(isNoAnswer(new NetworkError('x', code))).toBe(false);
    expect(isNoAnswer(new ApiError(503, 'unavailable', 'down', undefined))).toBe(false);
  });

  it('a run against a service out of reach stops after one retry budget per line in flight: every line not sent, exit 8', async () => {
    let attempts = 0;
    const { results, summary } = await run({
      items: itemsOf(Array.from({ length: 100 }, (_, i) => sendItem(i + 1))),
      concurrency: 4,
      retries: 3,
      circuit: new OutageCircuit(3),
      send: async () => {
        attempts++;
        throw refused();
      },
    });
    expect(attempts).toBeLessThanOrEqual(4 * (1 + 3));
    expect(attempts).toBeGreaterThanOrEqual(1 + 3);
    expect(results.map((r) => r.line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(results.every((r) => r.outcome === 'not_sent' && r.error?.code === 'service_unreachable')).toBe(true);
    expect(summary).toMatchObject({ created: 0, failed: 0, notSent: 100, unreachable: 100, cancelled: false, exitCode: 8 });
  });

  it('an answer between failures keeps the run going: lines that keep failing fail on their own budget', async () => {
    const seen = new Map<number, number>();
    const { results, summary } = await run({
      items: itemsOf([1, 2, 3].map(sendItem)),
      concurrency: 3,
      retries: 2,
      circuit: new OutageCircuit(2),
      send: async (req) => {
        const line = lineOf(req);
        seen.set(line, (seen.get(line) ?? 0) + 1);
        if (line === 2) throw refused();
        if (line === 3 && (seen.get(3) ?? 0) <= 2) throw new ApiError(503, 'unavailable', 'busy', undefined);
        return created(line);
      },
    });
    expect(results.map((r) => r.outcome)).toEqual(['created', 'failed', 'created']);
    expect(seen.get(2)).toBe(3);
    expect(summary).toMatchObject({ created: 2, failed: 1, unreachable: 0, exitCode: 8 });
  });

  it('lines the outage kept from being sent go to `unsent` (the outbox) when given', async () => {
    const { results, summary } = await run({
      items: itemsOf([1, 2, 3].map(sendItem)),
      concurrency: 1,
      retries: 0,
      circuit: new OutageCircuit(0),
      unsent: (item) => Promise.resolve({ line: item.line, ok: false, outcome: 'queued' }),
      send: async () => {
        throw refused();
      },
    });
    expect(results).toEqual([1, 2, 3].map((line) => ({ line, ok: false, outcome: 'queued' })));
    expect(summary).toMatchObject({ queued: 3, unreachable: 0, failed: 0, exitCode: 75 });
  });
});

describe('--queue with --from (outbox and batch journal)', () => {
  const root = mkdtempSync(join(tmpdir(), 'bulk-queue-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('queued lines are not sent again; a dropped entry is; a flush records outcomes in the batch, whose next run sends nothing', async () => {
    const dataDir = mkdtempSync(join(root, 'data-'));
    const input = join(dataDir, 'p.ndjson');
    writeFileSync(input, `${[1, 2, 3].map((n) => JSON.stringify({ courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: String(n) })).join('\n')}\n`);
    const place = { dir: dataDir, target: 'test-target' };
    const sent: SendRequest[] = [];
    const up = retried(async (request) => {
      sent.push(request);
      return created(sent.length);
    });
    const down = retried(async () => {
      throw refused();
    });
    const run = async (send: Send, queue?: OutboxWriter) => {
      const results: ResultLine[] = [];
      const summary = await runImport({ kind: 'create', input, dataDir, target: place.target, send, emit: (r) => void results.push(r), retries: 0, timing: virtualTiming(), ...(queue === undefined ? {} : { queue }) });
      queue?.close();
      return { results, summary };
    };

    const first = await run(down, new OutboxWriter(place, 'create', () => 0));
    expect(first.results.map((r) => r.outcome)).toEqual(['queued', 'queued', 'queued']);
    expect(first.summary).toMatchObject({ queued: 3, exitCode: 75 });
    const entries = await listOutbox(place);
    expect(entries.map((e) => e.body.number)).toEqual(['1', '2', '3']);

    const again = await run(up);
    expect(sent).toHaveLength(0);
    expect(again.summary).toMatchObject({ queued: 3, exitCode: 75 });

    // Dropped from the outbox: no longer on its way, so the batch sends it (same key).
    await dropFromOutbox(place, { seqs: [entries[0]?.seq as number] });
    const resent = await run(up);
    expect(resent.results.map((r) => r.outcome)).toEqual(['created', 'queued', 'queued']);
    expect(sent.map((r) => JSON.parse(Buffer.from(r.body).toString()) as { number: string }).map((b) => b.number)).toEqual(['1']);

    const flushed = await flushOutbox(place, { send: up, emit: () => undefined, timing: virtualTiming() });
    expect(flushed).toMatchObject({ created: 2, left: 0 });
    const last = await run(up);
    expect(sent).toHaveLength(3);
    expect(last.results.map((r) => r.outcome)).toEqual(['already_done', 'already_done', 'already_done']);
    expect(last.summary.exitCode).toBe(0);
  });
});
