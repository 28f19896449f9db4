/**
 * An in-memory IO for tests: stdout/stderr are collectors, stdin is a fixed string. Command tests
 * run in-process with it and assert the exact bytes each stream received.
 */
import { Readable, Writable } from 'node:stream';
import type { IO } from '../../src/io/streams.js';

export interface CaptureOptions {
  /** stdout and stderr (and stdin, unless `stdin` is given) are terminals. Default false. */
  tty?: boolean;
  /** Colour on stdout and stderr. Default false (so assertions need no ANSI). */
  colour?: boolean;
  /** Text readable from stdin; when given, stdin is not a TTY. */
  stdin?: string;
  /** Terminal width. Default 80. */
  columns?: number;
  env?: NodeJS.ProcessEnv;
}

export interface Captured {
  io: IO;
  stdout(): string;
  stderr(): string;
  /** Resolves once the stream has received text containing `text` (at once when it already has). */
  until(stream: 'stdout' | 'stderr', text: string): Promise<void>;
}

export function collector(): { stream: Writable; text(): string; until(text: string): Promise<void> } {
  const chunks: Buffer[] = [];
  const waiters = new Set<() => void>();
  const text = (): string => Buffer.concat(chunks).toString('utf8');
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
      for (const check of waiters) check();
      callback();
    },
  });
  const until = (wanted: string): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (!text().includes(wanted)) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  return { stream, text, until };
}

export function captureIO(opts: CaptureOptions = {}): Captured {
  const tty = opts.tty ?? false;
  const colour = opts.colour ?? false;
  const out = collector();
  const err = collector();
  if (tty) {
    // A terminal has a width; ora (and our guard against zero-width ptys) reads it off the stream.
    for (const stream of [out.stream, err.stream]) Object.assign(stream, { columns: opts.columns ?? 80 });
  }
  const stdin = Readable.from(opts.stdin === undefined ? [] : [Buffer.from(opts.stdin, 'utf8')]);
  const io: IO = {
    stdout: out.stream,
    stderr: err.stream,
    stdin,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    stdinIsTTY: opts.stdin === undefined ? tty : false,
    colour,
    stderrColour: colour,
    columns: opts.columns ?? 80,
    env: opts.env ?? {},
  };
  return { io, stdout: out.text, stderr: err.text, until: (which, wanted) => (which === 'stdout' ? out : err).until(wanted) };
}
