#!/usr/bin/env node
// What `parcels track ID` costs next to `parcels get ID`: track reads the parcel, its events and
// its attempts in parallel, so against a slow service it should take one round trip, not three.
//
//   node bench/track.mjs [runs=9] [latencyMs=200]
//
// Starts `parcels sandbox serve --latency <ms>` (every response delayed), creates a parcel with a
// few events and attempts, then spawns each command `runs` times (interleaved) and prints the
// median wall time. NODE_EXTRA_CA_CERTS is removed from every child's environment. Run
// `npm run build` first. Latest figures: BENCHMARKS.md ("track").

import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin/parcels.js');
const runs = Number(process.argv[2] ?? 9);
const latency = Number(process.argv[3] ?? 200);
const DEMO_KEY = 'sbx_demo_9f2c4e7a1b3d5f60';

const env = { ...process.env, PARCELS_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'parcels-bench-')), NO_COLOR: '1' };
delete env.NODE_EXTRA_CA_CERTS;

const server = spawn(process.execPath, [bin, 'sandbox', 'serve', '--port', '0', '--db', ':memory:', '--latency', String(latency)], {
  env,
  stdio: ['ignore', 'pipe', 'ignore'],
});
const url = await new Promise((resolve) => {
  let out = '';
  server.stdout.setEncoding('utf8').on('data', (chunk) => {
    out += chunk;
    if (out.includes('\n')) resolve(out.split('\n')[0].trim());
  });
});
env.PARCELS_BASE_URL = url;
env.PARCELS_API_KEY = DEMO_KEY;

function parcels(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
    child.on('close', (code) => (code === 0 ? resolve({ ms: performance.now() - started, stdout }) : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

const id = (await parcels(['create', '--courier', 'DEMO-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '10', '--quiet'])).stdout.trim();
const t = Math.floor(Date.now() / 1000) - 3600;
await parcels(['events', 'add', id, '--status', 'picked_up', '--at', String(t)]);
await parcels(['events', 'add', id, '--status', 'in_transit', '--at', String(t + 600)]);
await parcels(['attempts', 'add', id, '--outcome', 'failed', '--reason', 'not_at_home', '--at', String(t + 1200)]);
// Names are cached for a day after the first table; the JSON runs below never look them up.
await parcels(['track', id]);

const variants = {
  'get ID --json (1 request)': ['get', id, '--json'],
  'track ID --json (3 requests in parallel)': ['track', id, '--json'],
  'track ID (table, names cached)': ['track', id],
};
const times = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
for (let i = 0; i < runs; i++) {
  for (const [name, args] of Object.entries(variants)) times[name].push((await parcels(args)).ms);
}
server.kill('SIGTERM');

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
console.log(`sandbox latency ${latency} ms per response, ${runs} runs each, median wall time:`);
for (const [name, list] of Object.entries(times)) console.log(`  ${name.padEnd(42)} ${median(list).toFixed(0)} ms`);
