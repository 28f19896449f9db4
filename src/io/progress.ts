import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { durationText } from './time.js';
import type { IO } from './streams.js';

/**
 * A one-line progress bar on a terminal's stderr. It shares the screen with the lines a run prints
 * on the same terminal (a bulk run's results on stdout): `above()` takes the bar off its line while
 * they are written and draws it again below them, so the bar always sits on the last line and
 * `stop()` leaves nothing of it. (cli-progress, used before, restored the cursor to where the bar
 * started, which is stale once other output has scrolled the screen: its summary overwrote results.)
 */
export interface ProgressLine {
  /** One more line done; the bar is drawn again at most five times a second. */
  tick(): void;
  /** Runs `write` (output to the same terminal, made synchronously) with the bar off the screen. */
  above<T>(write: () => T): T;
  /** Erases the bar for good. */
  stop(): void;
}

const REDRAW_MS = 200;
const BAR_WIDTH = 30;
const ERASE_LINE = '\r\u001b[K';

export interface ProgressOptions {
  /** Lines expected (0: unknown, no bar and no ETA). */
  total: number;
  /** Milliseconds, monotonic. */
  now?: () => number;
}

/** The bar's text: `[=====-----] 120/300 lines | 88/s | ETA 2s`, cut to `width`. */
export function progressText(done: number, total: number, elapsedMs: number, width: number): string {
  const rate = elapsedMs > 0 ? done / (elapsedMs / 1000) : 0;
  const parts = [`${done}${total > 0 ? `/${Math.max(total, done)}` : ''} lines`, `${Math.round(rate)}/s`];
  let text: string;
  if (total > 0) {
    const filled = Math.round((Math.min(done, total) / total) * BAR_WIDTH);
    if (rate > 0) parts.push(`ETA ${durationText(Math.max(0, total - done) / rate)}`);
    text = `[${'='.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${parts.join(' | ')}`;
  } else text = parts.join(' | ');
  // One column short of the width: a line that fills it would wrap on some terminals, and `\r` then erases only its last row.
  return text.slice(0, Math.max(0, width - 1));
}

export function progressLine(io: IO, opts: ProgressOptions): ProgressLine {
  const now = opts.now ?? (() => performance.now());
  const width = (): number => (io.stderr as { columns?: number }).columns || io.columns;
  const started = now();
  let done = 0;
  let shown = false;
  let dirty = false;
  let stopped = false;
  const write = (text: string): void => void io.stderr.write(text);
  const draw = (): void => {
    dirty = false;
    write(`${ERASE_LINE}${progressText(done, opts.total, now() - started, width())}`);
    shown = true;
  };
  const erase = (): void => {
    if (shown) write(ERASE_LINE);
    shown = false;
  };
  const timer = setInterval(() => {
    if (dirty) draw();
  }, REDRAW_MS);
  timer.unref();
  draw();
  return {
    tick() {
      done++;
      dirty = true;
    },
    above(output) {
      if (stopped) return output();
      erase();
      try {
        return output();
      } finally {
        draw();
      }
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      erase();
    },
  };
}

/** Lines of a file, read as a stream; 0 for what is not a regular file (a pipe, /dev/zero: read once, or never ending). */
async function countLines(path: string): Promise<number> {
  if (!(await stat(path)).isFile()) return 0;
  let lines = 0;
  let last = 0x0a;
  for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) {
    const buffer = chunk as Buffer;
    for (let at = buffer.indexOf(0x0a); at !== -1; at = buffer.indexOf(0x0a, at + 1)) lines++;
    if (buffer.length > 0) last = buffer[buffer.length - 1] as number;
  }
  return last === 0x0a ? lines : lines + 1;
}

/** A bulk run's bar: its total (for the ETA) is the input file's lines, less a CSV header; stdin has none. */
export async function bulkProgress(io: IO, input: { file: string; csv: boolean } | undefined): Promise<ProgressLine> {
  const lines = input === undefined ? 0 : await countLines(input.file).catch(() => 0);
  return progressLine(io, { total: Math.max(0, lines - (input?.csv ? 1 : 0)) });
}
