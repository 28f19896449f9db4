// Pacing by the service's rate-limit fields when a window is as long as, or longer than, the 60 s
// wait cap (issue 27). Run after `npm run build`:
//   node bench/bulk-window.mjs [--windows 60,90] [--limit 100] [--base OTHER/bin/parcels.js]
// For each window W: `parcels sandbox serve` with a seed limiting the organisation to --limit
// requests per W seconds, then `parcels create --from` of 2.5 × limit lines (--concurrency 32), so
// the run spends two whole windows and half of a third. Then GET /account/v1/usage (the third
// window still has room for it): the requests the service counted and those answered >= 400 (here
// only 429s). Target: 0 answered >= 400, requests = lines. With --base, the same runs of another
// build follow, each against a sandbox of its own (they run at the same time: both mostly wait).
// NODE_EXTRA_CA_CERTS is unset for every process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, ROOT, benchEnv, runCreate, serveSandbox, writeCreates } from './lib/kit.mjs';

const { values } = parseArgs({
  options: {
    windows: { type: 'string', default: '60,90' },
    limit: { type: 'string', default: '100' },
    base: { type: 'string' },
  },
});
const { DEFAULT_SEED, DEMO_API_KEY } = await import(join(ROOT, 'dist/sandbox/index.js'));
const dir = mkdtempSync(join(tmpdir(), 'bulk-window-'));
const env = benchEnv();
const LIMIT = Number(values.limit);
const LINES = Math.floor(2.5 * LIMIT);

async function create(name, bin, url) {
  const input = await writeCreates(join(dir, `${name}.ndjson`), LINES, name);
  const run = await runCreate({ bin, input, env: { ...env, PARCELS_CONFIG_DIR: join(dir, `${name}-cli`), PARCELS_BASE_URL: url, PARCELS_API_KEY: DEMO_API_KEY }, args: ['--concurrency', '32'], codes: 'any' });
  return { ...run, summary: run.stderr.split('\n').at(-1) };
}

async function measure(name, bin, windowS) {
  // This build's sandbox, limited to LIMIT per windowS.
  const sandbox = await serveSandbox({ dir, name, env, seed: { ...DEFAULT_SEED, rate_limit: { requests: LIMIT, window_s: windowS } } });
  try {
    const run = await create(name, bin, sandbox.url);
    const usage = await (await fetch(`${sandbox.url}/account/v1/usage`, { headers: { authorization: `Bearer ${DEMO_API_KEY}` } })).json();
    const today = usage.data.days.at(-1);
    return `${name}: ${LINES} lines at ${LIMIT} per ${windowS} s: exit ${run.code}, wall ${(run.wallMs / 1000).toFixed(1)} s; the service counted ${today.requests} requests, ${today.errors} answered >= 400 (${run.summary})`;
  } finally {
    sandbox.stop();
  }
}

try {
  const runs = [];
  for (const windowS of values.windows.split(',').map(Number)) {
    runs.push(measure(`this-${windowS}s`, BIN, windowS));
    if (values.base !== undefined) runs.push(measure(`base-${windowS}s`, values.base, windowS));
  }
  for (const line of await Promise.all(runs)) console.log(line);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
