/**
 * The process's three streams, bundled with what we know about them (TTY, colour, width), so
 * commands and renderers never touch `process.stdout` directly and tests can swap in collectors.
 *
 * Data goes to `stdout`; messages, spinners, hints and errors go to `stderr` (STYLE.md, pattern 4).
 */

export interface IO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Colour on stdout. */
  colour: boolean;
  /** Colour on stderr. */
  stderrColour: boolean;
  /** Terminal width of stdout (80 when unknown). */
  columns: number;
  /**
   * The zone times on stdout are shown in (time.ts `stdoutZone`): the local zone, or UTC with
   * --utc, on a terminal; absent when piped, where times stay UTC ISO 8601. Set with the globals.
   */
  timeZone?: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Whether to colour a stream. In order: `--no-color` wins, then a non-empty `NO_COLOR`
 * (https://no-color.org), then `FORCE_COLOR` (0/false off, anything else on, as supports-color
 * reads it), then colour only on a TTY whose TERM is not `dumb`.
 */
export function shouldColour(opts: { isTTY: boolean; env: NodeJS.ProcessEnv; noColor?: boolean }): boolean {
  const { env } = opts;
  if (opts.noColor) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !(force === '0' || force.toLowerCase() === 'false');
  if (!opts.isTTY) return false;
  if (env.TERM === 'dumb') return false;
  return true;
}

/** The real process streams. `noColor` is the `--no-color` flag. */
export function systemIO({ noColor }: { noColor: boolean }): IO {
  const env = process.env;
  const stdoutIsTTY = process.stdout.isTTY === true;
  const stderrIsTTY = process.stderr.isTTY === true;
  const stdinIsTTY = process.stdin.isTTY === true;
  const envColumns = Number.parseInt(env.COLUMNS ?? '', 10);
  const columns =
    (stdoutIsTTY && process.stdout.columns > 0 ? process.stdout.columns : undefined) ??
    (envColumns > 0 ? envColumns : 80);
  guard(process.stdout);
  guard(process.stderr);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdoutIsTTY,
    stderrIsTTY,
    stdinIsTTY,
    colour: shouldColour({ isTTY: stdoutIsTTY, env, noColor }),
    stderrColour: shouldColour({ isTTY: stderrIsTTY, env, noColor }),
    columns,
    env,
  };
}

interface StreamState {
  /** The reader went away (EPIPE): further output is dropped quietly. */
  closed: boolean;
  /** Any other write error, reported by the next writeOut. */
  error?: Error;
}

const states = new WeakMap<NodeJS.WritableStream, StreamState>();

function isEpipe(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ERR_STREAM_WRITE_AFTER_END';
}

/**
 * Attach (once) an 'error' listener so that a closed pipe (`parcels list --all | head`) never
 * surfaces as an unhandled 'error' event, and remember the stream is closed.
 */
function guard(stream: NodeJS.WritableStream): StreamState {
  let state = states.get(stream);
  if (state) return state;
  const s: StreamState = { closed: false };
  states.set(stream, s);
  stream.on('error', (err: Error) => {
    if (isEpipe(err)) s.closed = true;
    else s.error ??= err;
  });
  state = s;
  return state;
}

/** True once the reader of `stream` has gone away (EPIPE); producers should stop. */
export function isClosed(stream: NodeJS.WritableStream): boolean {
  const state = guard(stream);
  const w = stream as { destroyed?: boolean; writableEnded?: boolean };
  return state.closed || w.destroyed === true || w.writableEnded === true;
}

/**
 * Write `text` and resolve once the stream can take more: when `write()` returns false we wait
 * for 'drain' (backpressure). A closed pipe (EPIPE) resolves quietly and marks the stream closed,
 * so later writes are no-ops; any other write error rejects.
 */
export function writeOut(stream: NodeJS.WritableStream, text: string): Promise<void> {
  const state = guard(stream);
  if (state.error) return Promise.reject(state.error);
  if (text === '' || isClosed(stream)) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const cleanup = (): void => {
      stream.removeListener('drain', onDrain);
      stream.removeListener('close', onClose);
      stream.removeListener('error', onError);
    };
    const finish = (err?: Error): void => {
      if (settled) return;
      settled = true;
      cleanup();
      if (err && !isEpipe(err)) reject(err);
      else resolve();
    };
    const onDrain = (): void => finish();
    const onClose = (): void => {
      state.closed = true;
      finish();
    };
    const onError = (err: Error): void => finish(err);
    stream.on('error', onError);
    let ok: boolean;
    try {
      ok = stream.write(text, (err?: Error | null) => {
        if (err) {
          if (isEpipe(err)) state.closed = true;
          finish(err);
        }
      });
    } catch (err) {
      // Some streams throw synchronously when already destroyed.
      if (isEpipe(err)) state.closed = true;
      finish(err as Error);
      return;
    }
    if (ok) {
      finish();
      return;
    }
    stream.on('drain', onDrain);
    stream.on('close', onClose);
  });
}

/** Read a stream to its end as UTF-8 text (e.g. `--data -` from stdin). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<string | Buffer | Uint8Array>) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}
