// Bulk import speed and memory. Run after `npm run build`:
//   node bench/bulk-import.mjs [--lines 10000] [--concurrency 32] [--duration 5] [--rounds 3] [--rss-lines 1000000]
// `parcels sandbox serve` runs in a child process pinned to core 0 (taskset), this script on core 1.
// 1. autocannon (1 s warm-up first): POST /deliveries/v1/parcels at --concurrency connections, a unique Idempotency-Key per request.
// 2. The bulk engine imports --lines parcels at --concurrency, with its journal and without; each of the
//    --rounds rounds runs 1, then both imports in alternating order (each its own input: no replays); medians.
// 3. Peak RSS of a --rss-lines import in a child process whose `send` answers in-process (no HTTP):
//    input reading, building, keys, the runner and the journal, at the same concurrency.
// The engine is not wired into a command yet, so this script bundles src/bulk with esbuild.
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { build } from 'esbuild';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '32' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    'rss-lines': { type: 'string', default: '1000000' },
    'rss-child': { type: 'string' },
  },
});
const root = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

function hasTaskset() {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function bundleEngine(dir) {
  const outfile = join(dir, 'engine.mjs');
  await build({
    stdin: {
      contents: `export { runImport } from './src/bulk/import.ts';\nexport { sendThrough } from './src/bulk/client-send.ts';\nexport { ApiClient } from './src/api/http.ts';\n`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    external: ['better-sqlite3'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'error',
  });
  return import(outfile);
}

async function writeLines(path, count, prefix) {
  const out = createWriteStream(path);
  for (let i = 1; i <= count; i++) {
    const line = `{"courier":"DEMO-BIKE","country":"NL","postal_code":"1234AB","number":"${prefix}-${i}"}\n`;
    if (!out.write(line)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(resolve));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The child of step 3: imports the input the parent wrote, with the engine the parent bundled (no esbuild here). */
async function rssChild() {
  const dir = values['rss-child'];
  const engine = await import(join(dir, 'engine.mjs'));
  const input = join(dir, 'rss.ndjson');
  const lines = Number(values['rss-lines']);
  let n = 0;
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const summary = await engine.runImport({
    kind: 'create',
    input,
    dataDir: dir,
    target: 'bench|in-process',
    concurrency: Number(values.concurrency),
    send: async () => ({ status: 201, data: { entry_id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` }, headers: {} }),
    emit: () => undefined,
  });
  const seconds = (performance.now() - started) / 1000;
  process.send({ lines, created: summary.created, maxRssMb: process.resourceUsage().maxRSS / 1024, startRssMb: before / 1048576, seconds, maxBuffered: summary.maxBuffered });
}

async function main() {
  if (values['rss-child'] !== undefined) return rssChild();
  const lines = Number(values.lines);
  const concurrency = Number(values.concurrency);
  const dir = mkdtempSync(join(tmpdir(), 'bulk-bench-'));
  const load = loadavg()[0].toFixed(2);
  const serverCmd = hasTaskset() ? ['taskset', ['-c', '0', process.execPath, join(root, 'bin/parcels.js')]] : [process.execPath, [join(root, 'bin/parcels.js')]];
  const server = spawn(serverCmd[0], [...serverCmd[1], 'sandbox', 'serve', '--port', '0', '--db', join(dir, 'bench.db')], {
    env: { ...env, PARCELS_CONFIG_DIR: dir, BULK_BENCH_PINNED: undefined },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    server.stdout.once('data', (chunk) => resolve(String(chunk).trim().split('\n')[0]));
    server.once('exit', (code) => reject(new Error(`sandbox serve exited with ${code}`)));
  });
  const { DEMO_API_KEY } = await import(join(root, 'dist/sandbox/index.js'));
  const engine = await bundleEngine(dir);
  try {
    // Warm-up, then the load generator's create throughput.
    let n = 0;
    const cannon = (seconds) =>
      new Promise((resolve, reject) => {
        autocannon(
          {
            url,
            duration: seconds,
            connections: concurrency,
            requests: [
              {
                method: 'POST',
                path: '/deliveries/v1/parcels',
                headers: { authorization: `Bearer ${DEMO_API_KEY}`, 'content-type': 'application/json' },
                setupRequest: (req) => {
                  n++;
                  return { ...req, headers: { ...req.headers, 'idempotency-key': `autocannon-${process.pid}-${n}` }, body: `{"courier":"DEMO-BIKE","country":"NL","postal_code":"1234AB","number":"ac-${n}"}` };
                },
              },
            ],
          },
          (err, result) => (err ? reject(err) : resolve(result)),
        );
      });
    await cannon(1);

    const client = new engine.ApiClient({ baseUrl: url, apiKey: DEMO_API_KEY, timeoutMs: 10_000, retries: 0, userAgent: 'bulk-bench', connections: concurrency });
    const send = engine.sendThrough(client);
    const rates = { journal: [], none: [], autocannon: [] };
    for (let round = 0; round < Number(values.rounds); round++) {
      rates.autocannon.push((await cannon(Number(values.duration))).requests.average);
      for (const mode of round % 2 === 0 ? ['journal', 'none'] : ['none', 'journal']) {
        const input = join(dir, `in-${round}-${mode}.ndjson`);
        await writeLines(input, lines, `${round}-${mode}`);
        const summary = await engine.runImport({ kind: 'create', input, dataDir: dir, target: `bench|${url}`, journal: mode === 'journal', send, concurrency, emit: () => undefined });
        if (summary.created !== lines) throw new Error(`expected ${lines} created, got ${JSON.stringify(summary)}`);
        rates[mode].push((lines * 1000) / summary.elapsedMs);
      }
    }
    await client.close();
    const withJournal = median(rates.journal);
    const without = median(rates.none);
    const acRate = median(rates.autocannon);

    await writeLines(join(dir, 'rss.ndjson'), Number(values['rss-lines']), 'rss');
    const rss = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--rss-child', dir, '--rss-lines', values['rss-lines'], '--concurrency', String(concurrency)], {
        env: { ...env, BULK_BENCH_PINNED: '1' },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      child.once('message', resolve);
      child.once('exit', (code) => code !== 0 && reject(new Error(`rss child exited with ${code}`)));
    });

    console.log(`load average ${load}; ${lines} lines, concurrency ${concurrency}; node ${process.version}`);
    console.table([
      { what: `autocannon POST create, ${concurrency} connections, unique keys (median of ${rates.autocannon.map(Math.round).join(', ')})`, 'parcels/s': Math.round(acRate) },
      { what: `bulk import with journal (median of ${rates.journal.map(Math.round).join(', ')})`, 'parcels/s': Math.round(withJournal) },
      { what: `bulk import without journal (median of ${rates.none.map(Math.round).join(', ')})`, 'parcels/s': Math.round(without) },
    ]);
    console.log(`bulk (journal) / autocannon = ${(withJournal / acRate).toFixed(2)} (target >= 0.85)`);
    console.log(`journal cost: with / without = ${(withJournal / without).toFixed(2)} (target >= 0.90)`);
    console.log(
      `peak RSS, ${rss.lines} lines (in-process answers): ${rss.maxRssMb.toFixed(0)} MB (start ${rss.startRssMb.toFixed(0)} MB), ${rss.seconds.toFixed(1)} s, max buffered results ${rss.maxBuffered} (target < 150 MB)`,
    );
  } finally {
    server.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

// Pin this process to core 1 (re-exec under taskset once).
if (!process.env.BULK_BENCH_PINNED && values['rss-child'] === undefined && hasTaskset()) {
  const child = spawn('taskset', ['-c', '1', process.execPath, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...env, BULK_BENCH_PINNED: '1' } });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  await main();
}
