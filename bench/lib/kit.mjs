// What the bulk benchmarks share: the environment every timed process gets, a `sandbox serve` or a
// bare server to send to, create inputs, the round trip a line waits, one `parcels create --from`
// timed (wall, and with bench/usage-hook.mjs its CPU and peak RSS), and the median.
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin/parcels.js');
const USAGE_HOOK = join(ROOT, 'bench/usage-hook.mjs');

/** The environment of every timed process: NODE_EXTRA_CA_CERTS unset (it adds ~40 ms to each Node start here), no colour. */
export function benchEnv() {
  const env = { ...process.env, NO_COLOR: '1' };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** The middle value (the lower one of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/**
 * `sandbox serve` of `bin` on a free port, in memory; resolves once it prints its URL. `seed`: a
 * seed object written to `dir` (e.g. DEFAULT_SEED with another rate limit); `args`: more flags.
 * `command`: how to start it, e.g. pinned with taskset (default: this Node).
 */
export async function serveSandbox({ bin = BIN, dir, name, env, seed, args = [], command = (argv) => [process.execPath, argv] }) {
  const seedArgs = [];
  if (seed !== undefined) {
    const file = join(dir, `${name}-seed.json`);
    writeFileSync(file, JSON.stringify(seed));
    seedArgs.push('--seed', file);
  }
  const [cmd, argv] = command([bin, 'sandbox', 'serve', '--port', '0', '--db', ':memory:', ...seedArgs, ...args]);
  const child = spawn(cmd, argv, { env: { ...env, PARCELS_CONFIG_DIR: join(dir, `${name}-server`) }, stdio: ['ignore', 'pipe', 'pipe'] });
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
  return { url, ready: performance.now(), stop: () => child.kill('SIGTERM') };
}

/** A server that answers every request 201 with a fresh entry_id and stores nothing: what the client costs alone. */
export async function bareServer() {
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

/** A create line: DEMO-BIKE to 1234AB NL, its number `${prefix}-${i}`. */
export const createLine = (prefix, i) => JSON.stringify({ courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: `${prefix}-${i}` });

/**
 * An NDJSON create input of `lines` lines, numbered `${prefix}-1` on, written through a stream (a
 * million lines fit); `edited`: the number of a line written with another house number (`…b`).
 */
export async function writeCreates(path, lines, prefix, edited = 0) {
  const out = createWriteStream(path);
  for (let i = 1; i <= lines; i++) {
    const line = i === edited ? createLine(prefix, `${i}b`) : createLine(prefix, i);
    if (!out.write(`${line}\n`)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(resolve));
  return path;
}

/** A function that POSTs one create (a key of its own each time) and resolves once its answer is read. */
export function createPoster(url, apiKey, tag) {
  let n = 0;
  return () => {
    n += 1;
    return fetch(`${url}/deliveries/v1/parcels`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': `bench-${tag}-${process.pid}-${n}-key` },
      body: createLine(`rtt-${tag}`, n),
    }).then((r) => r.arrayBuffer());
  };
}

/** The median of 20 sequential creates on one kept-alive connection (after one to warm it): the round trip a line really waits. */
export async function measuredRtt(url, apiKey, tag) {
  const post = createPoster(url, apiKey, `${tag}-rtt`);
  await post();
  const times = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await post();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[10];
}

let usageFiles = 0;
/**
 * One `parcels create --from input` (more flags in `args`), timed from spawn to exit: `code`,
 * `wallMs`, the result lines on stdout, stderr, the rate its summary reports; with `usage`, its
 * CPU (`cpuUs`) and peak RSS (`peakMb`) from bench/usage-hook.mjs. An exit code not in `codes`
 * (`'any'`: none) rejects.
 */
export function runCreate({ bin = BIN, input, env, args = [], usage = false, codes = [0] }) {
  const usageFile = join(tmpdir(), `bench-usage-${process.pid}-${++usageFiles}.json`);
  // BENCH_NODE_FLAGS: Node flags for the CLI process only (e.g. `--cpu-prof --cpu-prof-dir=DIR`, which NODE_OPTIONS refuses).
  const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== '');
  const argv = [...nodeFlags, ...(usage ? ['--import', USAGE_HOOK] : []), bin, 'create', '--from', input, ...args];
  const started = performance.now();
  const child = spawn(process.execPath, argv, { env: usage ? { ...env, BULK_BENCH_USAGE_FILE: usageFile } : env, stdio: ['ignore', 'pipe', 'pipe'] });
  let results = 0;
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) results++;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) =>
    child.once('close', (code) => {
      if (codes !== 'any' && !codes.includes(code)) return reject(new Error(`parcels create --from exited ${code}: ${stderr}`));
      const run = { code, wallMs: performance.now() - started, results, stderr: stderr.trim(), rate: Number(/(\d+) lines\/s/.exec(stderr)?.[1]) };
      if (!usage) return resolve(run);
      const used = JSON.parse(readFileSync(usageFile, 'utf8'));
      rmSync(usageFile, { force: true });
      resolve({ ...run, cpuUs: used.userUs + used.systemUs, peakMb: used.maxRssKb / 1024 });
    }),
  );
}
