// What the request log's file costs the sandbox (`sandbox serve --log-file`, library `logStream`):
// GET /account/v1/couriers with the demo key, the sandbox without a log file and with one, in a
// child process each (the load generator keeps its own thread), alternating rounds so background
// load hits both alike. Run after `npx tsup`:
//   node bench/sandbox-log-file.mjs [--duration 5] [--connections 32] [--rounds 3]
// Shows each target's median round (req/s, server CPU µs per request) and the median ratio.
import { fork } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { DEMO_API_KEY, startSandbox } from '../dist/sandbox/index.js';

if (process.argv[2] === 'serve') {
  const file = process.argv[3];
  const sandbox = await startSandbox({ port: 0, db: ':memory:', ...(file === undefined ? {} : { logStream: createWriteStream(file) }) });
  process.on('message', async (msg) => {
    const u = process.cpuUsage();
    if (msg === 'cpu') process.send({ cpu: u.user + u.system });
    if (msg === 'stop') {
      await sandbox.close();
      process.exit(0);
    }
  });
  process.send({ url: sandbox.url });
} else {
  const { values } = parseArgs({ options: { duration: { type: 'string', default: '5' }, connections: { type: 'string', default: '32' }, rounds: { type: 'string', default: '3' } } });
  const dir = mkdtempSync(join(tmpdir(), 'parcels-bench-log-'));
  const file = join(dir, 'requests.ndjson');
  const start = (...args) => {
    const proc = fork(fileURLToPath(import.meta.url), ['serve', ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ask = (what) => new Promise((done) => { proc.once('message', done); proc.send(what); });
    return new Promise((resolve) => proc.once('message', ({ url }) => resolve({ url, cpu: async () => (await ask('cpu')).cpu, stop: () => new Promise((done) => { proc.once('exit', done); proc.send('stop'); }) })));
  };
  const load = (url) =>
    new Promise((resolve, reject) => {
      autocannon({ url: `${url}/account/v1/couriers`, headers: { authorization: `Bearer ${DEMO_API_KEY}` }, duration: Number(values.duration), connections: Number(values.connections) }, (err, r) => (err ? reject(err) : resolve(r)));
    });
  const targets = { 'without a log file': await start(), 'with --log-file': await start(file) };
  const results = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (const target of Object.values(targets)) await load(target.url); // warm-up
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [name, target] of Object.entries(targets)) {
      const before = await target.cpu();
      const r = await load(target.url);
      const cpu = (await target.cpu()) - before;
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      results[name].push({ rps: r.requests.average, cpuUs: cpu / r.requests.total });
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [name, rounds] of Object.entries(results)) {
    console.log(`${name.padEnd(20)} ${median(rounds.map((x) => x.rps)).toFixed(0).padStart(7)} req/s  ${median(rounds.map((x) => x.cpuUs)).toFixed(1).padStart(6)} µs CPU/request`);
  }
  const ratios = results['with --log-file'].map((x, i) => x.rps / results['without a log file'][i].rps);
  console.log(`with / without: ${median(ratios).toFixed(2)}× req/s (median of ${ratios.length} rounds); log file ${(statSync(file).size / 1e6).toFixed(0)} MB`);
  for (const target of Object.values(targets)) await target.stop();
  rmSync(dir, { recursive: true, force: true });
}
