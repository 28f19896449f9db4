// The created index's cost (issue 27), through the CLI. Run after `npm run build`:
//   node bench/created-index.mjs [--lines 1000000] [--batches 10] [--check-lines 100000] [--check-only] [--bin OTHER/bin/parcels.js]
// 1. A target with history: one real one-line import creates the target's journal folder and index,
//    then --batches earlier batches of --lines lines each are appended to its index, records as a
//    run writes them (40 bytes each, the digest of each line's request, occurrence, batch, line,
//    time, entry id), and named in created.batches. Writing ten million records by hand takes
//    seconds; ten real million-line imports would take most of an hour and measure the sender.
// 2. Peak RSS and wall time of `parcels create --from` of a fresh --lines file (no line matches)
//    against a bare HTTP server that answers every create at once (bench/bulk-import.mjs
//    --bare-server): the check reads the input once and the whole index once, then every line is sent.
// 3. The check's own cost: a copy of the first line of an earlier batch, of its first --check-lines
//    lines and of the whole batch are refused as copies (exit 2, nothing sent): those runs do nothing
//    but start, hash the file and check; less the 1-line copy's time (start-up and one read of the
//    whole index) is what the check's reading and matching of the input lines cost.
// Peak RSS and CPU from bench/usage-hook.mjs (the process's own maxRSS at exit).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, createWriteStream, mkdtempSync, openSync, readdirSync, rmSync, writeSync, appendFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BIN as DEFAULT_BIN, ROOT, benchEnv, runCreate } from './lib/kit.mjs';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    batches: { type: 'string', default: '10' },
    'check-lines': { type: 'string', default: '100000' },
    /** Step 3 alone (the check's cost), without the million-line import of step 2. */
    'check-only': { type: 'boolean', default: false },
    bin: { type: 'string' },
  },
});
const BIN = values.bin ?? DEFAULT_BIN;
const LINES = Number(values.lines);
const BATCHES = Number(values.batches);
const CHECK_LINES = Number(values['check-lines']);
const CREATE_PATH = '/deliveries/v1/parcels';
const env = benchEnv();

function fields(prefix, i) {
  return { courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: `${prefix}-${i}` };
}

/** The line as bench/bulk-import.mjs writes it. */
const lineOf = (prefix, i) => `${JSON.stringify(fields(prefix, i))}\n`;

/** src/bulk/keys.ts requestDigest over the canonical request (keys in code-unit order), as the index keeps its first 64 bits. */
function tag(prefix, i) {
  const f = fields(prefix, i);
  const canonical = `{"country":${JSON.stringify(f.country)},"courier":${JSON.stringify(f.courier)},"number":${JSON.stringify(f.number)},"postal_code":${JSON.stringify(f.postal_code)}}`;
  return createHash('sha256').update(`POST ${CREATE_PATH}\0${canonical}`).digest().subarray(0, 8);
}

async function writeLines(path, count, prefix) {
  const out = createWriteStream(path);
  for (let i = 1; i <= count; i++) if (!out.write(lineOf(prefix, i))) await new Promise((resolve) => out.once('drain', resolve));
  await new Promise((resolve) => out.end(resolve));
}

/** Appends `count` records of batch `n` (lines of `prefix`) to the index, a chunk at a time. */
function appendRecords(indexFile, n, prefix, count) {
  const fd = openSync(indexFile, 'a');
  const chunk = Buffer.alloc(40 * 10_000);
  const at = Math.floor(Date.now() / 1000);
  try {
    for (let first = 1; first <= count; first += 10_000) {
      const last = Math.min(count, first + 9_999);
      chunk.fill(0);
      for (let i = first; i <= last; i++) {
        const o = (i - first) * 40;
        tag(prefix, i).copy(chunk, o);
        chunk.writeUInt32LE(0, o + 8);
        chunk.writeUInt32LE(i, o + 12);
        chunk.writeUInt16LE(n, o + 16);
        chunk.writeUInt8(1, o + 18);
        chunk.writeUInt8(1, o + 19);
        chunk.writeUInt32LE(at, o + 20);
        chunk.writeUInt32LE(i, o + 36);
      }
      writeSync(fd, chunk, 0, (last - first + 1) * 40);
    }
  } finally {
    closeSync(fd);
  }
}

