/**
 * Progress on stderr, only on a TTY. Off a TTY ora would still print its text, which pollutes
 * logs, so there we never load ora at all and hand back a silent spinner.
 */
import { styles } from './colour.js';
import type { IO } from './streams.js';

export interface Spinner {
  update(text: string): void;
  /** Stop with a ✓ line (kept on screen) when text is given, or just stop. */
  succeed(text?: string): void;
  /** Stop with a ✗ line (kept on screen) when text is given, or just stop. */
  fail(text?: string): void;
  /** Stop and clear the line. */
  stop(): void;
  /** A line kept on stderr above the spinner (which goes on spinning). */
  note(line: string): void;
}

function silent(io: IO): Spinner {
  return {
    update: () => {},
    succeed: () => {},
    fail: () => {},
    stop: () => {},
    note: (line) => void io.stderr.write(`${line}\n`),
  };
}

export async function startSpinner(io: IO, text: string): Promise<Spinner> {
  // A terminal that reports no width (some CI ptys) sends ora's line arithmetic into an endless clear.
  const width = (io.stderr as { columns?: number }).columns ?? 0;
  if (!io.stderrIsTTY || width <= 0) return silent(io);
  const { default: ora } = await import('ora');
  const s = styles(io.stderrColour);
  const spinner = ora({
    text,
    stream: io.stderr,
    isEnabled: true,
    color: io.stderrColour ? 'cyan' : false,
    // Raw mode on stdin would break commands that read it and delay Ctrl-C.
    discardStdin: false,
  }).start();
  let done = false;
  const end = (symbol: string, final?: string): void => {
    if (done) return;
    done = true;
    if (final === undefined || final === '') spinner.stop();
    else spinner.stopAndPersist({ symbol, text: final });
  };
  return {
    update: (t) => {
      if (!done) spinner.text = t;
    },
    succeed: (t) => end(s.green('✓'), t),
    fail: (t) => end(s.red('✗'), t),
    stop: () => {
      if (done) return;
      done = true;
      spinner.stop();
    },
    note: (line) => {
      if (!done) spinner.clear();
      io.stderr.write(`${line}\n`);
      if (!done) spinner.render();
    },
  };
}

/** What the HTTP client calls while requests wait (structurally the client's `WaitingIndicator`). */
export interface WaitingIndicator {
  start(text: string): Promise<void>;
  stop(): Promise<void>;
  /** A line for the person waiting, e.g. `rate limited; retrying in 55 s (1/3)`. */
  notice(line: string): void;
}

/**
 * One spinner for all the requests under way, reference-counted: the first request to start shows
 * it, the last to stop clears it. Notices go to stderr with or without a spinner (on a TTY and off).
 */
export function waitingIndicator(io: IO, options: { spin: boolean }): WaitingIndicator {
  let active = 0;
  let spinner: Promise<Spinner> | undefined;
  let shown: Spinner | undefined;
  return {
    async start(text) {
      active++;
      if (!options.spin) return;
      spinner ??= startSpinner(io, text).then((s) => (shown = s));
      await spinner;
    },
    async stop() {
      active = Math.max(0, active - 1);
      if (active > 0 || spinner === undefined) return;
      const ending = spinner;
      spinner = undefined;
      shown = undefined;
      (await ending).stop();
    },
    notice(line) {
      if (shown !== undefined) shown.note(line);
      else io.stderr.write(`${line}\n`);
    },
  };
}
