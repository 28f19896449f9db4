// Start-up cost of the CLI against baselines measured in the same run (issue 21's bounds):
//   parcels --version / --help          within 1.3x of `node -e 0`
//   parcels get ID --json               within 2.6x of a minimal node:http script making the same request
// Every command runs once per round, round after round, so a drift of the machine's speed moves
// baseline and CLI alike; each ratio is the median of the per-round ratios.
// NODE_EXTRA_CA_CERTS is unset for every process measured (it adds ~40 ms to each Node start here).
// Run: npm run build && node bench/startup.mjs [runs] [--vs-bin OTHER/bin/parcels.js] [--instructions]
// With --vs-bin, `get` and `create` of this build and of another (e.g. an older commit built in a
// git worktree) also run in alternating pairs against the same sandbox, and the per-pair ratio is
// printed: the figure that says whether a change made one-shot commands slower.
// With --instructions, each command also runs once under valgrind's callgrind, which counts the
// instructions executed: a figure that does not move with the machine's load (needs valgrind).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startSandbox } from '../dist/sandbox/index.js';

const args = process.argv.slice(2);
const vsAt = args.indexOf('--vs-bin');
const vsBin = vsAt === -1 ? undefined : args.splice(vsAt, 2)[1];
const instructionsAt = args.indexOf('--instructions');
const countInstructions = instructionsAt !== -1 && args.splice(instructionsAt, 1).length === 1;
const runs = Number(args[0] ?? 25);
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'parcels.js');
const work = mkdtempSync(join(tmpdir(), 'parcels-bench-'));
const KEY = 'bench_key_0123456789abcdef';

const sandbox = await startSandbox({
  db: ':memory:',
  port: 0,
  seed: {
    organisations: [{ id: 'bench', name: 'Bench', couriers: [{ code: 'B-1', name: 'Bench' }], keys: [{ key: KEY, scopes: ['deliveries:read', 'deliveries:write', 'usage:read', 'oracle:read'] }] }],
    rate_limit: { requests: 1_000_000, window_s: 60 },
  },
});
const created = await fetch(`${sandbox.url}/deliveries/v1/parcels`, {
  method: 'POST',
  headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': 'bench-setup-0001' },
  body: JSON.stringify({ courier: 'B-1', country: 'NL', postal_code: '1234AB', number: '1' }),
});
const id = (await created.json()).data.entry_id;

const env = { ...process.env, PARCELS_CONFIG_DIR: work, PARCELS_BASE_URL: sandbox.url, PARCELS_API_KEY: KEY, NO_COLOR: '1' };
delete env.NODE_EXTRA_CA_CERTS;

const minimalGet = join(work, 'minimal-get.mjs');
writeFileSync(
  minimalGet,
  `import http from 'node:http';
const req = http.request(process.argv[2], { headers: { authorization: 'Bearer ' + process.env.PARCELS_API_KEY, accept: 'application/json' } }, (res) => {
  let body = ''; res.setEncoding('utf8'); res.on('data', (c) => (body += c)); res.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body).data) + '\\n'));
});
req.end();
`,
);
const minimalPost = join(work, 'minimal-post.mjs');
writeFileSync(
  minimalPost,
  `import http from 'node:http';
import { randomUUID } from 'node:crypto';
const body = JSON.stringify({ courier: 'B-1', country: 'NL', postal_code: '1234AB', number: '1' });
const req = http.request(process.argv[2], { method: 'POST', headers: { authorization: 'Bearer ' + process.env.PARCELS_API_KEY, 'content-type': 'application/json', 'idempotency-key': randomUUID() } }, (res) => {
  let text = ''; res.setEncoding('utf8'); res.on('data', (c) => (text += c)); res.on('end', () => process.stdout.write(JSON.stringify(JSON.parse(text).data) + '\\n'));
});
req.end(body);
`,
);
// The request core's transport alone: undici's Pool and request() (the internal files the CLI
// loads), V8's --liftoff-only as the core sets it, one GET, the body printed. The floor under any
// undici-based one-shot command.
const undiciGet = join(work, 'undici-get.mjs');
const undiciDir = pathToFileURL(join(root, 'node_modules', 'undici', 'lib')).href;
writeFileSync(
  undiciGet,
  `import { setFlagsFromString } from 'node:v8';
setFlagsFromString('--liftoff-only');
const [{ default: Pool }, { default: request }] = await Promise.all([import('${undiciDir}/dispatcher/pool.js'), import('${undiciDir}/api/api-request.js')]);
const url = new URL(process.argv[2]);
const pool = new Pool(url.origin);
const res = await request.call(pool, { path: url.pathname, method: 'GET', headers: { authorization: 'Bearer ' + process.env.PARCELS_API_KEY } });
process.stdout.write(JSON.stringify((await res.body.json()).data) + '\\n');
await pool.close();
`,
);
const fetchGet = join(work, 'fetch-get.mjs');
writeFileSync(
  fetchGet,
  `const res = await fetch(process.argv[2], { headers: { authorization: 'Bearer ' + process.env.PARCELS_API_KEY } });
process.stdout.write(JSON.stringify((await res.json()).data) + '\\n');
`,
);

// The sandbox answers from this process, so children are awaited, never run synchronously.
function once(args, childEnv = env) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve(ms);
    });
  });
}

