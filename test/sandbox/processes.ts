/**
 * Sandboxes in child processes (each with its own SQLite connection) on one database file: the
 * library is bundled once with tsup, then each child starts it and reports its URL.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'tsup';
import type { SandboxOptions } from '../../src/sandbox/index.js';

// Inside node_modules, so the bundle resolves better-sqlite3 and zod from the project.
const OUT = resolve('node_modules/.cache/parcels-sandbox-processes');

const CHILD = `
import { startSandbox } from './index.js';
const sandbox = await startSandbox(JSON.parse(process.argv[2]));
process.send({ url: sandbox.url });
process.on('disconnect', () => sandbox.close().then(() => process.exit(0)));
`;

/** Bundles src/sandbox for the children; call once (beforeAll). */
export async function bundleSandbox(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  await build({ config: false, entry: { index: 'src/sandbox/index.ts' }, format: ['esm'], outDir: OUT, platform: 'node', target: 'node20', silent: true, dts: false, clean: false, skipNodeModulesBundle: true });
  writeFileSync(join(OUT, 'child.mjs'), CHILD);
}

export interface ChildSandbox {
  url: string;
  process: ChildProcess;
  close(): Promise<void>;
}

/** Starts a sandbox in a child process with JSON-serialisable options. */
export function startChild(options: SandboxOptions): Promise<ChildSandbox> {
  const child = fork(join(OUT, 'child.mjs'), [JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`sandbox child exited with ${String(code)}`)));
    child.once('message', (msg) => {
      child.removeAllListeners('exit');
      done({
        url: (msg as { url: string }).url,
        process: child,
        close: () =>
          new Promise<void>((closed) => {
            child.once('exit', () => closed());
            child.disconnect();
          }),
      });
    });
  });
}
