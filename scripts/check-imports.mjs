#!/usr/bin/env node
// The import graph of src/ (static, type-only and dynamic imports alike), read with the TypeScript
// compiler: fails on an import cycle or on an arrow from a lower layer into a higher one (the rules
// in docs/contributing.md's "Layout"). `node scripts/check-imports.mjs`; `--edges` prints the graph.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const SRC = join(ROOT, 'src');

/** Folders (or files) under src/ and what nothing in them may import: the layers above them. */
const ABOVE = ['cli.ts', 'commands/', 'command-kit/'];
/** The flag names typed from the definitions (FlagName and its kin). */
const FLAG_NAMES = 'definitions/flag-name.ts';
const RULES = [
  // The sandbox is a library of its own: it reaches only the shared schemas.
  { from: 'sandbox/', allowed: (to) => to.startsWith('sandbox/') || to.startsWith('schemas/') },
  // The flag names' types (a time flag's errors name it) are the one thing above errors.ts schemas may see.
  { from: 'schemas/', allowed: (to) => to.startsWith('schemas/') || to === 'errors.ts' || to === FLAG_NAMES },
  // Types only, read by every layer: it imports nothing (src/definitions/table.ts fills it in).
  { from: FLAG_NAMES, allowed: () => false },
  // The definitions are plain data, bundled into the fast path and completion: only light helpers below them.
  { from: 'definitions/', allowed: (to) => ['definitions/', 'schemas/', 'io/'].some((below) => to.startsWith(below)) },
  ...['io/', 'api/', 'config/', 'bulk/', 'track/', 'clock-skew/', 'completions/', 'args/', 'doctor/', 'context/', 'context.ts'].map((from) => ({
    from,
    allowed: (to) => !ABOVE.some((above) => to.startsWith(above)),
  })),
];

function sources(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.startsWith('inspector-page'))
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
  for (const target of targets) if (!rule.allowed(target)) problems.push(`src/${file} imports src/${target}: a lower layer reaching a higher one`);
}

// Tarjan's strongly connected components: each one of more than one file (or a file importing itself) is a cycle.
let index = 0;
const stack = [];
const state = new Map();
function connect(file) {
  const me = { index, low: index, onStack: true };
  state.set(file, me);
  index += 1;
  stack.push(file);
  for (const target of graph.get(file) ?? []) {
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
  } while (member !== file);
  if (component.length > 1 || (graph.get(file) ?? []).includes(file)) problems.push(`import cycle: ${component.sort().map((f) => `src/${f}`).join(', ')}`);
}
for (const file of graph.keys()) if (!state.has(file)) connect(file);

for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log(`${graph.size} files under src/: no import cycle, no import from a lower layer into a higher one`);
