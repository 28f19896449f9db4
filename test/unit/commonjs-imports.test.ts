/**
 * A CommonJS package loaded with `await import()` is read through its default export only. Node
 * gives such a module named exports too (guessed from its source), but the bundle (tsup, code
 * splitting) makes the package a chunk of its own that exports `default` alone: a named export
 * read from it is `undefined` in the built CLI only (`SingleBar is not a constructor`, issue 19).
 * Packages the bundle leaves external are loaded by Node itself and are not held to this.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import tsupConfig from '../../tsup.config.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

interface DynamicImport {
  specifier: string;
  where: string;
  /** Only `default` is read from the module's namespace. */
  defaultOnly: boolean;
}

/** What the code reads from the namespace an import() resolves to: the names it binds or accesses. */
function readNames(call: ts.CallExpression): string[] | undefined {
  let node: ts.Node = call;
  // Through `await`, parentheses and a `Promise.all([...])` array, to where the namespace is used.
  let element: number | undefined;
  for (;;) {
    const parent = node.parent;
    if (ts.isAwaitExpression(parent) || ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent)) node = parent;
    else if (ts.isArrayLiteralExpression(parent) && ts.isCallExpression(parent.parent) && parent.parent.expression.getText() === 'Promise.all') {
      element = parent.elements.indexOf(node as ts.Expression);
      node = parent.parent;
    } else break;
  }
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node && element === undefined) return [parent.name.text];
  if (ts.isVariableDeclaration(parent) && parent.initializer === node) {
    let binding: ts.BindingName | undefined = parent.name;
    if (element !== undefined) binding = ts.isArrayBindingPattern(binding) ? (binding.elements[element] as ts.BindingElement | undefined)?.name : undefined;
    if (binding !== undefined && ts.isObjectBindingPattern(binding)) return binding.elements.map((b) => (b.propertyName ?? b.name).getText());
  }
  return undefined;
}

function dynamicImports(file: string): DynamicImport[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: DynamicImport[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const argument = node.arguments[0];
      if (argument !== undefined && ts.isStringLiteral(argument) && !argument.text.startsWith('.') && !argument.text.startsWith('node:')) {
        const names = readNames(node);
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push({ specifier: argument.text, where: `${relative(ROOT, file)}:${line}`, defaultOnly: names !== undefined && names.every((n) => n === 'default') });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The package name of a bare specifier: `undici/lib/x.js` → `undici`, `@scope/p/x` → `@scope/p`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** Whether Node loads each specifier (as imported from src/) as CommonJS. */
function commonJs(specifiers: string[]): Map<string, boolean> {
  const script = `for (const s of ${JSON.stringify(specifiers)}) console.log(import.meta.resolve(s));`;
  const resolved = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: join(ROOT, 'src'), encoding: 'utf8' });
  expect(resolved.stderr).toBe('');
  const paths = resolved.stdout.trim().split('\n').map((url) => fileURLToPath(url));
  return new Map(
    specifiers.map((specifier, at) => {
      const path = paths[at] as string;
      if (path.endsWith('.cjs') || path.endsWith('.mjs')) return [specifier, path.endsWith('.cjs')];
      let dir = dirname(path);
      while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
      return [specifier, (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { type?: string }).type !== 'module'];
    }),
  );
}

describe('dynamic imports of CommonJS packages', () => {
  const imports = sourceFiles(join(ROOT, 'src')).flatMap(dynamicImports);
  const external = new Set((tsupConfig as Options[]).flatMap((config) => (config.external ?? []).map(String)));
  const bundled = imports.filter((i) => !external.has(packageName(i.specifier)));
  const cjs = commonJs([...new Set(bundled.map((i) => i.specifier))]);

  it('finds the bundled CommonJS packages the CLI loads lazily', () => {
    expect([...new Set(bundled.filter((i) => cjs.get(i.specifier)).map((i) => packageName(i.specifier)))].sort()).toEqual(['undici']);
  });

  it('reads each through its default export: const { default: name } = await import(…)', () => {
    const named = bundled.filter((i) => cjs.get(i.specifier) && !i.defaultOnly).map((i) => `${i.where} ${i.specifier}`);
    expect(named).toEqual([]);
  });
});
