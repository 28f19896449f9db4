// What undici's private files and a rewrite of its source would save a one-shot `get --json`
// (issue 21: such a trick stays only if it moves the figure by 10% or more).
//
//   node bench/undici-entry.mjs [runs=15]
//
// Builds the CLI four ways with esbuild, as tsup bundles it (undici inlined, split chunks):
//   internals    undici's Pool and request() from lib/dispatcher/pool.js + lib/api/api-request.js
//                only (skipping fetch, WebSocket, mocks, caches, proxies): what ships;
//   public       undici's public entry (the transport's fallback);
//   internals+h2 with undici's client.js rewritten to require its HTTP/2 half lazily (what shipped
//                before issue 21, which removed every build step that edits a dependency's source);
//   public+h2    both.
// Each runs `get ID --json` against `parcels sandbox`'s library (in this process, :memory:), in
// round-robin with a minimal node:http script, NODE_EXTRA_CA_CERTS unset. Prints medians and the
// ratio of each to node:http and to the public entry.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../dist/sandbox/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const runs = Number(process.argv[2] ?? 15);
const work = mkdtempSync(join(tmpdir(), 'parcels-undici-'));
const esbuild = await import(require.resolve('esbuild'));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// The public entry instead of the two internal modules the transport imports.
const poolShim = join(work, 'pool-from-index.mjs');
writeFileSync(poolShim, "import undici from 'undici';\nexport default undici.Pool;\n");
const requestShim = join(work, 'request-from-index.mjs');
writeFileSync(requestShim, "import undici from 'undici';\nexport default undici.Dispatcher.prototype.request;\n");
const publicEntry = {
  name: 'undici-public-entry',
  setup(build) {
    build.onResolve({ filter: /^undici\/lib\/dispatcher\/pool\.js$/ }, () => ({ path: poolShim }));
    build.onResolve({ filter: /^undici\/lib\/api\/api-request\.js$/ }, () => ({ path: requestShim }));
    build.onResolve({ filter: /^undici$/, namespace: 'file' }, (args) => (args.importer === poolShim || args.importer === requestShim ? { path: require.resolve('undici') } : undefined));
  },
};
const H2 = "const connectH2 = require('./client-h2.js')";
const lazyH2 = {
  name: 'undici-lazy-h2',
  setup(build) {
    build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(H2)) throw new Error(`"${H2}" not found in ${args.path}`);
      return { contents: source.replace(H2, "const connectH2 = (...a) => require('./client-h2.js')(...a)"), loader: 'js' };
    });
  },
};

const variants = { internals: [], public: [publicEntry], 'internals+h2': [lazyH2], 'public+h2': [publicEntry, lazyH2] };
for (const [name, plugins] of Object.entries(variants)) {
  await esbuild.build({
    entryPoints: { cli: join(root, 'src/cli.ts') },
    outdir: join(work, name, 'dist'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    external: ['better-sqlite3', 'jq-wasm'],
    define: { __PARCELS_VERSION__: JSON.stringify(version) },
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    plugins,
  });
  writeFileSync(
    join(work, name, 'parcels.mjs'),
    "import module from 'node:module';\nmodule.enableCompileCache?.();\nconst { run } = await import('./dist/cli.js');\nprocess.exitCode = await run(process.argv.slice(2));\n",
  );
}

const KEY = 'bench_key_0123456789abcdef';
const sandbox = await startSandbox({
  db: ':memory:',
  port: 0,
  seed: {
    organisations: [{ id: 'bench', name: 'Bench', couriers: [{ code: 'B-1', name: 'Bench' }], keys: [{ key: KEY, scopes: ['deliveries:read', 'deliveries:write'] }] }],
    rate_limit: { requests: 1_000_000, window_s: 60 },
  },
});
const created = await fetch(`${sandbox.url}/deliveries/v1/parcels`, {
  method: 'POST',
  headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': 'bench-setup-0001' },
  body: JSON.stringify({ courier: 'B-1', country: 'NL', postal_code: '1234AB', number: '1' }),
});
const id = (await created.json()).data.entry_id;
const minimal = join(work, 'minimal-get.mjs');
writeFileSync(
  minimal,
  `import http from 'node:http';
http.get(process.argv[2], { headers: { authorization: 'Bearer ' + process.env.PARCELS_API_KEY, accept: 'application/json' } }, (res) => {
  let body = ''; res.setEncoding('utf8'); res.on('data', (c) => (body += c)); res.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body).data) + '\\n'));
});
`,
);

const env = { ...process.env, PARCELS_CONFIG_DIR: join(work, 'config'), PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: KEY, NO_COLOR: '1' };
delete env.NODE_EXTRA_CA_CERTS;
function once(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`))));
  });
}

const rows = [['node:http GET', [minimal, `${sandbox.url}/deliveries/v1/parcels/${id}`]], ...Object.keys(variants).map((name) => [`get --json (${name})`, [join(work, name, 'parcels.mjs'), 'get', id, '--json']])];
const samples = rows.map(() => []);
for (const [, args] of rows) await once(args);
for (let i = 0; i < runs; i++) for (const [r, [, args]] of rows.entries()) samples[r].push(await once(args));
await sandbox.close();
rmSync(work, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const medians = samples.map(median);
const http = medians[0];
const publicMs = medians[rows.findIndex(([label]) => label === 'get --json (public)')];
console.log(`median of ${runs} runs, round-robin (NODE_EXTRA_CA_CERTS unset)`);
console.log('| variant | median ms | vs node:http | vs public entry |\n|---|---:|---:|---:|');
for (const [r, [label]] of rows.entries()) console.log(`| ${label} | ${medians[r].toFixed(1)} | ${(medians[r] / http).toFixed(2)}× | ${r === 0 ? '' : `${(medians[r] / publicMs).toFixed(2)}×`} |`);
