// The cost of aimed faults on the request path: GET /deliveries/v1/reference req/s of one sandbox
// with no faults, with 100 aimed faults none of which matches (every rule is looked at), and with
// one fault aimed at another organisation (the key's organisation is read for it). Run after `npx tsup`:
//   node bench/sandbox-faults.mjs [--duration 3] [--connections 16] [--rounds 3]
// The three setups alternate for --rounds rounds on one sandbox (background load hits all alike);
// the table shows each setup's median round.
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { DEMO_API_KEY, startSandbox } from '../dist/sandbox/index.js';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '3' }, connections: { type: 'string', default: '16' }, rounds: { type: 'string', default: '3' } } });
const duration = Number(values.duration);
const connections = Number(values.connections);
const rounds = Math.max(1, Number(values.rounds));

// No rate limit: the runs together send more than the demo seed's 100 000 a minute.
const sandbox = await startSandbox({ port: 0, rateLimit: false });
const setups = {
  'no faults': () => sandbox.faults.clear(),
  '100 aimed faults, none matching': () => {
    sandbox.faults.clear();
    for (let i = 0; i < 100; i++) sandbox.faults.add({ route: 'parcels.patch', status: 503 });
  },
  '1 fault aimed at another organisation': () => {
    sandbox.faults.clear();
    sandbox.faults.add({ route: 'reference.get', org: 'someone-else', status: 503 });
  },
};
const run = () =>
  new Promise((resolve, reject) => {
    autocannon({ url: `${sandbox.url}/deliveries/v1/reference`, headers: { authorization: `Bearer ${DEMO_API_KEY}` }, duration, connections }, (err, result) => (err ? reject(err) : resolve(result)));
  });
const results = Object.fromEntries(Object.keys(setups).map((name) => [name, []]));
for (const setup of Object.values(setups)) {
  setup();
  await run();
}
for (let round = 0; round < rounds; round++) {
  for (const [name, setup] of Object.entries(setups)) {
    setup();
    const r = await run();
    if (r.non2xx > 0) throw new Error(`${name}: ${r.non2xx} answers were not 2xx`);
    results[name].push(r.requests.average);
  }
}
await sandbox.close();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(results['no faults']);
console.log('| Setup | req/s (median round) | vs no faults |\n|---|---|---|');
for (const [name, xs] of Object.entries(results)) console.log(`| ${name} | ${Math.round(median(xs))} | ${(median(xs) / base).toFixed(2)}x |`);
