/**
 * The pseudo-terminal tier's one helper: the BUILT CLI (bin/parcels.js) on a real pty, its output
 * drawn by a headless xterm, so a test reads the screen a person would see (carriage returns,
 * erased lines and cursor moves applied), not the bytes. Run `npm run test:pty` (it builds first).
 *
 * The pty is util-linux `script` (in every Debian/Ubuntu base: no native module to build): it gives
 * the command a terminal on stdin, stdout and stderr, forwards what a test types, and exits with the
 * command's exit code (-e). Waits are bounded by events: `waitFor` looks again each time the terminal
 * has drawn more output and fails as soon as the CLI exits without showing the text; the test's own
 * timeout bounds a CLI that hangs. No fixed sleeps.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// CommonJS without named exports Node can see: its one export is read through the default.
import xterm from '@xterm/headless';
import type { IBufferCell, Terminal } from '@xterm/headless';
import { onTestFailed, onTestFinished } from 'vitest';
import { recordSpawnedHints } from './spawned-hints.js';

const BIN = fileURLToPath(new URL('../../bin/parcels.js', import.meta.url));

/** util-linux `script` is there: tests of this tier skip (saying so) without it. */
export const hasPty = spawnSync('script', ['--version']).status === 0;

export interface PtyOptions {
  /** The whole environment of the CLI, e.g. `binaryEnv({ PARCELS_BASE_URL: … })` (NO_COLOR=1 there). */
  env: NodeJS.ProcessEnv;
  /** The terminal's size (default 100 × 30). */
  columns?: number;
  rows?: number;
  /** Colour on: NO_COLOR is removed (it is set in binaryEnv). Default off. */
  colour?: boolean;
  /** The CLI's time zone (TZ). */
  tz?: string;
  /** Working directory (relative --from paths). */
  cwd?: string;
}

/** Keys as the terminal sends them: `type('\x03')` is Ctrl-C too. */
export const KEYS = {
  enter: '\r',
  'ctrl-c': '\u0003',
  'ctrl-d': '\u0004',
  'ctrl-z': '\u001a',
  escape: '\u001b',
  up: '\u001b[A',
  down: '\u001b[B',
  tab: '\t',
} as const;

export interface StyledText {
  text: string;
  /** 'default', or an ANSI palette number (0–255) such as 1 (red), 2 (green), 3 (yellow), or `#rrggbb`. */
  fg: string;
  bold: boolean;
  dim: boolean;
}

export interface PtyRun {
  /** Types text (keys are sent as a person's terminal sends them). */
  type(text: string): void;
  press(key: keyof typeof KEYS): void;
  /** Sends a signal to the CLI process itself (not through the terminal: for that, press('ctrl-c')). */
  kill(signal: NodeJS.Signals): void;
  /** Resolves with the screen's lines once `text` is on the screen; rejects if the CLI exits first. */
  waitFor(text: string | RegExp): Promise<string[]>;
  /** The visible rows, right-trimmed (trailing empty rows kept: the screen has `rows` lines). */
  screen(): string[];
  /** Every line written, scrollback included: rows the terminal wrapped joined, right-trimmed, without the empty rows below the last. */
  lines(): string[];
  /** A row of the buffer (scrollback included, as `lines()` when nothing wrapped) with its colours: runs of cells of one style. */
  styled(line: number): StyledText[];
  /** Every byte the terminal received, as UTF-8 (to assert what must never reach it). */
  raw(): string;
  /** The exit code, once the CLI has exited and the terminal has drawn all it wrote. */
  exited: Promise<number>;
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The pid of `script`'s child: the shell that `exec`s the CLI, so the CLI itself. */
function childOf(parent: number): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // `pid (comm) state ppid …`; comm may hold spaces and parentheses: read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) return Number(entry);
    } catch {
      // The process ended while listing.
    }
  }
  return undefined;
}

function lineText(term: Terminal, y: number): string {
  return term.buffer.active.getLine(y)?.translateToString(true) ?? '';
}

function colourOf(cell: IBufferCell): string {
  if (cell.isFgDefault()) return 'default';
  if (cell.isFgRGB()) return `#${cell.getFgColor().toString(16).padStart(6, '0')}`;
  return String(cell.getFgColor());
}

/** Starts `parcels args…` (the built CLI) on a new pseudo-terminal. */
export function startCli(args: string[], opts: PtyOptions): PtyRun {
  return startOnPty([process.execPath, BIN, ...args], args, opts, {});
}

/** The interactive shells a terminal test can start, each without the user's rc files. */
const SHELL_ARGV = {
  bash: ['bash', '--norc', '--noprofile', '-i'],
  zsh: ['zsh', '-f', '-i'],
  fish: ['fish', '--no-config', '-i'],
} as const;

/**
 * Starts an interactive shell (bash unless `shell` says; no rc files, prompt `$ ` in bash) on a new
 * pseudo-terminal — one terminal of a person who types several commands in it; `parcels` there runs
 * the built CLI. End it by typing `exit`.
 */
export function startShell(opts: PtyOptions & { shell?: keyof typeof SHELL_ARGV }): PtyRun {
  const bin = mkdtempSync(join(tmpdir(), 'parcels-pty-bin-'));
  writeFileSync(join(bin, 'parcels'), `#!/bin/sh\nexec ${[process.execPath, BIN].map(quote).join(' ')} "$@"\n`, { mode: 0o755 });
  const path = `${bin}:${opts.env.PATH ?? process.env.PATH ?? '/usr/bin:/bin'}`;
  return startOnPty([...SHELL_ARGV[opts.shell ?? 'bash']], ['(shell)'], opts, { PATH: path, PS1: '$ ' });
}

