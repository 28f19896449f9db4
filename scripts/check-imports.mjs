#!/usr/bin/env node
// The import graph of src/ (static, type-only and dynamic imports alike), read with the TypeScript
// compiler: fails on an import cycle or on an arrow from a lower layer into a higher one (the rules
// in docs/contributing.md's "Layout"). `node scripts/check-imports.mjs`; `--edges` prints the graph.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
// Another tree to check (the checker's own tests plant a problem in a copy of src/).
const SRC = process.env.CHECK_IMPORTS_SRC ?? join(ROOT, 'src');

/** Folders (or files) under src/ and what nothing in them may import: the layers above them. */
const ABOVE = ['cli.ts', 'commands/', 'command-kit/'];
/** The flag names typed from the definitions (FlagName and its kin). */
const FLAG_NAMES = 'schemas/flag-name.ts';
const RULES = [
  // The inspector's page runs in a browser: it reaches only its own files and the shared schemas
  // (never the sandbox's server code, which is Node's).
  { from: 'sandbox/inspector-page/', allowed: (to) => to.startsWith('sandbox/inspector-page/') || to.startsWith('schemas/'), why: 'the browser page reaches only its own files and src/schemas/' },
  // The sandbox is a library of its own: it reaches only the shared schemas.
  { from: 'sandbox/', allowed: (to) => (to.startsWith('sandbox/') && !to.startsWith('sandbox/inspector-page/')) || to.startsWith('schemas/'), why: 'the sandbox reaches only its own server files and src/schemas/ (never the browser page)' },
  // parcels/testing drives a sandbox over its admin route: it reaches the sandbox only through its public entry.
  { from: 'testing/', allowed: (to) => to.startsWith('testing/') || to.startsWith('schemas/') || to === 'sandbox/index.ts', why: 'parcels/testing reaches the sandbox only through its public entry (src/sandbox/index.ts) and src/schemas/' },
  // The ground floor: the domain's facts, read by every layer, reaching nothing above.
  { from: 'schemas/', allowed: (to) => to.startsWith('schemas/') },
  // Types only, read by every layer: it imports nothing (src/definitions/table.ts fills it in).
  { from: FLAG_NAMES, allowed: () => false },
  // A hint is a command line: built from words and shell quoting, above the facts only.
  { from: 'hint/', allowed: (to) => to.startsWith('hint/') || to.startsWith('schemas/') },
  // Every layer throws these: they render hints and nothing else.
  { from: 'errors.ts', allowed: (to) => to.startsWith('hint/') || to.startsWith('schemas/') },
  // The definitions are plain data, bundled into the fast path and completion: only light helpers below them.
  { from: 'definitions/', allowed: (to) => ['definitions/', 'schemas/', 'hint/', 'io/'].some((below) => to.startsWith(below)) },
  ...['io/', 'api/', 'config/', 'bulk/', 'track/', 'clock-skew/', 'completions/', 'args/', 'doctor/', 'context/', 'context.ts'].map((from) => ({
    from,
    allowed: (to) => !ABOVE.some((above) => to.startsWith(above)),
  })),
];

function sources(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => file.split('\\').join('/'));
}

const graph = new Map();
for (const file of sources(SRC)) {
  const info = ts.preProcessFile(readFileSync(join(SRC, file), 'utf8'), true, true);
  const targets = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = relative(SRC, resolve(SRC, dirname(file), fileName.replace(/\.js$/, '.ts'))).split('\\').join('/');
    if (existsSync(join(SRC, target))) targets.push(target);
  }
  graph.set(file, [...new Set(targets)]);
}

if (process.argv.includes('--edges')) {
  for (const [file, targets] of graph) for (const target of targets) console.log(`${file} -> ${target}`);
  process.exit(0);
}

const problems = [];
for (const [file, targets] of graph) {
  const rule = RULES.find((r) => file === r.from || file.startsWith(r.from));
  if (rule === undefined) continue;
  for (const target of targets) if (!rule.allowed(target)) problems.push(`src/${file} imports src/${target}: ${rule.why ?? 'a lower layer reaching a higher one'}`);
}

/** Tarjan's strongly connected components: each one of more than one node (or a node importing itself) is a cycle. */
function cycles(edges) {
  let index = 0;
  const stack = [];
  const state = new Map();
  const found = [];
  function connect(node) {
    const me = { index, low: index, onStack: true };
    state.set(node, me);
    index += 1;
    stack.push(node);
    for (const target of edges.get(node) ?? []) {
      const seen = state.get(target);
      if (seen === undefined) {
        connect(target);
        me.low = Math.min(me.low, state.get(target).low);
      } else if (seen.onStack) me.low = Math.min(me.low, seen.index);
    }
    if (me.low !== me.index) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      state.get(member).onStack = false;
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (edges.get(node) ?? []).includes(node)) found.push(component.sort());
  }
  for (const node of edges.keys()) if (!state.has(node)) connect(node);
  return found;
}

for (const component of cycles(graph)) problems.push(`import cycle: ${component.map((f) => `src/${f}`).join(', ')}`);

// Read by folder, at every level: inside each folder, its subfolders and files are the nodes, and the
// arrows between them (from any file below one to any file below another) must not close a circle
// either. A folder that imports another which imports it back has no place above or below it.
const parentOf = (path) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '');
/** The child of `folder` ('' for src/ itself) that holds `file`, or undefined when the file is not below it. */
function childOf(folder, file) {
  if (!file.startsWith(folder)) return undefined;
  const rest = file.slice(folder.length);
  return rest.includes('/') ? `${folder}${rest.split('/')[0]}/` : file;
}
const allFolders = new Set(['']);
for (const file of graph.keys()) for (let folder = parentOf(file); folder !== ''; folder = parentOf(folder.slice(0, -1))) allFolders.add(folder);
for (const folder of [...allFolders].sort()) {
  const children = new Map();
  const arrowsOf = [];
  for (const [file, targets] of graph) {
    const from = childOf(folder, file);
    if (from === undefined) continue;
    if (!children.has(from)) children.set(from, new Set());
    for (const target of targets) {
      const to = childOf(folder, target);
      if (to === undefined || to === from) continue;
      children.get(from).add(to);
      arrowsOf.push([from, to, `src/${file} -> src/${target}`]);
    }
  }
  const edges = new Map([...children].map(([node, to]) => [node, [...to]]));
  for (const component of cycles(edges)) {
    const arrows = arrowsOf.filter(([from, to]) => component.includes(from) && component.includes(to)).map(([, , arrow]) => arrow);
    problems.push(`folders import each other in a circle: ${component.map((f) => `src/${f}`).join(', ')} (${arrows.join('; ')})`);
  }
}

// One place builds an HTTP client: the context (with its overrides for bulk, doctor, login and the
// sandbox admin). A client built anywhere else would miss the pieces every request goes through
// (the sanitised trace, the skew, the dry run, the signal).
const CLIENT_BUILDERS = new Set(['context.ts']);
for (const file of graph.keys()) {
  if (CLIENT_BUILDERS.has(file)) continue;
  const text = readFileSync(join(SRC, file), 'utf8');
  if (/\bnew ApiClient\s*\(/.test(text)) problems.push(`src/${file} builds an ApiClient: build clients through the context (ctx.client() or ctx.api())`);
}

for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log(`${graph.size} files under src/: no import cycle (by file or by folder, at every level), no import from a lower layer into a higher one, clients built in one place`);
