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
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, ROOT, benchEnv, measuredRtt, median, runCreate, serveSandbox, writeCreates } from './lib/kit.mjs';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '6' },
    lines: { type: 'string', default: '4000' },
    latency: { type: 'string', default: '50' },
  },
});
const builds = values.base === undefined ? [['this', BIN]] : [['this', BIN], ['base', values.base]];
const { DEMO_API_KEY } = await import(join(ROOT, 'dist/sandbox/index.js'));
const dir = mkdtempSync(join(tmpdir(), 'bulk-latency-'));
const env = benchEnv();
const CONCURRENCY = 32;
const LINES = Number(values.lines);

let files = 0;
/** The whole `parcels create --from` command of `bin` on a file of its own (nothing replayed). */
async function create(bin, url) {
  const input = await writeCreates(join(dir, `in-${++files}.ndjson`), LINES, `lat-${files}`);
  return runCreate({ bin, input, env: { ...env, PARCELS_CONFIG_DIR: join(dir, `cli-${files}`), PARCELS_BASE_URL: url, PARCELS_API_KEY: DEMO_API_KEY }, args: ['--concurrency', String(CONCURRENCY)] });
}

const figures = Object.fromEntries(builds.map(([name]) => [name, []]));
const ratios = [];
try {
  console.log(`load average ${loadavg()[0].toFixed(2)} at start; ${LINES} lines, --latency ${values.latency}, --concurrency ${CONCURRENCY}`);
  for (let round = 0; round < Number(values.rounds); round++) {
    const sandbox = await serveSandbox({ dir, name: `round-${round}`, env, args: ['--latency', values.latency] });
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    const walls = {};
    for (const [name, bin] of order) {
      const rttMs = await measuredRtt(sandbox.url, DEMO_API_KEY, 'latency');
      const run = await create(bin, sandbox.url);
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
