/**
 * A bulk run keeps at most `--concurrency` requests in flight, over a pool with a quarter more
 * connections than that (src/api/core/transport.ts, `connectionsFor`): undici rests a connection
 * for a turn of the event loop after each answer, and a spare one lets the next line go at once.
 * The built CLI against a loopback server that answers each create after a timer of its own and
 * counts the requests it holds at once and the connections it was opened.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parcelLine, writeLines } from '../helpers/bulk.js';
import { tempConfigDir } from '../helpers/cli.js';
import { binaryEnv, parcels } from '../helpers/spawn.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Answers every create with 201 after `delayMs`; counts what it holds at once and the connections made. */
async function countingService(delayMs: number) {
  const seen = { held: 0, mostHeld: 0, connections: 0, creates: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/deliveries/v1/parcels') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'not_found', message: 'not here' } }));
        return;
      }
      seen.creates++;
      seen.mostHeld = Math.max(seen.mostHeld, ++seen.held);
      setTimeout(() => {
        seen.held--;
        const entryId = randomUUID();
        res.writeHead(201, { 'content-type': 'application/json', location: `/deliveries/v1/parcels/${entryId}` }).end(JSON.stringify({ data: { entry_id: entryId } }));
      }, delayMs);
    });
  });
  server.on('connection', () => seen.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('bulk connections', () => {
  it.each([
    [4, 5],
    [8, 10],
  ])('--concurrency %i: never more than that many creates held at the service, over at most %i connections', async (concurrency, connections) => {
    const service = await countingService(15);
    const file = writeLines(tempConfigDir(), 'parcels.ndjson', Array.from({ length: 120 }, (_, i) => parcelLine(i)));
    const env = binaryEnv({ PARCELS_BASE_URL: service.url, PARCELS_API_KEY: 'test_key_0123456789abcdef' });
    const run = await parcels(['create', '--from', file, '--concurrency', String(concurrency), '--quiet'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(120);
    expect(service.seen.creates).toBe(120);
    expect(service.seen.mostHeld).toBe(concurrency);
    expect(service.seen.connections).toBeGreaterThan(concurrency);
    expect(service.seen.connections).toBeLessThanOrEqual(connections);
  });
});
