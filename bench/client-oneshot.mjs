#!/usr/bin/env node
// Start-up cost of a process that makes ONE request, as the CLI does.
//
//   node bench/client-oneshot.mjs [runs=20]
//
// Spawns each variant `runs` times against a local node:http server and prints the median wall
// time and its ratio to the minimal node:http script. NODE_EXTRA_CA_CERTS is removed from the
// children's environment (it adds ~40 ms to every Node start on this machine).
//
// The ApiClient variants run src/api/http.ts bundled with esbuild the way tsup bundles the CLI
// (undici inlined, split chunks), so they measure what ships.
//
// Latest figures: BENCHMARKS.md ("The HTTP client alone").
// Earlier exploratory runs (11-21 runs each, same server) located the cost:
//   - waiting at exit for V8's background TurboFan tier-up of llhttp's WebAssembly: 170-200 ms
//     (timed from the end of the request to the 'exit' event: ~190 ms by default, ~1 ms with
//     --liftoff-only);
//   - undici's index (fetch, WebSocket, mocks, cache, proxy agents) costs ~90 ms more to load than
//     lib/dispatcher/pool.js + lib/api/api-request.js;
//   - --no-wasm-tier-up (~250 ms) and --wasm-lazy-compilation (~245 ms) did not help on Node 20's
//     V8; --liftoff-only did, both as a CLI flag and via v8.setFlagsFromString at run time.
// Decision: keep undici, load only its Pool + request() internals, and switch V8 to
// --liftoff-only before undici first compiles its WebAssembly parser (PARCELS_WASM_TIER_UP=1
// restores V8's default for comparison).

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const runs = Number(process.argv[2] ?? 20);

const work = mkdtempSync(join(tmpdir(), 'parcels-bench-'));
const undiciIndex = require.resolve('undici');

// Bundle the client like tsup does.
const esbuild = await import(require.resolve('esbuild'));
await esbuild.build({
  entryPoints: { http: join(root, 'src/api/http.ts') },
  outdir: join(work, 'dist'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'error',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});

const scripts = {
  'node-http.mjs': `import http from 'node:http';
http.get(process.argv[2], { headers: { accept: 'application/json' } }, (res) => {
  let body = ''; res.setEncoding('utf8'); res.on('data', (c) => (body += c)); res.on('end', () => JSON.parse(body));
});`,
  'undici.mjs': `import { request } from ${JSON.stringify(undiciIndex)};
const res = await request(process.argv[2], { headers: { accept: 'application/json' } }); await res.body.json();`,
  'apiclient.mjs': `import { ApiClient } from './dist/http.js';
const client = new ApiClient({ baseUrl: process.argv[2], apiKey: 'k', timeoutMs: 5000, retries: 0, userAgent: 'bench' });
await client.request({ method: 'GET', path: '/account/v1/overview' });`,
  'apiclient-close.mjs': `import { ApiClient } from './dist/http.js';
const client = new ApiClient({ baseUrl: process.argv[2], apiKey: 'k', timeoutMs: 5000, retries: 0, userAgent: 'bench' });
await client.request({ method: 'GET', path: '/account/v1/overview' }); await client.close();`,
  'import-only.mjs': `await import('./dist/http.js');`,
};
for (const [name, text] of Object.entries(scripts)) writeFileSync(join(work, name), text);

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"data":{"ok":true}}');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}`;

const baseEnv = { ...process.env };
delete baseEnv.NODE_EXTRA_CA_CERTS;

const variants = [
  ['node -e 0', ['-e', '0'], {}],
  ['node:http GET', ['node-http.mjs', url], {}],
  ['undici request() (index)', ['undici.mjs', url], {}],
  ['undici request() (index) --liftoff-only', ['--liftoff-only', 'undici.mjs', url], {}],
  ['import src/api/http.ts only', ['import-only.mjs'], {}],
  ['ApiClient GET', ['apiclient.mjs', url], {}],
  ['ApiClient GET + close()', ['apiclient-close.mjs', url], {}],
  ['ApiClient GET, V8 default tiering', ['apiclient.mjs', url], { PARCELS_WASM_TIER_UP: '1' }],
];

// The server lives in this process, so children must not block it: spawn asynchronously.
function time(args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: work, env: { ...baseEnv, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${args.join(' ')} exited ${code}: ${err}`))));
  });
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

// Round-robin over the variants so a burst of load on the machine hits all of them alike.
const samples = variants.map(() => []);
for (const [, args, env] of variants) await time(args, env); // warm the file cache
for (let i = 0; i < runs; i++) {
  for (const [v, [, args, env]] of variants.entries()) samples[v].push(await time(args, env));
}
const results = variants.map(([label], v) => [label, median(samples[v])]);
server.close();
rmSync(work, { recursive: true, force: true });

const reference = results.find(([label]) => label === 'node:http GET')[1];
console.log(`median of ${runs} runs (NODE_EXTRA_CA_CERTS unset), ratio to node:http GET`);
for (const [label, ms] of results) console.log(`${label.padEnd(42)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / reference).toFixed(2)}×`);
