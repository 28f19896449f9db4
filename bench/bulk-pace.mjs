// A bulk run's pace against `parcels sandbox serve` (issue 19), one run each. Run after `npm run build`:
//   node bench/bulk-pace.mjs [--latency-lines 4000] [--rate-lines 900] [--cpu-lines 4000]
// 1. latency: `create --from` of --latency-lines lines, --concurrency 32, against `sandbox serve
//    --latency 50`: the run's own rate (first send to last answer, from its summary) as a fraction
//    of concurrency / RTT = 640 lines/s (target >= 0.93), and of concurrency / the round trip measured
//    in the same run (the 50 ms plus the sandbox's own work), with a bare fetch loop as baseline.
// 2. rate limit: --rate-lines lines, --concurrency 32, against a seed limiting the organisation to
//    300 requests per 5 s, started right before: the run's wall time against the ideal (the run
//    cannot finish before the window that takes its last 300 opens: (lines / 300 - 1) windows after
//    the sandbox started, plus those 300 at the unlimited pace of run 3), and the requests the
//    service counted and answered >= 400 (GET /account/v1/usage, once the window has passed).
//    Targets: ideal / wall >= 0.95, errors 0, requests = lines (no probe).
// 3. CPU per line: --cpu-lines lines on loopback, no latency, no limit: the client process's user +
//    system CPU (start-up included, bench/usage-hook.mjs) over the lines.
// NODE_EXTRA_CA_CERTS is unset for every process.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, ROOT, benchEnv, createPoster, measuredRtt, runCreate, serveSandbox, writeCreates } from './lib/kit.mjs';

const { values } = parseArgs({
  options: {
    'latency-lines': { type: 'string', default: '4000' },
    'rate-lines': { type: 'string', default: '900' },
    'cpu-lines': { type: 'string', default: '4000' },
    // Another build's CLI (e.g. an older commit's bin/parcels.js) for `create --from`; the sandbox stays this one.
    bin: { type: 'string' },
  },
});
const CLIENT = values.bin ?? BIN;
const { DEFAULT_SEED, DEMO_API_KEY } = await import(join(ROOT, 'dist/sandbox/index.js'));
const dir = mkdtempSync(join(tmpdir(), 'bulk-pace-'));
const env = benchEnv();
const CONCURRENCY = 32;

/** This build's sandbox with the organisation limited to `rateLimit`. */
const serve = (name, rateLimit, args = []) => serveSandbox({ dir, name, env, seed: { ...DEFAULT_SEED, rate_limit: rateLimit }, args });

/** `parcels create --from` of `lines` new lines: wall ms, the rate its summary reports, CPU µs per line. */
async function create(name, url, lines) {
  const input = await writeCreates(join(dir, `${name}.ndjson`), lines, name);
  const run = await runCreate({ bin: CLIENT, input, usage: true, env: { ...env, PARCELS_CONFIG_DIR: join(dir, `${name}-cli`), PARCELS_BASE_URL: url, PARCELS_API_KEY: DEMO_API_KEY }, args: ['--concurrency', String(CONCURRENCY)] });
  return { ...run, cpuUsPerLine: run.cpuUs / lines };
}

/** The same number of creates from a bare fetch loop at the same concurrency: lines/s. */
async function bareLoop(url, lines) {
  const post = createPoster(url, DEMO_API_KEY, 'pace');
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => { while (next++ < lines) await post(); }));
  return lines / ((performance.now() - t0) / 1000);
}

const latencyLines = Number(values['latency-lines']);
const rateLines = Number(values['rate-lines']);
const cpuLines = Number(values['cpu-lines']);
const unlimited = { requests: 1_000_000_000, window_s: 60 };
try {
  console.log(`load average ${loadavg()[0].toFixed(2)} at start`);

  const cpuServer = await serve('cpu', unlimited);
  const cpu = await create('cpu', cpuServer.url, cpuLines);
  cpuServer.stop();
  console.log(`CPU per line: ${cpuLines} lines on loopback, ${cpu.cpuUsPerLine.toFixed(0)} µs/line, ${cpu.rate} lines/s`);

  if (latencyLines > 0) {
    const slow = await serve('latency', unlimited, ['--latency', '50']);
    const rttMs = await measuredRtt(slow.url, DEMO_API_KEY, 'pace');
    const bare = await bareLoop(slow.url, latencyLines);
    const latency = await create('latency', slow.url, latencyLines);
    slow.stop();
    const ideal = CONCURRENCY / 0.05;
    const idealMeasured = CONCURRENCY / (rttMs / 1000);
    console.log(`latency: ${latencyLines} lines, --latency 50, concurrency ${CONCURRENCY}: ${latency.rate} lines/s = ${(latency.rate / ideal).toFixed(3)} of ${ideal}/s nominal (wall ${(latency.wallMs / 1000).toFixed(2)} s)`);
    console.log(`  measured round trip of one create: ${rttMs.toFixed(1)} ms (the 50 ms plus the sandbox's own work) -> ${(latency.rate / idealMeasured).toFixed(3)} of ${idealMeasured.toFixed(0)}/s`);
    console.log(`  baseline in the same run, a bare fetch loop at concurrency ${CONCURRENCY}: ${bare.toFixed(0)} lines/s (${(bare / ideal).toFixed(3)} of nominal); the CLI / that loop: ${(latency.rate / bare).toFixed(3)}`);
  }

  if (rateLines > 0) {
    const limited = await serve('rate', { requests: 300, window_s: 5 });
    const sinceReady = performance.now() - limited.ready;
    const paced = await create('rate', limited.url, rateLines);
    const idealMs = (Math.ceil(rateLines / 300) - 1) * 5000 - sinceReady + (300 / cpu.rate) * 1000;
    // The last window is spent: read the usage once the next one opens.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
    const usage = await (await fetch(`${limited.url}/account/v1/usage`, { headers: { authorization: `Bearer ${DEMO_API_KEY}` } })).json();
    limited.stop();
    const today = usage.data.days.at(-1);
    console.log(`rate limit: ${rateLines} lines at 300 per 5 s: wall ${(paced.wallMs / 1000).toFixed(2)} s, ideal ${(idealMs / 1000).toFixed(2)} s, ideal/wall ${(idealMs / paced.wallMs).toFixed(3)}; the service counted ${today.requests} requests, ${today.errors} answered >= 400`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
