import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';

// scripts/build.mjs builds into a fresh folder and moves it into dist/ (npm run build); tsup alone writes dist/.
const OUT_DIR = process.env.PARCELS_BUILD_DIR ?? 'dist';
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
// Baked in so `parcels --version` answers without reading package.json.
const define = { __PARCELS_VERSION__: JSON.stringify(version) };

/**
 * esbuild's code splitting puts the modules reached from the same set of entry points into one chunk.
 * Each command module is an entry (its loader imports it lazily), and each uses its own subset of the
 * CLI's core (context, config, API client, output), so the core fell into ~40 chunks of a few hundred
 * bytes to a few KB; a `get` loaded 74 files and paid ~0.3 ms for each (BENCHMARKS.md). A command
 * module, like the CLI's other lazily loaded modules below, only ever runs after cli.ts has run, so
 * importing cli.ts from it changes nothing at run time; it makes the whole core reachable from every
 * such entry alike, and esbuild gives the core one chunk. None of them is reached from cli.ts by a
 * static import (that would be a cycle); the sandbox library entry never imports cli.ts.
 */
const CLI_ENTRY = resolve('src/cli.ts');
const LAZY_CLI_MODULES = ['src/bulk/command.ts', 'src/io/jq.ts', 'src/bulk/outbox.ts', 'src/io/table.ts', 'src/completions/answer.ts', 'src/sandbox-loader.ts'].map((file) => resolve(file));
const commandsShareCore: Plugin = {
  name: 'commands-share-core',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const command =
        /[\\/]src[\\/]commands[\\/]([\w-]+[\\/])?[\w-]+\.ts$/.test(args.path) && !/[\\/]commands[\\/](shared[\\/]|loaders\.ts$)/.test(args.path);
      if (!command && !LAZY_CLI_MODULES.includes(args.path)) return undefined;
      const source = await readFile(args.path, 'utf8');
      return { contents: `import ${JSON.stringify(CLI_ENTRY)};\n${source}`, loader: 'ts' };
    });
  },
};

export default defineConfig([
  {
    // One ESM bundle per entry; every command module reached through `await import()` becomes its
    // own chunk, so a command's code (and its dependencies) load only when it runs.
    entry: { cli: 'src/cli.ts', 'sandbox/index': 'src/sandbox/index.ts', 'testing/index': 'src/testing/index.ts' },
    outDir: OUT_DIR,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    splitting: true,
    // `npm run build` starts from an empty folder; two configs cleaning the same folder would race.
    clean: false,
    define,
    // Types for the library entries, for software that tests against the sandbox.
    dts: { entry: { 'sandbox/index': 'src/sandbox/index.ts', 'testing/index': 'src/testing/index.ts' } },
    // Bundle pure-JS dependencies (fewer files to resolve at start-up); the native addon stays external.
    noExternal: [/^(?!better-sqlite3$|jq-wasm(\/|$)).*/],
    // jq-wasm's Emscripten loader needs its CommonJS __dirname: it stays a plain (lazily imported) package.
    external: ['better-sqlite3', 'jq-wasm'],
    // Bundled CommonJS dependencies call require() for Node built-ins; give the ESM output a real one.
    banner: {
      js: "import { createRequire as __parcelsCreateRequire } from 'node:module'; const require = __parcelsCreateRequire(import.meta.url);",
    },
    esbuildPlugins: [commandsShareCore],
  },
  {
    // `--version` and `--help` as a small CommonJS file: Node starts CommonJS without its ESM loader,
    // which saves ~10 ms on every such run (see BENCHMARKS.md).
    // Shell completion (`parcels __complete`) the same way, in a file of its own.
    entry: { 'fast-path': 'src/fast-path.ts', complete: 'src/completions/answer.ts' },
    outDir: OUT_DIR,
    format: ['cjs'],
    platform: 'node',
    target: 'node20',
    clean: false,
    define,
    outExtension: () => ({ js: '.cjs' }),
  },
  {
    // The sandbox's web inspector (src/sandbox/inspector-page): one script and one style sheet for browsers,
    // served by the sandbox from dist/inspector/ (src/sandbox/inspector/assets.ts). Nothing from a CDN.
    entry: { app: 'src/sandbox/inspector-page/main.ts' },
    outDir: `${OUT_DIR}/inspector`,
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    clean: false,
    minify: true,
    outExtension: () => ({ js: '.js' }),
    tsconfig: 'src/sandbox/inspector-page/tsconfig.json',
  },
]);
