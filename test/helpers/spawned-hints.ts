/**
 * Issue 20 for the tiers that spawn the built binary (test/e2e, test/hostile, test/pty): `parcels()`
 * (spawn.ts) and `startCli()` (pty.ts) record every backquoted `parcels …` hint their run printed
 * (stderr, or the screen) with the run's env and working directory; the setup file
 * (test/helpers/replay-setup.ts) replays them after each test, before the file's afterAll closes its
 * sandboxes (an afterEach that stops a sandbox calls `replayTestHints()` first):
 * each hint split into shell words as a paste would be, run by the same built CLI with that env and
 * cwd. A replay fails the test if it is refused as usage (exit 2, "unknown option/command") or for
 * naming something that does not exist. See docs/contributing.md, "Every hint is run".
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { REPORT_DIR, forgetEarlierFilesHints, hintedCommands, replayHints, replayRule } from './hint-replay.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));

interface Provoked {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  hint: string[];
}

const pending: Provoked[] = [];

/** Called by the spawning runners with what a run printed (stderr, or the terminal's lines). */
export function recordSpawnedHints(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string | undefined, printed: string): void {
  for (const hint of hintedCommands(printed)) pending.push({ argv: [...argv], env: { ...env }, cwd: cwd ?? process.cwd(), hint });
}

function runBinary(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, cwd, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
    child.stdin.end('');
  });
}

/** A refusal for a name the hint gave that the CLI or the server does not know. */
const NAMES_NOTHING = /unknown (option|command)|not found|does not exist|no such/i;

/** Replays every hint recorded since the last call (each distinct hint, env and cwd once); the count replayed. */
export async function replaySpawnedHints(tier: string, label: string): Promise<number> {
  const batch = pending.splice(0);
  const seen = new Set<string>();
  const failures: string[] = [];
  let replayed = 0;
  mkdirSync(REPORT_DIR, { recursive: true });
  const report = join(REPORT_DIR, `${tier}-${label.replace(/[^A-Za-z0-9._-]/g, '_')}-${process.pid}.ndjson`);
  for (const p of batch) {
    const key = JSON.stringify([p.hint, p.env.PARCELS_CONFIG_DIR, p.env.PARCELS_BASE_URL, p.cwd]);
    if (seen.has(key)) continue;
    seen.add(key);
    const rule = replayRule(p.hint);
    // A hint answered at a terminal (`typed`) is replayed in-process, at a terminal (hint-replay.ts).
    if (rule?.skip === true || rule?.typed !== undefined) {
      appendFileSync(report, JSON.stringify({ tier, argv: p.argv, hint: p.hint, skipped: rule.reason }) + '\n');
      continue;
    }
    const { code, stderr } = await runBinary(p.hint, { ...p.env, ...rule?.env }, p.cwd);
    replayed++;
    const accepted = rule?.accepts?.(code, stderr) === true;
    const failed = !accepted && (code === 2 || NAMES_NOTHING.test(stderr));
    appendFileSync(report, JSON.stringify({ tier, argv: p.argv, hint: p.hint, code, stderr, failed }) + '\n');
    if (failed) failures.push(`parcels ${p.argv.join(' ')}\n  hinted: parcels ${p.hint.join(' ')}\n  → exit ${code}: ${stderr.trim()}`);
  }
  if (failures.length > 0) throw new Error(`${failures.length} hint(s) failed when run as printed (report: ${report}):\n${failures.join('\n')}`);
  return replayed;
}

/** The test file that called deferHintReplay (a worker that shares modules runs several files in turn). */
let deferredFile: string | undefined;

/**
 * For a file whose tests build on one another's state (one sandbox, one config dir): a replay after
 * each test would change what the next test sees, so its hints are replayed by its own afterAll,
 * before it closes its sandbox (`await replayTestHints()`).
 */
export function deferHintReplay(): void {
  deferredFile = expect.getState().testPath;
}

/** Whether this file replays its hints itself (deferHintReplay). */
export function hintReplayDeferred(): boolean {
  return deferredFile !== undefined && deferredFile === expect.getState().testPath;
}

/**
 * A file starts with no hints recorded by the files before it, as it would in a process of its own,
 * where a worker shares its modules between files (the default config's `shared` project).
 */
export function startFileHints(): void {
  pending.length = 0;
  forgetEarlierFilesHints();
}

/** Tiers without the command harness: their in-process runs' hints (runCli, runAtTerminal) are replayed here too. */
const WITHOUT_HARNESS = new Set(['e2e', 'hostile', 'pty']);

/** Replays the current test's recorded hints, its report named after its tier and file. */
export async function replayTestHints(): Promise<number> {
  const file = expect.getState().testPath ?? 'unknown';
  const parts = file.split('/');
  const tier = parts[parts.lastIndexOf('test') + 1] ?? 'test';
  const label = parts[parts.length - 1] ?? file;
  if (WITHOUT_HARNESS.has(tier)) await replayHints(`${tier}-in-process-${label}`);
  return replaySpawnedHints(tier, label);
}
