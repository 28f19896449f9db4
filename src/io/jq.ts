/**
 * `--jq EXPR`: the JSON a command would print, filtered by a real jq (jq-wasm: jq 1.7 compiled to
 * WebAssembly, shipped inside the npm package; nothing is downloaded). The module is imported only
 * when the flag is given, and the WebAssembly instance is created once per process.
 *
 * Output is like `jq -c` with gh's twist: one result per line, compact JSON, strings raw.
 */
import { UsageError } from '../errors.js';
import { iteratorOf } from './batches.js';
import type { Source } from './batches.js';
import { sanitize } from './sanitize.js';
import { isClosed, writeOut } from './streams.js';
import type { IO } from './streams.js';

export interface JqFilter {
  readonly expression: string;
  /** The results of the filter on one input, each as the line it prints as, and the error that ended it, if one did. */
  run(input: unknown): Promise<{ lines: string[]; error?: UsageError }>;
}

/**
 * jq-wasm drops an error raised after some output, so every run is wrapped to turn the error into
 * one last output under this key (NUL-prefixed: no data has it). Newlines keep a trailing
 * `# comment` in the expression from swallowing the wrapper.
 */
const ERROR_KEY = '\u0000jq_error';
const ERROR_LINE_PREFIX = `{${JSON.stringify(ERROR_KEY)}:`;

function wrapped(expression: string): string {
  return `try (\n${expression}\n) catch {${JSON.stringify(ERROR_KEY)}: .}`;
}

type RawRunner = (input: string, filter: string, flags: string[]) => Promise<string>;

let runner: Promise<RawRunner> | undefined;

function loadRunner(): Promise<RawRunner> {
  // jq-wasm is CommonJS: Node's ESM loader exposes `raw` by name, the bundle only under `default`.
  runner ??= import('jq-wasm').then((jq) => (jq as Partial<typeof jq>).raw ?? (jq as unknown as { default: typeof jq }).default.raw);
  return runner;
}

/** jq's own message, without the wrapper's prefix. */
function jqMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text.replace(/^Failed to execute raw query:\s*/, '').split('\n');
  return lines
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .join('; ');
}

function expressionError(expression: string, message: string): UsageError {
  return new UsageError(`--jq ${message}`, '--jq', `check the expression: ${expression}`);
}

/** jq's own complaints (they start "jq: ") are the user's to fix: exit 2. Anything else is ours. */
function jqError(expression: string, error: unknown): unknown {
  const message = jqMessage(error);
  return message.startsWith('jq: ') ? expressionError(expression, message) : error;
}

/**
 * Compiles the expression by running it once on `null`: a syntax error fails here, before any
 * request is sent (exit 2). An error that depends on the input (`.[]` on null) is not a compile
 * error and waits for the real data.
 */
export async function compileJq(expression: string): Promise<JqFilter> {
  const raw = await loadRunner();
  try {
    await raw('null', expression, ['-c']);
  } catch (error) {
    const message = jqMessage(error);
    if (!message.startsWith('jq: ') || /compile error/i.test(message)) throw jqError(expression, error);
  }
  return {
    expression,
    async run(input) {
      let output: string;
      try {
        // JSON text, not the value: jq-wasm refuses bare strings and numbers as objects.
        output = await raw(JSON.stringify(input) ?? 'null', wrapped(expression), ['-c']);
      } catch (error) {
        throw jqError(expression, error);
      }
      const lines = output === '' ? [] : output.split('\n');
      const last = lines.at(-1);
      if (last === undefined || !last.startsWith(ERROR_LINE_PREFIX)) return { lines: lines.map(line) };
      const raised = (JSON.parse(last) as Record<string, unknown>)[ERROR_KEY];
      const message = typeof raised === 'string' ? raised : `${JSON.stringify(raised)} (not a string)`;
      return { lines: lines.slice(0, -1).map(line), error: expressionError(expression, `jq: error: ${message}`) };
    },
  };
}

/** A compact JSON line as printed: a string result raw, anything else as it is. */
function line(json: string): string {
  if (!json.startsWith('"')) return json;
  try {
    return JSON.parse(json) as string;
  } catch {
    return json;
  }
}

function printable(io: IO, text: string): string {
  // Raw strings come from the service: on a terminal their control characters are shown inert.
  return io.stdoutIsTTY ? sanitize(text) : text;
}

/** Filters one value (a record, a page, a response body) and prints every result. */
export async function renderJq(io: IO, filter: JqFilter, value: unknown): Promise<void> {
  const { lines, error } = await filter.run(value);
  await writeOut(io.stdout, lines.map((l) => `${printable(io, l)}\n`).join(''));
  if (error !== undefined) throw error;
}

/** Filters each item of a stream as it arrives (`list --all`), in constant memory. */
export async function renderJqStream(io: IO, filter: JqFilter, items: Source): Promise<{ count: number }> {
  const it = iteratorOf(items);
  let count = 0;
  let done = false;
  try {
    for (;;) {
      const result = await it.next();
      if (result.done) {
        done = true;
        break;
      }
      await renderJq(io, filter, result.value);
      count++;
      if (isClosed(io.stdout)) break;
    }
  } finally {
    if (!done) await it.return?.();
  }
  return { count };
}
