// Latency hiding of a bulk run (issue 27), this build against another, in alternating pairs. Run after `npm run build`:
//   node bench/bulk-latency.mjs --base OTHER/bin/parcels.js [--rounds 6] [--lines 4000] [--latency 50]
// Each round starts `parcels sandbox serve --latency 50 --db :memory:` (this build) and, in an order
// that alternates from round to round, runs `parcels create --from FILE --concurrency 32` of each
// build (a file of its own, so nothing is replayed), the whole command timed from spawn to exit.
// Before each run, RTT = the median of 20 sequential creates on one kept-alive connection to the
// same sandbox. A run's figure is ideal / wall, ideal = lines × RTT / 32 (target >= 0.93); the
// round's ratio is this build's wall / the base build's. Also printed: the run's own summary rate
// (first send to last answer) against 32 / RTT, to tell the run from start-up and exit.
// NODE_EXTRA_CA_CERTS is unset for every process.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '6' },
    lines: { type: 'string', default: '4000' },
    latency: { type: 'string', default: '50' },
  },
});
const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin/parcels.js');
const builds = values.base === undefined ? [['this', BIN]] : [['this', BIN], ['base', values.base]];
const { DEMO_API_KEY } = await import(join(root, 'dist/sandbox/index.js'));
const dir = mkdtempSync(join(tmpdir(), 'bulk-latency-'));
const env = { ...process.env, NO_COLOR: '1' };
delete env.NODE_EXTRA_CA_CERTS;
const CONCURRENCY = 32;
const LINES = Number(values.lines);

/** `sandbox serve` on a free port; resolves once it prints its URL. */
async function serve(round) {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--db', ':memory:', '--latency', values.latency], {
    env: { ...env, PARCELS_CONFIG_DIR: join(dir, `server-${round}`) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
  return { url, stop: () => child.kill('SIGTERM') };
}

let files = 0;
function input() {
  const file = join(dir, `in-${++files}.ndjson`);
  writeFileSync(file, Array.from({ length: LINES }, (_, i) => JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: `lat-${files}-${i + 1}` })).join('\n') + '\n');
  return file;
}

let keys = 0;
function postCreate(url) {
  const n = ++keys;
  return fetch(`${url}/deliveries/v1/parcels`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEMO_API_KEY}`, 'content-type': 'application/json', 'idempotency-key': `bench-latency-${process.pid}-${n}-key` },
    body: JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: `rtt-${n}` }),
  }).then((r) => r.arrayBuffer());
}

/** Median of 20 sequential creates on one kept-alive connection. */
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

/** The whole `parcels create --from` command: wall ms from spawn to exit, and its summary's rate. */
function create(bin, url, file) {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'create', '--from', file, '--concurrency', String(CONCURRENCY)], {
    env: { ...env, PARCELS_CONFIG_DIR: join(dir, `cli-${files}`), PARCELS_BASE_URL: url, PARCELS_API_KEY: DEMO_API_KEY },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`create --from exited ${code}: ${stderr}`));
      resolve({ wallMs: performance.now() - started, rate: Number(/(\d+) lines\/s/.exec(stderr)?.[1]) });
    }),
  );
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const figures = Object.fromEntries(builds.map(([name]) => [name, []]));
const ratios = [];
try {
  console.log(`load average ${loadavg()[0].toFixed(2)} at start; ${LINES} lines, --latency ${values.latency}, --concurrency ${CONCURRENCY}`);
  for (let round = 0; round < Number(values.rounds); round++) {
    const sandbox = await serve(round);
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    const walls = {};
    for (const [name, bin] of order) {
      const rttMs = await measuredRtt(sandbox.url);
      const run = await create(bin, sandbox.url, input());
      const idealMs = (LINES * rttMs) / CONCURRENCY;
      const figure = { rttMs, wallMs: run.wallMs, ofIdeal: idealMs / run.wallMs, runOfIdeal: run.rate / (CONCURRENCY / (rttMs / 1000)) };
      figures[name].push(figure);
      walls[name] = run.wallMs;
      console.log(
        `round ${round + 1} ${name}: RTT ${rttMs.toFixed(1)} ms, ideal ${(idealMs / 1000).toFixed(2)} s, wall ${(run.wallMs / 1000).toFixed(2)} s -> ideal/wall ${figure.ofIdeal.toFixed(3)}; the run alone ${figure.runOfIdeal.toFixed(3)} of 32/RTT (load ${loadavg()[0].toFixed(1)})`,
      );
    }
    sandbox.stop();
    if (walls.base !== undefined) ratios.push(walls.this / walls.base);
  }
  for (const [name, list] of Object.entries(figures)) {
    console.log(`${name}: ideal/wall median ${median(list.map((f) => f.ofIdeal)).toFixed(3)} (${list.map((f) => f.ofIdeal.toFixed(3)).join(' ')}), the run alone ${median(list.map((f) => f.runOfIdeal)).toFixed(3)}`);
  }
  if (ratios.length > 0) console.log(`wall this / base: median ${median(ratios).toFixed(3)} (${ratios.map((r) => r.toFixed(3)).join(' ')})`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