function startOnPty(argv: string[], args: string[], opts: PtyOptions, extraEnv: NodeJS.ProcessEnv): PtyRun {
  const columns = opts.columns ?? 100;
  const rows = opts.rows ?? 30;
  const env: NodeJS.ProcessEnv = { ...opts.env, ...extraEnv, TERM: 'xterm-256color' };
  if (opts.colour) delete env.NO_COLOR;
  else env.NO_COLOR = '1';
  if (opts.tz !== undefined) env.TZ = opts.tz;
  // The size is set on the pty before the program starts; `exec` makes it script's child.
  const command = `stty cols ${columns} rows ${rows} && exec ${argv.map(quote).join(' ')}`;
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { env, cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const term = new xterm.Terminal({ cols: columns, rows, scrollback: 10_000, allowProposedApi: true });
  let raw = '';
  let scriptErrors = '';
  let ended = false;
  const waiters = new Set<() => void>();
  const check = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  child.stdout.on('data', (chunk: Buffer) => {
    raw += chunk.toString('utf8');
    term.write(chunk, check);
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => (scriptErrors += c));
  // Keys typed after the CLI ended go nowhere, as on a real terminal.
  child.stdin.on('error', () => undefined);
  child.on('exit', () => child.stdin.end());
  const exited = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      // Everything written before the exit is drawn before anyone reads the final screen.
      term.write('', () => {
        ended = true;
        recordSpawnedHints(args, env, opts.cwd, lines().join('\n'));
        check();
        if (code === null || scriptErrors !== '') reject(new Error(`script failed (${code}): ${scriptErrors}`));
        else resolve(code);
      });
    });
  });
  // Unhandled until a test awaits it; a failed start still rejects every waitFor.
  exited.catch(() => undefined);

  // A failed or timed-out test shows what the terminal showed; a CLI still running when its test ends is stopped.
  onTestFailed(() => console.error(`parcels ${args.join(' ')} — the terminal showed:\n${lines().join('\n')}`));
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  const screen = (): string[] => {
    const top = term.buffer.active.viewportY;
    return Array.from({ length: rows }, (_, row) => lineText(term, top + row));
  };
  const lines = (): string[] => {
    const all: string[] = [];
    for (let y = 0; y < term.buffer.active.length; y++) {
      // A row the terminal wrapped onto is the rest of the line above it.
      if (term.buffer.active.getLine(y)?.isWrapped && all.length > 0) all[all.length - 1] += lineText(term, y);
      else all.push(lineText(term, y));
    }
    while (all.length > 0 && all[all.length - 1] === '') all.pop();
    return all;
  };

  return {
    type(text) {
      child.stdin.write(text);
    },
    press(key) {
      child.stdin.write(KEYS[key]);
    },
    kill(signal) {
      const pid = child.pid === undefined ? undefined : childOf(child.pid);
      if (pid === undefined) throw new Error('the CLI is not running');
      process.kill(pid, signal);
    },
    waitFor(text) {
      const shown = (): boolean => screen().some((line) => (typeof text === 'string' ? line.includes(text) : text.test(line)));
      return new Promise((resolve, reject) => {
        const waiter = (): void => {
          if (shown()) {
            waiters.delete(waiter);
            resolve(screen());
          } else if (ended) {
            waiters.delete(waiter);
            reject(new Error(`the CLI exited without showing ${String(text)}; the screen:\n${lines().join('\n')}`));
          }
        };
        waiters.add(waiter);
        waiter();
      });
    },
    screen,
    lines,
    styled(y) {
      const line = term.buffer.active.getLine(y);
      const runs: StyledText[] = [];
      if (line === undefined) return runs;
      const cell = line.getCell(0);
      for (let x = 0; x < line.length; x++) {
        line.getCell(x, cell);
        if (cell === undefined || cell.getWidth() === 0) continue;
        const style = { fg: colourOf(cell), bold: cell.isBold() !== 0, dim: cell.isDim() !== 0 };
        const last = runs[runs.length - 1];
        if (last && last.fg === style.fg && last.bold === style.bold && last.dim === style.dim) last.text += cell.getChars() || ' ';
        else runs.push({ text: cell.getChars() || ' ', ...style });
      }
      const last = runs[runs.length - 1];
      if (last) last.text = last.text.trimEnd();
      return runs.filter((run) => run.text !== '');
    },
    raw: () => raw,
    exited,
  };
}

export interface PtyResult {
  code: number;
  /** The whole output as drawn (scrollback included). */
  lines: string[];
  raw: string;
}

/** Runs `parcels args…` on a pseudo-terminal to its end. */
export async function runCli(args: string[], opts: PtyOptions): Promise<PtyResult> {
  const run = startCli(args, opts);
  const code = await run.exited;
  return { code, lines: run.lines(), raw: run.raw() };
}

let typedCount = 0;
/**
 * Types `command` into a shell started by startShell, as a person would, and resolves once it ended
 * (an event: the marker line the shell echoes after it): its exit code and the lines it printed.
 */
export async function typedCommand(term: PtyRun, command: string): Promise<{ code: number; lines: string[] }> {
  const marker = `done-${++typedCount}`;
  term.type(`${command}; echo "${marker}:$?"\r`);
  await term.waitFor(new RegExp(`^${marker}:\\d+$`));
  const lines = term.lines();
  // The command as the shell echoed it (rows it wrapped joined; typed before the prompt showed, the
  // echo and the prompt may share a line), then what it printed.
  const end = lines.findIndex((line) => line.startsWith(`${marker}:`));
  const echoed = lines.slice(0, end).findLastIndex((line) => line.includes(`echo "${marker}:$?"`));
  return { code: Number(lines[end]?.slice(marker.length + 1)), lines: lines.slice(echoed + 1, end) };
}
