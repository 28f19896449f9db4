// Sandbox throughput vs a bare node:http server. Run after `npm run build` (or `npx tsup`):
//   node bench/sandbox-throughput.mjs [--duration 5] [--connections 32] [--db file|memory]
import { fork } from 'node:child_process';
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
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);

function run(opts) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ duration, connections, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

/** Starts bench/sandbox-bench-server.mjs in its own process and resolves with what it reports. */
function child(...args) {
  const proc = fork(fileURLToPath(new URL('./sandbox-bench-server.mjs', import.meta.url)), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    proc.once('message', (info) => resolve({ ...info, stop: () => new Promise((done) => { proc.once('exit', done); proc.disconnect(); }) }));
    proc.once('error', reject);
    proc.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
const db = values.db === 'memory' ? ':memory:' : join(dir, 'bench.db');
const bare = await child('bare');
const sandbox = await child('sandbox', db);
const bareUrl = bare.url;
const id = sandbox.id;
const auth = { authorization: `Bearer ${DEMO_API_KEY}` };

const rows = [];
const record = (name, r) => {
  const non2xx = r.non2xx + r.errors;
  rows.push({ name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total, bad: non2xx });
  return r.requests.average;
};

const bareRps = record('bare node:http GET (small JSON)', await run({ url: `${bareUrl}/` }));
const getRps = record('sandbox GET /deliveries/v1/parcels/{id}', await run({ url: `${sandbox.url}/deliveries/v1/parcels/${id}`, headers: auth }));
let n = 0;
const body = JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '12' });
record(
  'sandbox POST /deliveries/v1/parcels (unique Idempotency-Key)',
  await run({
    url: `${sandbox.url}/deliveries/v1/parcels`,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => ({
          ...req,
          headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `bench-${process.pid}-${++n}` },
          body,
        }),
      },
    ],
  }),
);

await sandbox.stop();
await bare.stop();
rmSync(dir, { recursive: true, force: true });

console.log(`\nNode ${process.version}, servers in a child process,, ${connections} connections, ${duration} s per run, database ${values.db === 'memory' ? ':memory:' : 'file (WAL)'}\n`);
console.log('| Target | req/s | p50 ms | p99 ms | requests | non-2xx/errors |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.total} | ${r.bad} |`);
console.log(`\nsandbox GET / bare = ${(getRps / bareRps).toFixed(2)} (target >= 0.50)`);
