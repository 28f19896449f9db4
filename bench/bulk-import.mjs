// Bulk import speed and memory, through the CLI. Run after `npm run build`:
//   node bench/bulk-import.mjs [--lines 10000] [--concurrency 32] [--duration 5] [--rounds 3] [--long-lines 50000] [--rss-lines 1000000] [--rss-only] [--bin OTHER/bin/parcels.js]
// With taskset (as the issue asks: server and client each on its own core), `parcels sandbox serve`
// runs pinned to core 0, and this script pins itself to core 1 with all its threads, so autocannon
// (which runs in this process) and the `parcels` processes it starts (they inherit the affinity)
// share core 1 and never the server's core.
// 1. autocannon (1 s warm-up first): POST /deliveries/v1/parcels at --concurrency connections, a unique Idempotency-Key per request.
//    Then, as a reference, bench/undici-create-loop.mjs: --lines creates by a fresh process that does only
//    undici Pool.dispatch (no validation, journal or results), the ceiling of any client built on undici.
// 2. `parcels create --from FILE --concurrency N` imports --lines parcels, with its journal and without
//    (PARCELS_BENCH_NO_JOURNAL=1, a benchmark-only switch); each of the --rounds rounds runs autocannon, then
//    both imports in alternating order (each its own input: no replays); medians. Rates are wall-clock,
//    process start to exit. The client's CPU per line is its process's user + system CPU time (start-up
//    included) over the lines, taken at its exit by bench/usage-hook.mjs (preloaded with --import).
//    Also shown: the rate the run itself reports (first send to last answer: no process start-up),
//    and one --long-lines import, where a fresh process's start-up and JIT warm-up weigh less.
// 3. Peak RSS (the process's own maxRSS at exit) of `parcels create --from` with a --rss-lines file against a bare HTTP server on
//    core 0 that answers every create at once (no SQLite), then of the re-run of that batch (all replayed), then of a
//    re-run with `--continue` after one line in the middle was edited (the input is read once more to find what changed).
//    Then a file of one 24 MB line (time and peak RSS: since issue 19 it is one bad line, skipped in bounded memory;
//    before, it was gathered by re-concatenating every chunk). `--rss-only` runs step 3 alone; `--bin` times another
//    build (e.g. main's) for paired runs.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { BIN as DEFAULT_BIN, ROOT, bareServer, benchEnv, median, runCreate, writeCreates } from './lib/kit.mjs';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '32' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    'long-lines': { type: 'string', default: '50000' },
    'rss-lines': { type: 'string', default: '1000000' },
    'bare-server': { type: 'boolean', default: false },
    'rss-only': { type: 'boolean', default: false },
    bin: { type: 'string' },
  },
});
const BIN = values.bin ?? DEFAULT_BIN;
const env = benchEnv();

function hasTaskset() {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const pinned = hasTaskset();
/** A command on core 0 when taskset is there. */
function onCore0(args) {
  return pinned ? ['taskset', ['-c', '0', process.execPath, ...args]] : [process.execPath, args];
}

/** Starts a child that prints its base URL as the first line of stdout. */
async function startServer(args, childEnv) {
  const [cmd, argv] = onCore0(args);
  const child = spawn(cmd, argv, { env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(String(chunk).trim().split('\n')[0]));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

/** Runs `parcels create --from input`; wall-clock seconds, its summary line, its CPU time and peak RSS. Exit codes other than `codes` reject. */
async function importRun(input, childEnv, extra = [], codes = [0]) {
  const run = await runCreate({ bin: BIN, input, env: childEnv, usage: true, args: ['--concurrency', values.concurrency, ...extra], codes });
  return {
    seconds: run.wallMs / 1000,
    results: run.results,
    summary: run.stderr,
    /** The rate in the run's own summary ("…, 3999 lines/s"): first send to last answer. */
    reportedRate: run.rate,
    peakMb: run.peakMb,
    cpuUsPerLine: run.cpuUs / run.results,
  };
}

/** bench/undici-create-loop.mjs: the same number of creates by the least an undici client does. */
function undiciLoop(url, key, count) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench/undici-create-loop.mjs'), url, key, String(count), values.concurrency], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`undici-create-loop exited ${code}`))));
  });
}

