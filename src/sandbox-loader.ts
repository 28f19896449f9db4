import { fileURLToPath } from 'node:url';
import { SandboxUnavailableError } from './errors.js';
import { shellQuote } from './hint/shell.js';
import type * as Sandbox from './sandbox/index.js';

type SandboxModule = typeof Sandbox;
/** What the check needs of better-sqlite3: open a database and close it. */
type StoreModule = { default: new (filename: string) => { close(): unknown } };

/** This package's folder: dist/ (built) and src/ (tests) both sit one level below it. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url)).replace(/[\\/]$/, '');

/** The command that puts better-sqlite3 where this package resolves it, for a global install as for a project's. */
export function installCommand(packageDir = PACKAGE_DIR): string {
  return `npm install --prefix ${shellQuote(packageDir)} --no-save --omit=dev better-sqlite3`;
}

/** The command that builds (or fetches) the native addon of an installed better-sqlite3 again. */
export function rebuildCommand(packageDir = PACKAGE_DIR): string {
  return `npm rebuild --prefix ${shellQuote(packageDir)} better-sqlite3`;
}

/**
 * The sandbox (`--sandbox`, `sandbox serve`) keeps its state with better-sqlite3, an optional
 * dependency: the CLI installs and runs without it on a machine that can neither build nor fetch
 * the native addon. Loading the store first turns its absence into what to install (exit 9)
 * instead of a module-resolution stack trace.
 */
/** The database objects that showed the addon loads (closed, never freed). */
const addonProbes: unknown[] = [];

export async function loadSandbox(loadStore: () => Promise<StoreModule> = () => import('better-sqlite3')): Promise<SandboxModule> {
  let store: StoreModule;
  try {
    store = await loadStore();
  } catch {
    throw unavailable('is not installed', `install it (a prebuilt binary for this platform, or a C++ toolchain to build one): \`${installCommand()}\``);
  }
  try {
    // The package loads its native addon on first use: a missing or mismatched binary shows here.
    // The probe is kept for the process's life: better-sqlite3 12's destructor, run when the garbage
    // collector frees a database object, can abort Node 24 (an upstream bug; see store/schema.ts).
    const probe = new store.default(':memory:');
    probe.close();
    addonProbes.push(probe);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw unavailable(
      `is installed but its native addon does not load (${detail})`,
      `build it again (a prebuilt binary for this platform, or a C++ toolchain to build one): \`${rebuildCommand()}\``,
    );
  }
  return import('./sandbox/index.js');
}

function unavailable(problem: string, hint: string): SandboxUnavailableError {
  return new SandboxUnavailableError(`the sandbox needs better-sqlite3, an optional dependency that ${problem}`, hint);
}
