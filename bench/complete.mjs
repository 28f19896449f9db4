// Shell completion latency (issue 11 target): `parcels __complete …` within 1.3x of `node -e 0`,
// measured in the same run, rounds alternating between the variants, medians.
// The caches are real: written by the CLI against an in-process sandbox, then the ETag log is
// grown to its bound (20,000 lines) and the known-ids file to its (1,000 ids, each with a status
// and a postcode, as `list` writes them) so parcel-id completion reads full-size files.
// NODE_EXTRA_CA_CERTS is unset for every process measured (it adds ~40 ms to each Node start here).
// Run: npm run build && node bench/complete.mjs [rounds]
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../dist/sandbox/index.js';

const rounds = Number(process.argv[2] ?? 30);
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'parcels.js');
const work = mkdtempSync(join(tmpdir(), 'parcels-bench-complete-'));
const KEY = 'bench_key_0123456789abcdef';

const sandbox = await startSandbox({
  db: ':memory:',
  port: 0,
  seed: {
    organisations: [{ id: 'bench', name: 'Bench', couriers: [{ code: 'B-1', name: 'Bench bikes' }, { code: 'B-2', name: 'Bench vans' }], keys: [{ key: KEY, scopes: ['deliveries:read', 'deliveries:write', 'usage:read', 'oracle:read'] }] }],
    rate_limit: { requests: 1_000_000, window_s: 60 },
  },
});

const env = { ...process.env, PARCELS_CONFIG_DIR: work, PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: KEY, NO_COLOR: '1' };
delete env.NODE_EXTRA_CA_CERTS;

// CPU time (user + system) of each child as well as wall time: on a shared, loaded machine the
// wall time mostly measures the wait for a core, CPU time what the process itself costs. A preload
// (the same for every variant, baseline included) reports process.cpuUsage() at exit on stderr.
const probe = join(work, 'cpu-at-exit.cjs');
writeFileSync(probe, "process.on('exit', () => { const c = process.cpuUsage(); require('fs').writeSync(2, '\\ncpu-us ' + (c.user + c.system) + '\\n'); });\n");

// The sandbox answers from this process, so children are awaited, never run synchronously.
function once(args) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, ['-r', probe, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const cpu = /cpu-us (\d+)\s*$/.exec(err);
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${err}`));
      else resolve({ ms, cpuMs: cpu ? Number(cpu[1]) / 1000 : NaN, out });
    });
  });
}

// Real caches: couriers, reference names, ETags of a parcel; then the ETag log at full size.
await once([bin, 'couriers', '--json']);
await once([bin, 'reference']);
const id = (await once([bin, 'create', '--courier', 'B-1', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--quiet'])).out.trim();
await once([bin, 'get', id, '--json']);
const etagDir = join(work, 'etags');
const log = join(etagDir, readdirSync(etagDir)[0]);
appendFileSync(log, Array.from({ length: 20_000 }, () => `${JSON.stringify({ id: randomUUID(), etag: '"v1-abcdefghijkl"' })}\n`).join(''));
const knownDir = join(work, 'known-ids');
writeFileSync(join(knownDir, readdirSync(knownDir)[0]), JSON.stringify(Array.from({ length: 1000 }, () => [randomUUID(), 2, '1234AB'])));
await sandbox.close();

const variants = [
  ['node -e 0', ['-e', '0']],
  ['parcels --version (the existing fast path, for reference)', [bin, '--version']],
  ['parcels __complete "" (commands)', [bin, '__complete', '']],
  ['parcels __complete events add x --st (flags)', [bin, '__complete', 'events', 'add', 'x', '--st']],
  ['parcels __complete create --courier "" (couriers cache)', [bin, '__complete', 'create', '--courier', '']],
  ['parcels __complete get "" (ids, 20k-line ETag log, 1,000 described known ids)', [bin, '__complete', 'get', '']],
];
const times = new Map(variants.map(([label]) => [label, []]));
const cpu = new Map(variants.map(([label]) => [label, []]));
for (const [, args] of variants) await once(args); // warm the file cache
for (let r = 0; r < rounds; r++) {
  for (const [label, args] of variants) {
    const result = await once(args);
    times.get(label).push(result.ms);
    cpu.get(label).push(result.cpuMs);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
const base = median(times.get('node -e 0'));
const cpuBase = median(cpu.get('node -e 0'));
const { loadavg } = await import('node:os');
console.log(`Node ${process.version}, ${rounds} alternating rounds, NODE_EXTRA_CA_CERTS unset, load average ${loadavg()[0].toFixed(2)}\n`);
console.log('| command | wall median ms | wall p90 ms | wall ratio | CPU median ms | CPU ratio |');
console.log('|---|---:|---:|---|---:|---|');
for (const [label] of variants) {
  const xs = times.get(label);
  const cs = cpu.get(label);
  const isBase = label === 'node -e 0';
  const ratio = (value, of) => (isBase ? 'baseline' : `**${(value / of).toFixed(2)}×**`);
  console.log(`| ${label} | ${median(xs).toFixed(1)} | ${p90(xs).toFixed(1)} | ${ratio(median(xs), base)} | ${median(cs).toFixed(1)} | ${ratio(median(cs), cpuBase)} |`);
}