const parcelUrl = `${sandbox.url}/deliveries/v1/parcels/${id}`;
const createArgs = ['create', '--courier', 'B-1', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--json'];
/** label, node arguments, and the label of the baseline its ratio is taken against. */
const commands = [
  ['node -e 0', ['-e', '0'], null],
  ['parcels --version', [bin, '--version'], 'node -e 0'],
  ['parcels --help', [bin, '--help'], 'node -e 0'],
  ['minimal node:http GET', [minimalGet, parcelUrl], null],
  ['undici Pool GET, no CLI', [undiciGet, parcelUrl], 'minimal node:http GET'],
  ['global fetch GET', [fetchGet, parcelUrl], 'minimal node:http GET'],
  ['parcels get ID --json', [bin, 'get', id, '--json'], 'minimal node:http GET'],
  ['minimal node:http POST', [minimalPost, `${sandbox.url}/deliveries/v1/parcels`], null],
  ['parcels create … --json', [bin, ...createArgs], 'minimal node:http POST'],
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const times = new Map(commands.map(([label]) => [label, []]));
for (const [, args] of commands) await once(args); // warm the file cache
for (let round = 0; round < runs; round++) for (const [label, args] of commands) times.get(label).push(await once(args));
const rows = commands.map(([label, , base]) => {
  const mine = times.get(label);
  const ratio = base === null ? 'baseline' : `${median(mine.map((ms, i) => ms / times.get(base)[i])).toFixed(2)}× ${base}`;
  return `| ${label} | ${median(mine).toFixed(1)} | ${[...mine].sort((a, b) => a - b)[Math.floor(mine.length * 0.9)].toFixed(1)} | ${ratio} |`;
});

/** Instructions executed by one run under callgrind (deterministic to a fraction of a percent). */
function instructions(args) {
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', () => {
      const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr);
      if (refs === null) reject(new Error(`callgrind printed no count for ${args.join(' ')}: ${stderr.slice(-500)}`));
      else resolve(Number(refs[1].replaceAll(',', '')));
    });
  });
}
const counted = new Map();
if (countInstructions) for (const [label, args] of commands) counted.set(label, await instructions(args));

// How many ES modules (files) a one-shot command loads: each costs ~0.3 ms here, and esbuild's
// code splitting can quietly multiply them (BENCHMARKS.md). Counted by a module.register() load hook.
const hooks = join(work, 'count-hooks.mjs');
writeFileSync(hooks, "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { if (url.startsWith('file:')) appendFileSync(process.env.PARCELS_BENCH_MODULES, url + '\\n'); return next(url, context); }\n");
const register = join(work, 'count-register.mjs');
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
async function modulesLoaded(args) {
  const list = join(work, `modules-${args[1]}.txt`);
  await once(['--import', register, ...args], { ...env, PARCELS_BENCH_MODULES: list });
  return readFileSync(list, 'utf8').split('\n').filter((line) => line !== '').length;
}
const moduleCounts = { get: await modulesLoaded([bin, 'get', id, '--json']), create: await modulesLoaded([bin, ...createArgs]) };

/** This build and the other, A B A B …, each with a config folder of its own: medians and the median per-pair ratio. */
async function paired(label, argsFor) {
  const otherEnv = { ...env, PARCELS_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'parcels-bench-vs-')) };
  await once(argsFor(bin));
  await once(argsFor(vsBin), otherEnv);
  const mine = [];
  const theirs = [];
  for (let i = 0; i < runs; i++) {
    mine.push(await once(argsFor(bin)));
    theirs.push(await once(argsFor(vsBin), otherEnv));
  }
  return `| ${label} | ${median(mine).toFixed(1)} | ${median(theirs).toFixed(1)} | ${median(mine.map((m, i) => m / theirs[i])).toFixed(2)} |`;
}
const pairs = vsBin === undefined ? [] : [await paired('parcels get ID --json', (b) => [b, 'get', id, '--json']), await paired('parcels create … --json', (b) => [b, ...createArgs])];
await sandbox.close();

console.log(`Node ${process.version}, ${runs} rounds (every command once per round), NODE_EXTRA_CA_CERTS unset\n`);
console.log('| command | median ms | p90 ms | ratio to baseline (median of the per-round ratios) |');
console.log('|---|---:|---:|---|');
for (const row of rows) console.log(row);
if (countInstructions) {
  console.log('\nInstructions executed, one run each under callgrind\n');
  console.log('| command | instructions (millions) | ratio to baseline |');
  console.log('|---|---:|---|');
  for (const [label, , base] of commands) {
    const ratio = base === null ? 'baseline' : `${(counted.get(label) / counted.get(base)).toFixed(2)}× ${base}`;
    console.log(`| ${label} | ${(counted.get(label) / 1e6).toFixed(1)} | ${ratio} |`);
  }
}
console.log(`\nES module files loaded: get ${moduleCounts.get}, create ${moduleCounts.create} (bin/parcels.js and the dist files it imports)`);
if (vsBin !== undefined) {
  console.log(`\nThis build against ${vsBin}, ${runs} alternating pairs each\n`);
  console.log('| command | this build, median ms | other build, median ms | per-pair ratio (median) |');
  console.log('|---|---:|---:|---:|');
  for (const line of pairs) console.log(line);
}