/** Step 3: a --rss-lines import against the bare server, its re-run, and a re-run after one edited line; the lines to print. */
async function rssRuns(dir, cliEnv) {
  const bare = await startServer([fileURLToPath(import.meta.url), '--bare-server'], env);
  const rssLines = Number(values['rss-lines']);
  const rssInput = join(dir, 'rss.ndjson');
  await writeCreates(rssInput, rssLines, 'rss');
  const rssEnv = { ...cliEnv, PARCELS_BASE_URL: bare.url };
  try {
    const big = await importRun(rssInput, rssEnv);
    const rerun = await importRun(rssInput, rssEnv);
    await writeCreates(rssInput, rssLines, 'rss', Math.ceil(rssLines / 2));
    const edited = await importRun(rssInput, rssEnv, ['--continue']);
    if (big.results !== rssLines || !rerun.summary.includes(`${rssLines} already done`) || !edited.summary.includes(`1 created, ${rssLines - 1} already done`)) {
      throw new Error(`large import: ${big.summary} / ${rerun.summary} / ${edited.summary}`);
    }
    const longLine = join(dir, 'one-line.ndjson');
    writeFileSync(longLine, `${JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '1', addition: 'x'.repeat(24 * 1024 * 1024) })}\n`);
    // Exit 2 since issue 19: the line is over 1 MiB, one bad line; before it, exit 0 (sent whole).
    const long = await importRun(longLine, rssEnv, [], [0, 2]);
    return [
      `peak RSS, ${rssLines}-line import (bare server): ${big.peakMb.toFixed(0)} MB in ${big.seconds.toFixed(1)} s, ${big.cpuUsPerLine.toFixed(0)} µs CPU/line (target < 150 MB)`,
      `peak RSS, re-run of that batch (all replayed, nothing sent): ${rerun.peakMb.toFixed(0)} MB in ${rerun.seconds.toFixed(1)} s, ${rerun.cpuUsPerLine.toFixed(0)} µs CPU/line`,
      `peak RSS, re-run after editing one line (--continue: 1 sent, the rest replayed): ${edited.peakMb.toFixed(0)} MB in ${edited.seconds.toFixed(1)} s, ${edited.cpuUsPerLine.toFixed(0)} µs CPU/line`,
      `one 24 MB line: ${long.seconds.toFixed(2)} s, peak RSS ${long.peakMb.toFixed(0)} MB (${long.summary.split(' in ')[0]})`,
    ].join('\n');
  } finally {
    bare.stop();
  }
}

