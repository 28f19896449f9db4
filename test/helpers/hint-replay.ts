/**
 * Issue 20: every hint the suite provokes is run exactly as printed. Each in-process run
 * (`runCli`, `runAtTerminal`) records the backquoted `parcels …` commands on its stderr with the env
 * (config dir, target) that provoked them; `replayHints()` runs each with that env while the file's
 * sandbox still listens (the harness's close() calls it first), writes one line per replay to the
 * run's report, and throws if any replay was refused as usage (exit 2, "unknown option") or failed
 * unexpectedly (exit 1). See docs/contributing.md, "Every hint is run".
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { run } from '../../src/cli.js';
import { captureIO } from './io.js';

/** The shell words of a printed command, as bash, zsh and fish read them: bare text, '…' quoting and \-escapes (src/hint/shell.ts). */
export function shellWords(command: string): string[] {
  return [...command.matchAll(/(?:'[^']*'|\\.|[^\s'\\])+/g)].map((match) =>
    match[0].replace(/'([^']*)'|\\(.)/g, (_all, quoted: string | undefined, escaped: string | undefined) => quoted ?? escaped ?? ''),
  );
}

/** Every `parcels …` command quoted in backticks on stderr, as argv (without "parcels"). */
export function hintedCommands(stderr: string): string[][] {
  return [...stderr.matchAll(/`parcels ([^`]+)`/g)].map((m) => shellWords(m[1] as string));
}

/**
 * The one allow-list: hints a replay cannot run as a bare command would, each with its reason and
 * what it does instead — skip it, answer a prompt at a terminal (`typed`), or accept an outcome the
 * user's own input (not the hint) decides (`accepts`). Keep it short: any other failure is a bug in the hint.
 */
export const REPLAY_RULES: readonly ReplayRule[] = [
  { reason: 'waits for the user to type a key at a prompt (errors.test.ts types one and runs it)', matches: (a) => a[0] === 'auth' && a[1] === 'login', skip: true },
  { reason: 'runs until stopped (a server, a watch)', matches: (a) => (a[0] === 'sandbox' && a[1] === 'serve') || a.includes('--watch'), skip: true },
  { reason: 'asks before deleting the sandbox data: pasted at a terminal, answered yes', matches: (a) => a[0] === 'sandbox' && a[1] === 'reset', typed: 'y\n' },
  {
    reason: 'the fix-and-rerun hint of a bulk file: until the user fixes the file the rerun reports the same invalid lines (exit 2, a summary, not a refusal)',
    matches: (a) => a.includes('--from') && a.includes('--continue'),
    accepts: (code, stderr) => code === 2 && /\(\d+ invalid\)/.test(stderr) && !stderr.startsWith('Error:'),
  },
  {
    reason: "a changed file's `--new-batch` way on, replayed after the test took its other way (`--continue`): the lines that way created make the file a copy of that batch, which the created index refuses (exit 2, nothing sent) and says so",
    matches: (a) => a.includes('--from') && a.includes('--new-batch'),
    accepts: (code, stderr) => code === 2 && /^Error: --from: \S+ is a copy of batch [0-9a-f]{16} /.test(stderr),
  },
  {
    reason: 'a test planted a symbolic link on the outbox after `outbox flush` was hinted: the flush refuses the link (exit 2), whose own hint tells the user to replace it first',
    matches: (a) => a[0] === 'outbox' && a[1] === 'flush',
    accepts: (code, stderr) => code === 2 && /^Error: \S+ is a symbolic link; refusing to read it\n/.test(stderr),
  },
  {
    reason:
      "`outbox flush` hinted by a command that queued because the test's service was a closed port: a flush retries its first entry as a bulk run does (10 retries, about 25 s of real backoff) before it says the service is still out of reach (exit 8); replayed with PARCELS_RETRIES=0 it says so after one attempt, the same outcome without the wait",
    matches: (a) => a[0] === 'outbox' && a[1] === 'flush',
    env: { PARCELS_RETRIES: '0' },
  },
];

interface ReplayRule {
  reason: string;
  matches(argv: readonly string[]): boolean;
  skip?: boolean;
  typed?: string;
  accepts?(code: number, stderr: string): boolean;
  /** Variables the replay sets (a flag the user may pass, as its variable): what the hint does is unchanged. */
  env?: NodeJS.ProcessEnv;
}

/** What the rules matching a hint say, together: skipped or typed by the first that says so; accepted by any; their variables. */
export function replayRule(hint: readonly string[]): Omit<ReplayRule, 'matches'> | undefined {
  const rules = REPLAY_RULES.filter((r) => r.matches(hint));
  if (rules.length === 0) return undefined;
  const typed = rules.find((r) => r.typed !== undefined)?.typed;
  return {
    reason: rules.map((r) => r.reason).join('; '),
    ...(rules.some((r) => r.skip === true) ? { skip: true } : {}),
    ...(typed === undefined ? {} : { typed }),
    accepts: (code, stderr) => rules.some((r) => r.accepts?.(code, stderr) === true),
    env: Object.assign({}, ...rules.map((r) => r.env ?? {})) as NodeJS.ProcessEnv,
  };
}

interface Provoked {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  hint: string[];
}

const pending: Provoked[] = [];

/** Called by the in-process runners with what a run printed on stderr. */
export function recordHints(argv: readonly string[], env: NodeJS.ProcessEnv, stderr: string): void {
  for (const hint of hintedCommands(stderr)) pending.push({ argv: [...argv], env: { ...env }, hint });
}

/** Drops the hints an earlier file of this worker recorded and did not replay (a file's runs without the harness). */
export function forgetEarlierFilesHints(): void {
  pending.length = 0;
}

/** Where this run's replay reports go (one NDJSON file per test file and process). */
export const REPORT_DIR = join(tmpdir(), 'parcels-hint-replays');

/** Replays every hint recorded so far (each distinct hint and env once); throws naming each one that failed. */
export async function replayHints(label: string): Promise<void> {
  const batch = pending.splice(0);
  const seen = new Set<string>();
  const failures: string[] = [];
  mkdirSync(REPORT_DIR, { recursive: true });
  const report = join(REPORT_DIR, `${label.replace(/[^A-Za-z0-9._-]/g, '_')}-${process.pid}.ndjson`);
  for (const p of batch) {
    const key = JSON.stringify([p.hint, p.env.PARCELS_CONFIG_DIR, p.env.PARCELS_BASE_URL]);
    if (seen.has(key)) continue;
    seen.add(key);
    const rule = replayRule(p.hint);
    if (rule?.skip === true) {
      appendFileSync(report, JSON.stringify({ argv: p.argv, hint: p.hint, skipped: rule.reason }) + '\n');
      continue;
    }
    const env = { ...p.env, ...rule?.env };
    const captured = captureIO({ env, ...(rule?.typed === undefined ? { stdin: '' } : { tty: true }) });
    const io = rule?.typed === undefined ? captured.io : { ...captured.io, stdin: Readable.from([Buffer.from(rule.typed, 'utf8')]), stdinIsTTY: true };
    const code = await run(p.hint as string[], { io, env });
    const stderr = captured.stderr();
    const accepted = rule?.accepts?.(code, stderr) === true;
    const failed = !accepted && (code === 2 || code === 1 || /unknown (option|command)/.test(stderr));
    appendFileSync(report, JSON.stringify({ argv: p.argv, hint: p.hint, code, stderr, failed }) + '\n');
    if (failed) failures.push(`parcels ${p.argv.join(' ')}\n  hinted: parcels ${p.hint.join(' ')}\n  → exit ${code}: ${stderr.trim()}`);
  }
  if (failures.length > 0) throw new Error(`${failures.length} hint(s) failed when run as printed (report: ${report}):\n${failures.join('\n')}`);
}