function startBare() {
  const child = spawn(process.execPath, [join(ROOT, 'bench/bulk-import.mjs'), '--bare-server'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve({ url: String(chunk).trim().split('\n')[0], stop: () => child.kill('SIGTERM') }));
    child.once('exit', (code) => reject(new Error(`bare server exited ${code}`)));
  });
}

/** `parcels create --from input`: its exit code, seconds, CPU seconds, result lines, summary and peak RSS. */
async function run(input, childEnv, codes = [0]) {
  const r = await runCreate({ bin: BIN, input, env: childEnv, usage: true, args: ['--concurrency', '32'], codes });
  return { code: r.code, seconds: r.wallMs / 1000, cpuSeconds: r.cpuUs / 1e6, results: r.results, stderr: r.stderr, peakMb: r.peakMb };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'created-index-bench-'));
  const bare = await startBare();
  const cliEnv = { ...env, PARCELS_CONFIG_DIR: join(dir, 'cli'), PARCELS_BASE_URL: bare.url, PARCELS_API_KEY: 'bench-key-0123456789', NO_COLOR: '1' };
  try {
    console.log(`load average ${loadavg()[0].toFixed(2)}; node ${process.version}; ${BATCHES} earlier batches of ${LINES} lines`);
    const seedInput = join(dir, 'seed.ndjson');
    await writeLines(seedInput, 1, 'seed');
    await run(seedInput, cliEnv);
    const journals = join(dir, 'cli', 'journals');
    const targetDir = join(journals, readdirSync(journals)[0]);
    const indexFile = join(targetDir, 'created.idx');
    const started = performance.now();
    for (let n = 2; n <= BATCHES + 1; n++) {
      appendRecords(indexFile, n, `hist${n}`, LINES);
      appendFileSync(join(targetDir, 'created.batches'), `${JSON.stringify({ n, batch: `create~history${n}`, input: join(dir, `history-${n}.ndjson`), at: Date.now() })}\n`);
    }
    console.log(`history written: ${((BATCHES * LINES * 40) / 1e6).toFixed(0)} MB of records in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    if (!values['check-only']) {
      const fresh = join(dir, 'fresh.ndjson');
      await writeLines(fresh, LINES, 'fresh');
      const big = await run(fresh, cliEnv);
      if (big.results !== LINES || !big.stderr.includes(`${LINES} created`)) throw new Error(`fresh import: ${big.stderr}`);
      console.log(`peak RSS, ${LINES}-line import with ${BATCHES} earlier ${LINES}-line batches on the target: ${big.peakMb.toFixed(0)} MB in ${big.seconds.toFixed(1)} s, ${big.cpuSeconds.toFixed(1)} s CPU (target < 150 MB)`);
    }

    const refusals = [];
    for (const count of [1, CHECK_LINES, LINES]) {
      const copy = join(dir, `copy-${count}.ndjson`);
      await writeLines(copy, count, 'hist2');
      const refused = await run(copy, cliEnv, [2]);
      if (!refused.stderr.includes('is a copy of batch history2')) throw new Error(`copy of ${count}: ${refused.stderr}`);
      refusals.push(refused);
      const base = refusals[0];
      const perLines =
        count === 1
          ? ''
          : `; less the 1-line copy's run (start-up and reading the index once): wall ${(((refused.seconds - base.seconds) * 100_000) / count).toFixed(2)} s, CPU ${(((refused.cpuSeconds - base.cpuSeconds) * 100_000) / count).toFixed(2)} s per 100,000 lines (target ≤ ~1 s)`;
      console.log(`a copy of ${count} line${count === 1 ? '' : 's'} refused (start-up, hashing, the check against ${BATCHES * LINES + 1} records): ${refused.seconds.toFixed(2)} s wall, ${refused.cpuSeconds.toFixed(2)} s CPU, peak RSS ${refused.peakMb.toFixed(0)} MB${perLines}`);
    }
  } finally {
    bare.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
