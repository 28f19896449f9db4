// The cost of --jq on a 10,000-item stream. Run after `npm run build`:
//   node bench/jq-stream.mjs [--items 10000] [--rounds 3]
// 1. End to end: `parcels list --all` (the built binary, spawned) against a sandbox holding --items
//    parcels (100 pages of 100), as NDJSON and through three --jq filters; wall time and peak RSS
//    (GNU time), median of --rounds alternating rounds. The sandbox runs in this process.
// 2. The output layer alone: renderList (NDJSON) against renderJqStream over --items synthetic parcels
//    written to a null stream, bundled from src/ with esbuild: the per-item cost of jq without HTTP.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { DEMO_API_KEY, startSandbox } from '../dist/sandbox/index.js';

const { values } = parseArgs({ options: { items: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '3' } } });
const items = Number(values.items);
const rounds = Math.max(1, Number(values.rounds));
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'parcels.js');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const dir = mkdtempSync(join(tmpdir(), 'parcels-jq-bench-'));

const env = { ...process.env, PARCELS_CONFIG_DIR: dir, PARCELS_API_KEY: DEMO_API_KEY, NO_COLOR: '1' };
delete env.NODE_EXTRA_CA_CERTS;

async function seed(url) {
  let next = 0;
  const worker = async () => {
    while (next < items) {
      const i = next++;
      const res = await fetch(`${url}/deliveries/v1/parcels`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEMO_API_KEY}`, 'content-type': 'application/json', 'idempotency-key': `bench-jq-${i}-${process.pid}` },
        body: JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: String(i), parcel_weight: i % 2000 }),
      });
      if (res.status !== 201) throw new Error(`seed: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/** One spawned run under GNU time: wall ms, peak RSS MiB, stdout lines. */
function timed(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', '%M', process.execPath, bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      for (const byte of chunk) if (byte === 10) lines++;
    });
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      if (code !== 0) return reject(new Error(`parcels ${args.join(' ')} exited ${code}: ${stderr}`));
      const kib = Number(stderr.trim().split('\n').at(-1));
      resolve({ ms, rssMiB: kib / 1024, lines });
    });
  });
}

async function endToEnd() {
  const sandbox = await startSandbox({ db: join(dir, 'bench.db'), port: 0, rateLimit: { requests: 1_000_000_000, window_s: 60 } });
  try {
    const seedStart = performance.now();
    await seed(sandbox.url);
    console.error(`seeded ${items} parcels in ${Math.round(performance.now() - seedStart)} ms`);
    const base = ['--base-url', sandbox.url, 'list', '--all', '--limit', '100'];
    const variants = [
      ['--output ndjson (no jq)', [...base, '--output', 'ndjson']],
      ['--jq .entry_id', [...base, '--jq', '.entry_id']],
      ['--jq {id: .entry_id, status, parcel_weight}', [...base, '--jq', '{id: .entry_id, status, parcel_weight}']],
      ['--jq select(.parcel_weight > 1000) | .entry_id', [...base, '--jq', 'select(.parcel_weight > 1000) | .entry_id']],
    ];
    await timed(variants[0][1]); // warm-up: page cache, SQLite, compile cache
    const results = new Map(variants.map(([name]) => [name, []]));
    for (let r = 0; r < rounds; r++) {
      for (const [name, args] of r % 2 === 0 ? variants : [...variants].reverse()) results.get(name).push(await timed(args));
    }
    const baseline = median(results.get(variants[0][0]).map((x) => x.ms));
    console.log(`\nEnd to end: parcels list --all over ${items} parcels (${Math.ceil(items / 100)} pages), median of ${rounds}`);
    console.log('| Output | Wall ms | vs NDJSON | Per item | Peak RSS MiB | Lines |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const [name] of variants) {
      const runs = results.get(name);
      const ms = median(runs.map((x) => x.ms));
      const extra = ms - baseline;
      console.log(
        `| ${name} | ${Math.round(ms)} | ${name === variants[0][0] ? '—' : `${extra >= 0 ? '+' : ''}${Math.round(extra)} ms`} | ${name === variants[0][0] ? '—' : `${((extra * 1000) / items).toFixed(0)} µs`} | ${median(runs.map((x) => x.rssMiB)).toFixed(0)} | ${runs[0].lines} |`,
      );
    }
  } finally {
    await sandbox.close();
  }
}

async function outputLayer() {
  const outfile = join(dir, 'render.mjs');
  await build({
    stdin: {
      contents: "export { renderJqStream, compileJq } from './src/io/jq.ts';\nexport { renderList } from './src/io/render.ts';\n",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    external: ['jq-wasm'],
    logLevel: 'error',
  });
  const { renderJqStream, compileJq, renderList } = await import(outfile);
  const sink = () => new Writable({ write: (_chunk, _enc, done) => done() });
  const io = () => ({ stdout: sink(), stderr: sink(), stdin: process.stdin, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false, colour: false, stderrColour: false, columns: 80, env: {} });
  const parcels = Array.from({ length: items }, (_, i) => ({
    entry_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    courier: 'DEMO-BIKE',
    country: 'NL',
    postal_code: '1234AB',
    number: String(i),
    parcel_weight: i % 2000,
    status: i % 4,
    created_at: 1795000000 + i,
  }));
  const loadStart = performance.now();
  const filter = await compileJq('.entry_id');
  const loadMs = performance.now() - loadStart;
  const runs = { ndjson: [], jq: [] };
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    await renderList(io(), parcels, { format: 'ndjson', now: 0, stream: true });
    runs.ndjson.push(performance.now() - t);
    t = performance.now();
    await renderJqStream(io(), filter, parcels);
    runs.jq.push(performance.now() - t);
  }
  const nd = median(runs.ndjson);
  const jq = median(runs.jq);
  console.log(`\nOutput layer alone: ${items} items to a null stream, median of ${rounds}`);
  console.log('| Output | ms | Per item |');
  console.log('|---|---:|---:|');
  console.log(`| renderList NDJSON | ${nd.toFixed(0)} | ${((nd * 1000) / items).toFixed(1)} µs |`);
  console.log(`| renderJqStream \`.entry_id\` | ${jq.toFixed(0)} | ${((jq * 1000) / items).toFixed(1)} µs |`);
  console.log(`| loading jq-wasm and compiling the filter (once) | ${loadMs.toFixed(0)} | |`);
}

console.error(`node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
try {
  execFileSync('/usr/bin/time', ['-f', '%M', 'true'], { stdio: 'ignore' });
} catch {
  throw new Error('needs GNU time at /usr/bin/time for the peak RSS');
}
try {
  await endToEnd();
  await outputLayer();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
