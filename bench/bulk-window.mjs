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
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    windows: { type: 'string', default: '60,90' },
    limit: { type: 'string', default: '100' },
    base: { type: 'string' },
  },
});
const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin/parcels.js');
const { DEFAULT_SEED, DEMO_API_KEY } = await import(join(root, 'dist/sandbox/index.js'));
const dir = mkdtempSync(join(tmpdir(), 'bulk-window-'));
const env = { ...process.env, NO_COLOR: '1' };
delete env.NODE_EXTRA_CA_CERTS;
const LIMIT = Number(values.limit);
const LINES = Math.floor(2.5 * LIMIT);

/** `sandbox serve` (this build) limited to LIMIT per `windowS`; resolves once it prints its URL. */
async function serve(name, windowS) {
  const seed = join(dir, `${name}-seed.json`);
  writeFileSync(seed, JSON.stringify({ ...DEFAULT_SEED, rate_limit: { requests: LIMIT, window_s: windowS } }));
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--db', ':memory:', '--seed', seed], {
    env: { ...env, PARCELS_CONFIG_DIR: join(dir, `${name}-server`) },
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

function create(name, bin, url) {
  const file = join(dir, `${name}.ndjson`);
  writeFileSync(file, Array.from({ length: LINES }, (_, i) => JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: `${name}-${i + 1}` })).join('\n') + '\n');
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'create', '--from', file, '--concurrency', '32'], {
    env: { ...env, PARCELS_CONFIG_DIR: join(dir, `${name}-cli`), PARCELS_BASE_URL: url, PARCELS_API_KEY: DEMO_API_KEY },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, wallMs: performance.now() - started, summary: stderr.trim().split('\n').at(-1) })));
}

async function measure(name, bin, windowS) {
  const sandbox = await serve(name, windowS);
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
