/**
 * `--jq EXPR`: the JSON a command would print, filtered by a real jq (jq-wasm: jq 1.7 compiled to
 * WebAssembly, shipped inside the npm package; nothing is downloaded). The module is imported only
 * when the flag is given.
 *
 * Output is like `jq -c` with gh's twist: one result per line, compact JSON, strings raw.
 */
import { UsageError } from '../errors.js';
import { batches } from './batches.js';
import type { Source } from './batches.js';
import { sanitize } from './sanitize.js';
import { isClosed, writeOut } from './streams.js';
import type { IO } from './streams.js';

export interface JqFilter {
  readonly expression: string;
  /**
   * The results of the filter on each input in turn, each as the line it prints as, and the error
   * that stopped it, if one did (the lines before it are the results up to that point).
   */
  run(inputs: readonly unknown[]): Promise<{ lines: string[]; error?: UsageError }>;
}

/**
 * jq-wasm drops an error raised after some output, so every run is wrapped to turn the error into
 * one more output under this key (NUL-prefixed: no data has it). The newlines keep a trailing
 * `# comment` in the expression from swallowing the wrapper.
 */
const ERROR_KEY = '\u0000jq_error';
const ERROR_LINE_PREFIX = `{${JSON.stringify(ERROR_KEY)}:`;

function wrapped(expression: string): string {
  return `try (\n${expression}\n) catch {${JSON.stringify(ERROR_KEY)}: .}`;
}

interface JqInstance {
  raw(input: string, filter: string, flags: string[]): Promise<string>;
}

/**
 * jq-wasm 1.0.1 corrupts an instance's function table after about 310 runs ("Unknown function
 * type", then memory faults), whatever the input. A fresh instance costs 12-16 ms, so one serves
 * this many runs and is then replaced. Streams are filtered a batch of items per run.
 */
const RUNS_PER_INSTANCE = 100;
/** Items filtered per run on a stream: jq applies the filter to each input of a run in turn. */
const STREAM_BATCH = 100;
/** …or fewer, when the stream has been quiet this long (a slow list still shows its first results). */
const STREAM_IDLE_MS = 100;

let factory: Promise<() => Promise<JqInstance>> | undefined;
let current: { instance: Promise<JqInstance>; runs: number } | undefined;

function loadFactory(): Promise<() => Promise<JqInstance>> {
  // The Emscripten factory itself (the package's `raw` shares one instance for ever). It is CommonJS:
  // its module.exports arrives as `default`.
  factory ??= import('jq-wasm/dist/build/jq.js').then((module) => {
    const create = (module as { default: (options?: object) => Promise<unknown> }).default;
    // The instance is untyped (jq.d.ts declares Promise<any>); it has the `raw` the package's own index calls.
    return () => create() as Promise<JqInstance>;
  });
  return factory;
}

async function runJq(input: string, filter: string): Promise<string> {
  const create = await loadFactory();
  if (current === undefined || current.runs >= RUNS_PER_INSTANCE) current = { instance: create(), runs: 0 };
  current.runs++;
  const instance = await current.instance;
  return instance.raw(input, filter, ['-c']);
}

/** jq's own message, on one line. */
function jqMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .split('\n')
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
  try {
    await runJq('null', expression);
  } catch (error) {
    const message = jqMessage(error);
    if (!message.startsWith('jq: ') || /compile error/i.test(message)) throw jqError(expression, error);
  }
  return {
    expression,
    async run(inputs) {
      if (inputs.length === 0) return { lines: [] };
      let output: string;
      try {
        // JSON text, one value per line: jq reads each as an input.
        output = await runJq(inputs.map((input) => JSON.stringify(input) ?? 'null').join('\n'), wrapped(expression));
      } catch (error) {
        throw jqError(expression, error);
      }
      const lines = output === '' ? [] : output.split('\n');
      const failed = lines.findIndex((l) => l.startsWith(ERROR_LINE_PREFIX));
      if (failed === -1) return { lines: lines.map(printedLine) };
      const raised = (JSON.parse(lines[failed] as string) as Record<string, unknown>)[ERROR_KEY];
      const message = typeof raised === 'string' ? raised : `${JSON.stringify(raised)} (not a string)`;
      return { lines: lines.slice(0, failed).map(printedLine), error: expressionError(expression, `jq: error: ${message}`) };
    },
  };
}

/** A compact JSON line as printed: a string result raw, anything else as it is. */
function printedLine(json: string): string {
  if (!json.startsWith('"')) return json;
  try {
    return JSON.parse(json) as string;
  } catch {
    return json;
  }
}

async function write(io: IO, result: { lines: string[]; error?: UsageError }): Promise<void> {
  // Raw strings come from the service: on a terminal their control characters are shown inert.
  const text = result.lines.map((l) => `${io.stdoutIsTTY ? sanitize(l) : l}\n`).join('');
  await writeOut(io.stdout, text);
  if (result.error !== undefined) throw result.error;
}

/** Filters one value (a record, a page, a response body) and prints every result. */
export async function renderJq(io: IO, filter: JqFilter, value: unknown): Promise<void> {
  await write(io, await filter.run([value]));
}

/** Filters each item of a stream as it arrives (`list --all`), a batch per jq run, in constant memory. */
export async function renderJqStream(io: IO, filter: JqFilter, items: Source): Promise<{ count: number }> {
  let count = 0;
  for await (const batch of batches(items, STREAM_BATCH, STREAM_IDLE_MS)) {
    await write(io, await filter.run(batch));
    count += batch.length;
    if (isClosed(io.stdout)) break;
  }
  return { count };
}
