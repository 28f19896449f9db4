// The request chain's cost (issue 28, "Cheap by construction"), against the previous build, in
// alternating pairs. Run after `npm run build` here and in the other build's tree:
//   node bench/request-chain.mjs --base OTHER/bin/parcels.js [--pairs 10] [--lines 100000] [--oneshot-pairs 20]
// A bare node:http server (on core 0 with taskset; the clients on core 1) answers every create
// with 201 and a fresh entry_id and every read with one parcel, at once, nothing stored, so what is
// measured is the client. Each pair runs both builds, the order alternating from pair to pair:
//   1. `parcels create --from FILE` of --lines lines (a fresh PARCELS_CONFIG_DIR each run, so a
//      new batch): the process's user + system CPU over the lines (bench/usage-hook.mjs);
//   2. one-shot `parcels get ID --json` and `parcels create … --json`: the process's CPU time.
// Prints the median of each, and the median of the per-pair ratios (this build / base).
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    pairs: { type: 'string', default: '10' },
    lines: { type: 'string', default: '100000' },
    'oneshot-pairs': { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '32' },
  },
});
if (values.base === undefined) throw new Error('--base OTHER/bin/parcels.js is required');
const root = fileURLToPath(new URL('..', import.meta.url));
const BINS = { chain: join(root, 'bin/parcels.js'), base: values.base };
const USAGE_HOOK = join(root, 'bench/usage-hook.mjs');
const ID = '0b0c6a52-1d7e-4f0e-9a4b-8c2d3e4f5a61';
const KEY = 'sk_test_requestchainbench0001';

let pinned = false;
try {
  execFileSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  pinned = true;
} catch {
  // No taskset: server and clients share the cores.
}

const SERVER = `
import { createServer } from 'node:http';
let n = 0;
const parcel = JSON.stringify({ data: { entry_id: '${ID}', courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '1', status: 0, created_at: 1800000000 } });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json', etag: '"e1"' });
      return res.end(parcel);
    }
    const id = '00000000-0000-4000-8000-' + String(++n).padStart(12, '0');
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end('{"data":{"entry_id":"' + id + '","status":0}}');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
`;

const [cmd, argv] = pinned ? ['taskset', ['-c', '0', process.execPath, '--input-type=module', '-e', SERVER]] : [process.execPath, ['--input-type=module', '-e', SERVER]];
const server = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve) => server.stdout.once('data', (chunk) => resolve(String(chunk).trim())));

const work = mkdtempSync(join(tmpdir(), 'request-chain-bench-'));
const input = join(work, 'lines.ndjson');
writeFileSync(input, Array.from({ length: Number(values.lines) }, (_, i) => `{"courier":"DEMO-BIKE","country":"NL","postal_code":"1234AB","number":"${i + 1}"}\n`).join(''));
const env = { ...process.env, PARCELS_BASE_URL: url, PARCELS_API_KEY: KEY };
delete env.NODE_EXTRA_CA_CERTS;

let runs = 0;
/** One `parcels` process: its CPU time (µs) and result lines. */
function run(bin, args) {
  return new Promise((resolve, reject) => {
    const usageFile = join(work, `usage-${++runs}.json`);
    const config = mkdtempSync(join(work, 'config-'));
    const child = spawn(process.execPath, ['--import', USAGE_HOOK, bin, ...args], { env: { ...env, PARCELS_CONFIG_DIR: config, BULK_BENCH_USAGE_FILE: usageFile }, stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => {
      rmSync(config, { recursive: true, force: true });
      if (code !== 0) return reject(new Error(`${bin} ${args.join(' ')} exited ${code}: ${stderr}`));
      const usage = JSON.parse(readFileSync(usageFile, 'utf8'));
      rmSync(usageFile, { force: true });
      resolve({ cpuUs: usage.userUs + usage.systemUs, lines });
    });
  });
}

const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** `pairs` alternating pairs of `measure(bin)`: the medians and the median per-pair ratio. */
async function paired(pairs, measure) {
  const got = { chain: [], base: [] };
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 === 0 ? ['chain', 'base'] : ['base', 'chain'];
    for (const build of order) got[build].push(await measure(BINS[build]));
  }
  const ratios = got.chain.map((value, i) => value / got.base[i]);
  return { chain: median(got.chain), base: median(got.base), ratio: median(ratios), ratios };
}

const before = loadavg();
const bulk = await paired(Number(values.pairs), async (bin) => {
  const r = await run(bin, ['create', '--from', input, '--concurrency', values.concurrency]);
  if (r.lines !== Number(values.lines)) throw new Error(`${bin}: ${r.lines} result lines`);
  return r.cpuUs / r.lines;
});
const get = await paired(Number(values['oneshot-pairs']), async (bin) => (await run(bin, ['get', ID, '--json'])).cpuUs / 1000);
const create = await paired(Number(values['oneshot-pairs']), async (bin) => (await run(bin, ['create', '--courier', 'DEMO-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--json'])).cpuUs / 1000);
server.kill('SIGTERM');
rmSync(work, { recursive: true, force: true });

const fmt = (n) => n.toFixed(3);
console.log(`load average before ${before.map((l) => l.toFixed(2)).join(' ')}, after ${loadavg().map((l) => l.toFixed(2)).join(' ')}; taskset: ${pinned}`);
console.table([
  { what: `bulk create, ${values.lines} lines: CPU µs/line (${values.pairs} pairs)`, chain: bulk.chain.toFixed(1), base: bulk.base.toFixed(1), 'median pair ratio': fmt(bulk.ratio) },
  { what: `get ID --json: CPU ms (${values['oneshot-pairs']} pairs)`, chain: get.chain.toFixed(1), base: get.base.toFixed(1), 'median pair ratio': fmt(get.ratio) },
  { what: `create … --json: CPU ms (${values['oneshot-pairs']} pairs)`, chain: create.chain.toFixed(1), base: create.base.toFixed(1), 'median pair ratio': fmt(create.ratio) },
]);
console.log('bulk ratios', bulk.ratios.map(fmt).join(' '));
