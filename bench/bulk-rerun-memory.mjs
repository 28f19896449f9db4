// Peak RSS and client CPU of a large bulk import, of its re-run, and of a re-run after one line was
// edited (issue 19: keys from the request, so the edited re-run reads the input once more to find
// what changed). Run after `npm run build`:
//   node bench/bulk-rerun-memory.mjs [--lines 1000000] [--concurrency 32]
// Against a bare HTTP server (this script with --bare-server, its own process) that answers every
// create at once with a fresh entry_id and stores nothing, so the figures are the client's alone.
// Peak RSS is the `parcels` process's own maxRSS at exit and CPU its user + system time, both taken
// by bench/usage-hook.mjs (preloaded with --import). NODE_EXTRA_CA_CERTS is unset on both sides.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    concurrency: { type: 'string', default: '32' },
    'bare-server': { type: 'boolean', default: false },
  },
});
const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin/parcels.js');
const USAGE_HOOK = join(root, 'bench/usage-hook.mjs');
const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

if (values['bare-server']) {
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
  server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
} else {
  await main();
}

async function main() {
  const lines = Number(values.lines);
  const dir = mkdtempSync(join(tmpdir(), 'bulk-rerun-'));
  const server = spawn(process.execPath, [fileURLToPath(import.meta.url), '--bare-server'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise((resolve) => server.stdout.once('data', (chunk) => resolve(String(chunk).trim())));
    const input = join(dir, 'big.ndjson');
    await writeInput(input, lines, () => undefined);
    const cliEnv = { ...env, PARCELS_BASE_URL: url, PARCELS_API_KEY: 'bench-key-0123456789', PARCELS_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' };
    const first = await run(input, cliEnv, []);
    const rerun = await run(input, cliEnv, []);
    await writeInput(input, lines, (i) => (i === Math.floor(lines / 2) ? 'edited' : undefined));
    const edited = await run(input, cliEnv, ['--continue']);
    const expect = (r, text) => {
      if (!r.summary.includes(text)) throw new Error(`expected "${text}": ${r.summary}`);
    };
    expect(first, `${lines} created`);
    expect(rerun, `${lines} already done`);
    expect(edited, `1 created, ${lines - 1} already done`);
    console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${lines} lines, concurrency ${values.concurrency}; node ${process.version}`);
    console.table([
      { run: 'import (every line sent)', 'peak RSS MB': Math.round(first.peakMb), seconds: first.seconds.toFixed(1), 'client CPU µs/line': Math.round(first.cpuUsPerLine) },
      { run: 're-run (all replayed)', 'peak RSS MB': Math.round(rerun.peakMb), seconds: rerun.seconds.toFixed(1), 'client CPU µs/line': Math.round(rerun.cpuUsPerLine) },
      { run: 're-run after editing one line (--continue)', 'peak RSS MB': Math.round(edited.peakMb), seconds: edited.seconds.toFixed(1), 'client CPU µs/line': Math.round(edited.cpuUsPerLine) },
    ]);
  } finally {
    server.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

async function writeInput(path, count, change) {
  const out = createWriteStream(path);
  for (let i = 1; i <= count; i++) {
    const line = `{"courier":"A-BIKE","country":"NL","postal_code":"1234AB","number":"${i}${change(i) ?? ''}"}\n`;
    if (!out.write(line)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(resolve));
}

function run(input, childEnv, extra) {
  return new Promise((resolve, reject) => {
    const usageFile = join(tmpdir(), `bulk-rerun-usage-${process.pid}-${Math.random().toString(16).slice(2)}.json`);
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', USAGE_HOOK, BIN, 'create', '--from', input, '--concurrency', values.concurrency, ...extra], {
      env: { ...childEnv, BULK_BENCH_USAGE_FILE: usageFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let results = 0;
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) results++;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`parcels create --from exited ${code}: ${stderr}`));
      const usage = JSON.parse(readFileSync(usageFile, 'utf8'));
      rmSync(usageFile, { force: true });
      resolve({ seconds: (performance.now() - started) / 1000, summary: stderr.trim(), peakMb: usage.maxRssKb / 1024, cpuUsPerLine: (usage.userUs + usage.systemUs) / results });
    });
  });
}
