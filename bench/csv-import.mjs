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
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, bareServer, benchEnv, median, runCreate } from './lib/kit.mjs';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '3' },
    'rss-lines': { type: 'string', default: '1000000' },
    concurrency: { type: 'string', default: '32' },
    base: { type: 'string' },
  },
});
const builds = { now: BIN, ...(values.base === undefined ? {} : { base: values.base }) };

async function writeCsv(path, count, prefix) {
  const out = createWriteStream(path);
  out.write('courier,country,postal_code,number,addition\n');
  for (let i = 1; i <= count; i++) {
    const line = i % 10 === 0 ? `DEMO-BIKE,NL,1234AB,${prefix}-${i},"bis, ""achter"""\n` : `DEMO-BIKE,NL,1234AB,${prefix}-${i},\n`;
    if (!out.write(line)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(resolve));
}

/** `parcels create --from input` of `bin`: seconds, results, its CPU per result line and peak RSS. */
async function importRun(bin, input, env) {
  const run = await runCreate({ bin, input, env, usage: true, args: ['--concurrency', values.concurrency] });
  return { seconds: run.wallMs / 1000, results: run.results, peakMb: run.peakMb, cpuUsPerLine: run.cpuUs / run.results };
}

const dir = mkdtempSync(join(tmpdir(), 'csv-bench-'));
const server = await bareServer();
try {
  const env = { ...benchEnv(), PARCELS_BASE_URL: server.url, PARCELS_API_KEY: 'bench-key-0123456789' };
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
