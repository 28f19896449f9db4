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
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'latency-lines': { type: 'string', default: '4000' },
    'rate-lines': { type: 'string', default: '900' },
    'cpu-lines': { type: 'string', default: '4000' },
    // Another build's CLI (e.g. an older commit's bin/parcels.js) for `create --from`; the sandbox stays this one.
    bin: { type: 'string' },
  },
});
const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin/parcels.js');
const CLIENT = values.bin ?? BIN;
const { DEFAULT_SEED, DEMO_API_KEY } = await import(join(root, 'dist/sandbox/index.js'));
const dir = mkdtempSync(join(tmpdir(), 'bulk-pace-'));
const env = { ...process.env, NO_COLOR: '1' };
delete env.NODE_EXTRA_CA_CERTS;
const CONCURRENCY = 32;

/** `sandbox serve` on a free port; resolves once it prints its URL. */
async function serve(name, rateLimit, extra = []) {
  const seed = join(dir, `${name}-seed.json`);
  writeFileSync(seed, JSON.stringify({ ...DEFAULT_SEED, rate_limit: rateLimit }));
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--db', ':memory:', '--seed', seed, ...extra], { env: { ...env, PARCELS_CONFIG_DIR: join(dir, `${name}-server`) }, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const look = (chunk) => {
      out += chunk;
      const found = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (found) resolve(found[0]);
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('exit', (code) => reject(new Error(`sandbox serve exited ${code}: ${out}`)));
  });
  return { url, ready: performance.now(), stop: () => child.kill('SIGTERM') };
}

function input(name, lines) {
  const file = join(dir, `${name}.ndjson`);
  writeFileSync(file, Array.from({ length: lines }, (_, i) => JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: `${name}-${i + 1}` })).join('\n') + '\n');
  return file;
}

/** `parcels create --from FILE`: wall ms, the rate its summary reports, CPU µs per line. */
function create(name, url, file, lines) {
  const usage = join(dir, `${name}-usage.json`);
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', join(root, 'bench/usage-hook.mjs'), CLIENT, 'create', '--from', file, '--concurrency', String(CONCURRENCY)], {
    env: { ...env, PARCELS_CONFIG_DIR: join(dir, `${name}-cli`), PARCELS_BASE_URL: url, PARCELS_API_KEY: DEMO_API_KEY, BULK_BENCH_USAGE_FILE: usage },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`create --from exited ${code}: ${stderr}`));
      const wallMs = performance.now() - started;
      const rate = Number(/(\d+) lines\/s/.exec(stderr)?.[1]);
      const { userUs, systemUs } = JSON.parse(readFileSync(usage, 'utf8'));
      resolve({ wallMs, rate, cpuUsPerLine: (userUs + systemUs) / lines });
    }),
  );
}


const createBody = (n) => JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: `rtt-${n}` });
let bareKeys = 0;
function postCreate(url) {
  const n = ++bareKeys;
  return fetch(`${url}/deliveries/v1/parcels`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO_API_KEY}`, 'content-type': 'application/json', 'idempotency-key': `bench-pace-${process.pid}-${n}-key` },
    body: createBody(n),
  }).then((r) => r.arrayBuffer());
}

/** Median of 20 sequential creates on one kept-alive connection: the round trip a line really waits. */
async function measuredRtt(url) {
  await postCreate(url);
  const times = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await postCreate(url);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[10];
}

/** The same number of creates from a bare fetch loop at the same concurrency: lines/s. */
async function bareLoop(url, lines) {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => { while (next++ < lines) await postCreate(url); }));
  return lines / ((performance.now() - t0) / 1000);
}

const latencyLines = Number(values['latency-lines']);
const rateLines = Number(values['rate-lines']);
const cpuLines = Number(values['cpu-lines']);
const unlimited = { requests: 1_000_000_000, window_s: 60 };
try {
  console.log(`load average ${loadavg()[0].toFixed(2)} at start`);

  const cpuServer = await serve('cpu', unlimited);
  const cpu = await create('cpu', cpuServer.url, input('cpu', cpuLines), cpuLines);
  cpuServer.stop();
  console.log(`CPU per line: ${cpuLines} lines on loopback, ${cpu.cpuUsPerLine.toFixed(0)} µs/line, ${cpu.rate} lines/s`);

  if (latencyLines > 0) {
    const slow = await serve('latency', unlimited, ['--latency', '50']);
    const rttMs = await measuredRtt(slow.url);
    const bare = await bareLoop(slow.url, latencyLines);
    const latency = await create('latency', slow.url, input('latency', latencyLines), latencyLines);
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
    const paced = await create('rate', limited.url, input('rate', rateLines), rateLines);
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
