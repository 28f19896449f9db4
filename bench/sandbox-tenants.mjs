// What a tenant and a reset cost (issue 32): in one process, after `npx tsup`:
//   node bench/sandbox-tenants.mjs [--tenants 40] [--parcels 1000]
// Times, medians over the runs: creating a tenant (a fresh ':memory:' app with the default seed),
// removing one, resetting the sandbox when its seed holds --parcels parcels with two events each
// (every row deleted, the seed's parcels stored again), and closing the sandbox with its tenants.
import { parseArgs } from 'node:util';
import { DEFAULT_SEED, startSandbox } from '../dist/sandbox/index.js';

const { values } = parseArgs({ options: { tenants: { type: 'string', default: '40' }, parcels: { type: 'string', default: '1000' } } });
const tenants = Number(values.tenants);
const parcelCount = Number(values.parcels);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const timed = async (fn) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};

const nowS = Math.floor(Date.now() / 1000);
const [demo] = DEFAULT_SEED.organisations;
const parcels = Array.from({ length: parcelCount }, (_, i) => ({
  courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: String(i + 1),
  events: [{ status: 1, occurred_at: nowS - 7200 }, { status: 2, occurred_at: nowS - 3600 }],
}));
const seedStart = performance.now();
const sandbox = await startSandbox({ seed: { ...DEFAULT_SEED, organisations: [{ ...demo, parcels }] } });
const startMs = performance.now() - seedStart;

const create = [];
for (let i = 0; i < tenants; i++) create.push(await timed(() => sandbox.tenants.create(`t${i}`, { seed: DEFAULT_SEED })));
const reset = [];
for (let i = 0; i < 5; i++) reset.push(await timed(() => sandbox.reset()));
const remove = [];
for (let i = 0; i < tenants / 2; i++) remove.push(await timed(() => sandbox.tenants.remove(`t${i}`)));
const close = await timed(() => sandbox.close());

console.log(`start with ${parcelCount} seed parcels (2 events each): ${startMs.toFixed(0)} ms`);
console.log(`tenant create: median ${median(create).toFixed(1)} ms (first ${create[0].toFixed(1)} ms, ${tenants} runs)`);
console.log(`reset with ${parcelCount} seed parcels: median ${median(reset).toFixed(1)} ms (5 runs)`);
console.log(`tenant remove: median ${median(remove).toFixed(2)} ms; close with ${tenants - tenants / 2} tenants: ${close.toFixed(1)} ms`);
