// Sandbox throughput vs a bare node:http server (GET) and a bare node:http + better-sqlite3 insert
// server (create); for GET also a reference, the bare server with the sandbox's server options and
// the seven headers every answer carries. Run after `npm run build` (or `npx tsup`):
//   node bench/sandbox-throughput.mjs [--duration 5] [--connections 32] [--db file|memory] [--rounds 3] [--warmup 2] [--pin]
// Each server gets a warm-up run (not recorded), then the bare and sandbox GET runs alternate for
// --rounds rounds so that background load affects both alike; the table shows each target's median
// round (by req/s) and the ratio is the median of the per-round ratios.
import { loadavg } from 'node:os';
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { DEMO_API_KEY } from '../dist/sandbox/index.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    db: { type: 'string', default: 'file' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '2' },
    pin: { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const rounds = Math.max(1, Number(values.rounds));
const warmup = Number(values.warmup);

function run(opts, seconds = duration) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ duration: seconds, connections, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

/**
 * With --pin: servers on core 0 and this process (the load generator) on core 1, all threads
 * (taskset). By default the scheduler places them, as in the earlier runs of BENCHMARKS.md; pinned,
 * every answer wakes the other core and both servers spend more CPU per request (measured there).
 */
function pinTo(core, pid) {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const pinned = values.pin && pinTo(1, process.pid);

/** Starts bench/sandbox-bench-server.mjs in its own process and resolves with what it reports. */
function child(...args) {
  const proc = fork(fileURLToPath(new URL('./sandbox-bench-server.mjs', import.meta.url)), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    const cpu = () => new Promise((done) => { proc.once('message', (m) => done(m.cpu)); proc.send('cpu'); });
    if (pinned) pinTo(0, proc.pid);
    proc.once('message', (info) => resolve({ ...info, cpu, stop: () => new Promise((done) => { proc.once('exit', done); proc.disconnect(); }) }));
    proc.once('error', reject);
    proc.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
const db = values.db === 'memory' ? ':memory:' : join(dir, 'bench.db');
const bare = await child('bare');
const bareHeaders = await child('bare-headers');
const bareSqlite = await child('bare-sqlite', join(dir, 'bare.db'));
const sandbox = await child('sandbox', db);
const bareUrl = bare.url;
const id = sandbox.id;
const auth = { authorization: `Bearer ${DEMO_API_KEY}` };

const row = (name, r, cpuUs) => ({ name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, bad: r.non2xx + r.errors, cpu: cpuUs / r.requests.total });
/** One measured run; also the server's CPU time (user + system) per request over the run. */
async function measure(name, server, opts) {
  const before = await server.cpu();
  const r = await run(opts);
  return row(name, r, (await server.cpu()) - before);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const medianRow = (rs) => [...rs].sort((a, b) => a.rps - b.rps)[Math.floor((rs.length - 1) / 2)];

const bareOpts = { url: `${bareUrl}/` };
const bareHeadersOpts = { url: `${bareHeaders.url}/` };
const getOpts = { url: `${sandbox.url}/deliveries/v1/parcels/${id}`, headers: auth };
const load = [loadavg()[0]];
if (warmup > 0) {
  await run(bareOpts, warmup);
  await run(bareHeadersOpts, warmup);
  await run(getOpts, warmup);
}
const bareRuns = [];
const bareHeadersRuns = [];
const getRuns = [];
const ratios = [];
const headerRatios = [];
for (let i = 0; i < rounds; i++) {
  const b = await measure('bare node:http GET (~370-byte JSON)', bare, bareOpts);
  const h = await measure('reference: bare GET + the sandbox\'s server options and seven answer headers', bareHeaders, bareHeadersOpts);
  const g = await measure('sandbox GET /deliveries/v1/parcels/{id}', sandbox, getOpts);
  bareRuns.push(b);
  bareHeadersRuns.push(h);
  getRuns.push(g);
  ratios.push(g.rps / b.rps);
  headerRatios.push(h.rps / b.rps);
}
let n = 0;
const body = JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '12' });
const postOpts = (url, headers) => ({
  url,
  requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': `bench-${process.pid}-${++n}` }, body }) }],
});
const bareInsertOpts = postOpts(`${bareSqlite.url}/`, {});
const createOpts = postOpts(`${sandbox.url}/deliveries/v1/parcels`, auth);
if (warmup > 0) {
  await run(bareInsertOpts, warmup);
  await run(createOpts, warmup);
}
const insertRuns = [];
const createRuns = [];
const createRatios = [];
for (let i = 0; i < rounds; i++) {
  const b = await measure('bare node:http + better-sqlite3 INSERT', bareSqlite, bareInsertOpts);
  const c = await measure('sandbox POST /deliveries/v1/parcels (unique Idempotency-Key)', sandbox, createOpts);
  insertRuns.push(b);
  createRuns.push(c);
  createRatios.push(c.rps / b.rps);
}
load.push(loadavg()[0]);
const rows = [medianRow(bareRuns), medianRow(bareHeadersRuns), medianRow(getRuns), medianRow(insertRuns), medianRow(createRuns)];

await sandbox.stop();
await bare.stop();
await bareHeaders.stop();
await bareSqlite.stop();
rmSync(dir, { recursive: true, force: true });

console.log(
  `\nNode ${process.version}, servers in a child process${pinned ? ' pinned to core 0, load generator on core 1 (taskset)' : ' (not pinned)'}, ${connections} connections, ${warmup} s warm-up, ${rounds} alternating round(s) of ${duration} s (median shown), database ${values.db === 'memory' ? ':memory:' : 'file (WAL)'}, load average ${load.map((l) => l.toFixed(2)).join(' → ')}\n`,
);
console.log('| Target | req/s | p50 ms | p99 ms | server CPU µs/req | requests | non-2xx/errors |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${Math.round(r.cpu)} | ${r.total} | ${r.bad} |`);
console.log(`\nper-round sandbox GET / bare: ${ratios.map((x) => x.toFixed(2)).join(', ')}`);
console.log(`server CPU per request, sandbox GET / bare: ${(median(getRuns.map((r) => r.cpu)) / median(bareRuns.map((r) => r.cpu))).toFixed(2)} (medians)`);
console.log(`sandbox GET / bare = ${median(ratios).toFixed(2)} (median of rounds; target >= 0.70)`);
console.log(`reference: bare + the sandbox's options and headers / bare = ${median(headerRatios).toFixed(2)} (per round: ${headerRatios.map((x) => x.toFixed(2)).join(', ')}); server CPU ${median(bareHeadersRuns.map((r) => r.cpu)).toFixed(1)} vs ${median(bareRuns.map((r) => r.cpu)).toFixed(1)} µs/req`);
console.log(`per-round sandbox create / bare insert: ${createRatios.map((x) => x.toFixed(2)).join(', ')}`);
console.log(`server CPU per request, sandbox create / bare insert: ${(median(createRuns.map((r) => r.cpu)) / median(insertRuns.map((r) => r.cpu))).toFixed(2)} (medians)`);
console.log(`sandbox create / bare insert = ${median(createRatios).toFixed(2)} (median of rounds; target >= 0.60)`);