async function main() {
  if (values['bare-server']) return console.log((await bareServer()).url);
  if (values['rss-only']) {
    const dir = mkdtempSync(join(tmpdir(), 'bulk-bench-'));
    try {
      console.log(`load average ${loadavg()[0].toFixed(2)}; node ${process.version}`);
      console.log(await rssRuns(dir, { ...env, PARCELS_CONFIG_DIR: join(dir, 'cli'), PARCELS_API_KEY: 'bench-key-0123456789', NO_COLOR: '1' }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return;
  }
  // This process and everything it starts from now on: core 1 (the servers are started on core 0).
  if (pinned) execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  const lines = Number(values.lines);
  const concurrency = Number(values.concurrency);
  const dir = mkdtempSync(join(tmpdir(), 'bulk-bench-'));
  const load = loadavg()[0].toFixed(2);
  const { DEFAULT_SEED, DEMO_API_KEY } = await import(join(ROOT, 'dist/sandbox/index.js'));
  // The default seed's limit (100,000 requests a minute) would turn later rounds into 429s: cheap
  // answers for autocannon, pauses for the import. Limiting stays on, out of reach.
  const seed = join(dir, 'seed.json');
  writeFileSync(seed, JSON.stringify({ ...DEFAULT_SEED, rate_limit: { requests: 1_000_000_000, window_s: 60 } }));
  const sandbox = await startServer([BIN, 'sandbox', 'serve', '--port', '0', '--db', join(dir, 'bench.db'), '--seed', seed], { ...env, PARCELS_CONFIG_DIR: join(dir, 'server') });
  const url = sandbox.url;
  const cliEnv = { ...env, PARCELS_CONFIG_DIR: join(dir, 'cli'), PARCELS_BASE_URL: url, PARCELS_API_KEY: DEMO_API_KEY };
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
          (err, result) => {
            if (err) return reject(err);
            // Only created parcels count: a 429 or an error answer would flatter the load generator.
            if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`autocannon: ${result.non2xx} non-2xx answers, ${result.errors} errors`));
            resolve(result);
          },
        );
      });
    await cannon(1);

    const rates = { journal: [], none: [], autocannon: [], reported: [], undici: [] };
    const cpu = { journal: [], none: [], undici: [] };
    for (let round = 0; round < Number(values.rounds); round++) {
      rates.autocannon.push((await cannon(Number(values.duration))).requests.average);
      const loop = await undiciLoop(url, DEMO_API_KEY, lines);
      rates.undici.push(loop.rate);
      cpu.undici.push(loop.cpuUsPerRequest);
      for (const mode of round % 2 === 0 ? ['journal', 'none'] : ['none', 'journal']) {
        const input = join(dir, `in-${round}-${mode}.ndjson`);
        await writeCreates(input, lines, `${round}-${mode}`);
        const run = await importRun(input, mode === 'journal' ? cliEnv : { ...cliEnv, PARCELS_BENCH_NO_JOURNAL: '1' });
        if (run.results !== lines || !run.summary.includes(`${lines} created`)) throw new Error(`expected ${lines} created: ${run.summary}`);
        rates[mode].push(lines / run.seconds);
        if (mode === 'journal') rates.reported.push(run.reportedRate);
        cpu[mode].push(run.cpuUsPerLine);
      }
    }
    const longLines = Number(values['long-lines']);
    const longInput = join(dir, 'long.ndjson');
    await writeCreates(longInput, longLines, 'long');
    const long = await importRun(longInput, cliEnv);
    if (long.results !== longLines || !long.summary.includes(`${longLines} created`)) throw new Error(`long import: ${long.summary}`);
    const longAutocannon = (await cannon(Number(values.duration))).requests.average;
    sandbox.stop();
    const withJournal = median(rates.journal);
    const without = median(rates.none);
    const acRate = median(rates.autocannon);

    const rss = await rssRuns(dir, cliEnv);

    console.log(`load average ${load}; ${lines} lines, concurrency ${concurrency}; node ${process.version}`);
    console.table([
      { what: `autocannon POST create, ${concurrency} connections, unique keys (median of ${rates.autocannon.map(Math.round).join(', ')})`, 'parcels/s': Math.round(acRate), 'client CPU µs/line': '' },
      { what: `reference: a bare undici Pool.dispatch loop, fresh process (median of ${rates.undici.map(Math.round).join(', ')})`, 'parcels/s': Math.round(median(rates.undici)), 'client CPU µs/line': Math.round(median(cpu.undici)) },
      { what: `parcels create --from, journal (median of ${rates.journal.map(Math.round).join(', ')})`, 'parcels/s': Math.round(withJournal), 'client CPU µs/line': Math.round(median(cpu.journal)) },
      { what: `parcels create --from, no journal (median of ${rates.none.map(Math.round).join(', ')})`, 'parcels/s': Math.round(without), 'client CPU µs/line': Math.round(median(cpu.none)) },
    ]);
    console.log(`bulk (journal) / autocannon = ${(withJournal / acRate).toFixed(2)} (target >= 0.85)`);
    console.log(`reference: bare undici loop / autocannon = ${(median(rates.undici) / acRate).toFixed(2)}; bulk (journal) / bare undici loop = ${(withJournal / median(rates.undici)).toFixed(2)}`);
    console.log(`the rate the runs report (first send to last answer, no process start-up): ${rates.reported.join(', ')} lines/s; median / autocannon = ${(median(rates.reported) / acRate).toFixed(2)}`);
    console.log(`${longLines}-line import: ${Math.round(longLines / long.seconds)} parcels/s wall-clock, ${long.cpuUsPerLine.toFixed(0)} µs client CPU/line; autocannon right after: ${Math.round(longAutocannon)}/s; ratio ${(longLines / long.seconds / longAutocannon).toFixed(2)}`);
    console.log(`journal cost: with / without = ${(withJournal / without).toFixed(2)} (target >= 0.90)`);
    console.log(`client CPU per line (the parcels process, start-up included), journal: ${cpu.journal.map((us) => us.toFixed(0)).join(', ')} µs`);
    console.log(rss);
  } finally {
    sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Pin this process to core 1 (re-exec under taskset once).
if (!process.env.BULK_BENCH_PINNED && !values['bare-server'] && hasTaskset()) {
  const child = spawn('taskset', ['-c', '1', process.execPath, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...env, BULK_BENCH_PINNED: '1' } });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  await main();
}
