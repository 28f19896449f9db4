/**
 * End-to-end outage stop: a bulk run against a service that cannot be reached stops after one
 * line's retry budget per line in flight (connection attempts counted on a loopback server that
 * accepts and drops every connection), exits 8 with the command that resumes it, and that command
 * creates every line exactly once once the service is back on the same port.
 */
import { describe, expect, it } from 'vitest';
import { TEST_SEED } from '../helpers/seed.js';
import { FULL_KEY } from '../helpers/seed.js';
import { binaryEnv } from '../helpers/spawn.js';
import { bulkHelpers, droppingServer, parcelLine } from '../helpers/bulk.js';

const { parcels, serve, writeLines, results, allParcels } = bulkHelpers();

describe('bulk run during an outage', () => {
  it('stops after one retry budget per line in flight, exits 8, and its resume command creates every line exactly once', async () => {
    const down = await droppingServer();
    const env = binaryEnv({ PARCELS_BASE_URL: `http://127.0.0.1:${down.port}`, PARCELS_API_KEY: FULL_KEY });
    const dir = env.PARCELS_CONFIG_DIR as string;
    const input = writeLines(dir, 'parcels.ndjson', Array.from({ length: 40 }, (_, i) => parcelLine(i + 1)));
    const args = ['create', '--from', input, '--concurrency', '4', '--retries', '2'];

    const run = await parcels(args, { env });
    expect(run.code, run.stderr).toBe(8);
    // 4 lines in flight, each at most 1 + 2 attempts: the outage stop, not 40 lines × 3.
    expect(down.connections()).toBeGreaterThanOrEqual(3);
    expect(down.connections()).toBeLessThanOrEqual(4 * 3);
    const lines = results(run);
    expect(lines.map((r) => r.line)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(lines.every((r) => r.ok === false && r.outcome === 'not_sent' && (r.error as { code: string }).code === 'service_unreachable')).toBe(true);
    const command = `parcels create --from ${input} --concurrency 4 --retries 2`;
    expect(run.stderr).toMatch(
      new RegExp(
        `^! the service cannot be reached \\(connection closed by the service before a complete answer: [^\\n]*\\); nothing is wrong with ${input}: 40 lines were not sent\\n` +
          `! Stopped after 0 of 40 lines: 0 created, 0 already done, 0 failed, 40 not sent in \\d+\\.\\d s, \\d+ lines/s \\(batch [0-9a-f]{16}\\)\\n` +
          `Hint: run \`${command}\` once the service is back: it sends the lines not sent, with the same keys, and replays the rest\\n$`,
      ),
    );
    await down.close();

    const { env: up } = await serve(TEST_SEED, ['--port', String(down.port)]);
    const resumed = await parcels(command.split(' ').slice(1), { env: { ...up, PARCELS_CONFIG_DIR: dir } });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(results(resumed).every((r) => r.ok === true && r.outcome === 'created')).toBe(true);
    expect(resumed.stderr).toMatch(/^✓ 40 lines read: 40 created, 0 already done, 0 failed in /);
    const stored = await allParcels({ ...up, PARCELS_CONFIG_DIR: dir });
    expect(stored).toHaveLength(40);
    expect(new Set(stored.map((p) => p.number)).size).toBe(40);
  }, 120_000);

  it('--queue --from: the lines not sent go to the outbox (exit 75); a re-run sends nothing; outbox flush creates each once and the batch then counts them done', async () => {
    const down = await droppingServer();
    const env = binaryEnv({ PARCELS_BASE_URL: `http://127.0.0.1:${down.port}`, PARCELS_API_KEY: FULL_KEY });
    const dir = env.PARCELS_CONFIG_DIR as string;
    const input = writeLines(dir, 'parcels.ndjson', Array.from({ length: 30 }, (_, i) => parcelLine(i + 1)));
    const args = ['create', '--from', input, '--concurrency', '4', '--retries', '1', '--queue'];

    const run = await parcels(args, { env });
    expect(run.code, run.stderr).toBe(75);
    expect(down.connections()).toBeLessThanOrEqual(4 * 2);
    expect(results(run)).toEqual(Array.from({ length: 30 }, (_, i) => ({ line: i + 1, ok: false, outcome: 'queued' })));
    expect(run.stderr).toMatch(
      /^! the service cannot be reached \(connection closed by the service before a complete answer: [^\n]*\): 30 lines were kept in the outbox \(30 waiting\); `parcels outbox flush` sends them\n✓ 30 lines read: 0 created, 0 already done, 30 queued, 0 failed in \d+\.\d s, \d+ lines\/s \(batch [0-9a-f]{16}\)\n$/,
    );

    // Still down: the queued lines are on their way, not sent again.
    const attempts = down.connections();
    const again = await parcels(args, { env });
    expect(again.code, again.stderr).toBe(75);
    expect(down.connections()).toBe(attempts);
    expect(results(again).every((r) => r.outcome === 'queued')).toBe(true);
    await down.close();

    const { env: up } = await serve(TEST_SEED, ['--port', String(down.port)]);
    const back = { ...up, PARCELS_CONFIG_DIR: dir };
    const flush = await parcels(['outbox', 'flush'], { env: back });
    expect(flush.code, flush.stderr).toBe(0);
    expect(results(flush).filter((r) => r.outcome === 'created')).toHaveLength(30);
    const stored = await allParcels(back);
    expect(stored).toHaveLength(30);
    expect(new Set(stored.map((p) => p.number)).size).toBe(30);

    const rerun = await parcels(['create', '--from', input], { env: back });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(results(rerun).every((r) => r.outcome === 'already_done')).toBe(true);
    expect(rerun.stderr).toMatch(/^✓ \d+ lines read: 0 created, 30 already done, 0 failed in /);
    expect(await allParcels(back)).toHaveLength(30);
  }, 120_000);
});
