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
}

const silent: Spinner = {
  update: () => {},
  succeed: () => {},
  fail: () => {},
  stop: () => {},
};

export async function startSpinner(io: IO, text: string): Promise<Spinner> {
  // A terminal that reports no width (some CI ptys) sends ora's line arithmetic into an endless clear.
  const width = (io.stderr as { columns?: number }).columns ?? 0;
  if (!io.stderrIsTTY || width <= 0) return silent;
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
  };
}
