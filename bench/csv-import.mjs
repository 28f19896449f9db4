// CSV import cost, through the CLI (issue 27: the stray-quote rule must keep 1,000,000 CSV lines under
// 150 MB and CPU per line close to before). Run after `npm run build`:
//   node bench/csv-import.mjs [--lines 200000] [--rounds 3] [--rss-lines 1000000] [--base OTHER/bin/parcels.js]
// Writes a CSV file (comma-separated, one line in ten with a quoted cell holding the delimiter and a
// doubled quote) and imports it with `parcels create --from FILE` against a bare HTTP server that
// answers every create at once, PARCELS_BENCH_NO_JOURNAL=1 (the reader, builder and sender, not the
// journal). With --base, each round runs the base build and this one in alternating order; medians of
// the process's own CPU time per line (start-up included) and peak RSS, read at its exit by
// bench/usage-hook.mjs. Before them, one --rss-lines import of this build, journal on: its peak RSS
// (the memory target); after them, the base build's.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '3' },
    'rss-lines': { type: 'string', default: '1000000' },
    concurrency: { type: 'string', default: '32' },
    base: { type: 'string' },
  },
});
const root = fileURLToPath(new URL('..', import.meta.url));
const builds = { now: join(root, 'bin/parcels.js'), ...(values.base === undefined ? {} : { base: values.base }) };
const USAGE_HOOK = join(root, 'bench/usage-hook.mjs');

/** A bare server: 201 with a fresh entry_id for every request, nothing stored. */
async function bareServer() {
  const { createServer } = await import('node:http');
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(`{"data":{"entry_id":"${id}","status":0}}`);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

async function writeCsv(path, count, prefix) {
  const out = createWriteStream(path);
  out.write('courier,country,postal_code,number,addition\n');
  for (let i = 1; i <= count; i++) {
    const line = i % 10 === 0 ? `DEMO-BIKE,NL,1234AB,${prefix}-${i},"bis, ""achter"""\n` : `DEMO-BIKE,NL,1234AB,${prefix}-${i},\n`;
    if (!out.write(line)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(resolve));
}

let runs = 0;
function importRun(bin, input, env) {
  return new Promise((resolve, reject) => {
    const usageFile = join(tmpdir(), `csv-bench-usage-${process.pid}-${++runs}.json`);
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', USAGE_HOOK, bin, 'create', '--from', input, '--concurrency', values.concurrency], { env: { ...env, BULK_BENCH_USAGE_FILE: usageFile }, stdio: ['ignore', 'pipe', 'pipe'] });
    let results = 0;
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) results++;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`${bin} create --from exited ${code}: ${stderr}`));
      const usage = JSON.parse(readFileSync(usageFile, 'utf8'));
      rmSync(usageFile, { force: true });
      resolve({ seconds: (performance.now() - started) / 1000, results, peakMb: usage.maxRssKb / 1024, cpuUsPerLine: (usage.userUs + usage.systemUs) / results });
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), 'csv-bench-'));
const server = await bareServer();
try {
  const env = { ...process.env, PARCELS_BASE_URL: server.url, PARCELS_API_KEY: 'bench-key-0123456789', NO_COLOR: '1' };
  delete env.NODE_EXTRA_CA_CERTS;
  const rssRun = async (name) => {
    const input = join(dir, `rss-${name}.csv`);
    await writeCsv(input, rssLines, `rss-${name}`);
    const run = await importRun(builds[name], input, { ...env, PARCELS_CONFIG_DIR: join(dir, `cli-rss-${name}`) });
    console.log(`${name}: ${rssLines}-line CSV import, journal on: peak RSS ${run.peakMb.toFixed(0)} MB, ${run.cpuUsPerLine.toFixed(0)} µs CPU/line, ${run.seconds.toFixed(1)} s (target < 150 MB)`);
    rmSync(input);
  };
  // The memory target first: this build's import of --rss-lines lines.
  const rssLines = Number(values['rss-lines']);
  if (rssLines > 0) await rssRun('now');
  const lines = Number(values.lines);
  const measured = Object.fromEntries(Object.keys(builds).map((name) => [name, []]));
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = round % 2 === 0 ? Object.keys(builds) : Object.keys(builds).reverse();
    for (const name of order) {
      const input = join(dir, `in-${round}-${name}.csv`);
      await writeCsv(input, lines, `${round}-${name}`);
      const run = await importRun(builds[name], input, { ...env, PARCELS_CONFIG_DIR: join(dir, `cli-${round}-${name}`), PARCELS_BENCH_NO_JOURNAL: '1' });
      if (run.results !== lines) throw new Error(`${name}: ${run.results} results for ${lines} lines`);
      console.log(`  round ${round + 1} ${name}: ${run.cpuUsPerLine.toFixed(1)} µs CPU/line, ${run.seconds.toFixed(1)} s, peak RSS ${run.peakMb.toFixed(0)} MB`);
      measured[name].push(run);
      rmSync(input);
    }
  }
  for (const [name, list] of Object.entries(measured)) {
    console.log(`${name}: ${lines} CSV lines, median of ${list.length}: ${median(list.map((r) => r.cpuUsPerLine)).toFixed(1)} µs CPU/line (${list.map((r) => r.cpuUsPerLine.toFixed(1)).join(', ')}), ${median(list.map((r) => r.seconds)).toFixed(1)} s, peak RSS ${median(list.map((r) => r.peakMb)).toFixed(0)} MB`);
  }
  if (rssLines > 0 && builds.base !== undefined) await rssRun('base');
} finally {
  server.close();
  rmSync(dir, { recursive: true, force: true });
}
