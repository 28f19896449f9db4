import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { durationText } from '../schemas/time-text.js';
import type { IO } from './streams.js';
import type { LineOutcome } from '../schemas/line-outcome.js';

/**
 * A one-line progress bar on a terminal's stderr, drawn again in place (`\r`, erase line) and
 * erased by `stop()`, which leaves nothing of it. A bulk run at a terminal writes its result lines
 * to a file, not to the screen, so nothing scrolls under the bar.
 */
export interface ProgressLine {
  /** One more line done, and what became of it: only lines sent set the ETA's pace (already done and skipped lines take no time). */
  tick(outcome?: LineOutcome): void;
  /** Of the lines still to come, this many are not expected to be sent (an earlier run confirmed them): the ETA leaves them out. */
  notToSend(lines: number): void;
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

/** Where a run is: lines done of `total`, and how long the lines sent took. */
export interface ProgressState {
  done: number;
  /** Lines expected (0: unknown, no bar and no ETA). */
  total: number;
  elapsedMs: number;
  /** Of the lines done, those that took a request: the ETA's pace. */
  sent: number;
  /** Of the lines still to come, those expected not to be sent. */
  notToSend: number;
}

/** The bar's text: `[=====-----] 120/300 lines | 88/s | ETA 2s`, cut to `width`; the ETA counts only lines still to send, at the pace of those sent. */
export function progressText(state: ProgressState, width: number): string {
  const { done, total, elapsedMs } = state;
  const rate = elapsedMs > 0 ? done / (elapsedMs / 1000) : 0;
  const sendRate = elapsedMs > 0 ? state.sent / (elapsedMs / 1000) : 0;
  const parts = [`${done}${total > 0 ? `/${Math.max(total, done)}` : ''} lines`, `${Math.round(rate)}/s`];
  let text: string;
  if (total > 0) {
    const filled = Math.round((Math.min(done, total) / total) * BAR_WIDTH);
    const toSend = Math.max(0, total - done - state.notToSend);
    if (toSend === 0 && rate > 0) parts.push('ETA 0s');
    else if (sendRate > 0) parts.push(`ETA ${durationText(toSend / sendRate)}`);
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
  let sent = 0;
  let notToSend = 0;
  let shown = false;
  let dirty = false;
  let stopped = false;
  const write = (text: string): void => void io.stderr.write(text);
  const draw = (): void => {
    dirty = false;
    write(`${ERASE_LINE}${progressText({ done, total: opts.total, elapsedMs: now() - started, sent, notToSend }, width())}`);
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
    tick(outcome = 'created') {
      done++;
      if (outcome === 'created' || outcome === 'replayed' || outcome === 'failed') sent++;
      else if (outcome === 'already_done' && notToSend > 0) notToSend--;
      dirty = true;
    },
    notToSend(lines) {
      notToSend = lines;
      dirty = true;
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
export async function countLines(path: string): Promise<number> {
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
