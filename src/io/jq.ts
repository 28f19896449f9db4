/**
 * `--jq EXPR`: the JSON a command would print, filtered by a real jq (jq-wasm: jq 1.7 compiled to
 * WebAssembly, shipped inside the npm package; nothing is downloaded), run in a worker thread
 * (src/io/jq-runner.ts) under a time limit. The module is imported only when the flag is given.
 *
 * Output is like `jq -c` with gh's twist: one result per line, compact JSON, strings raw.
 */
import { CancelledError, JqFalseError, UsageError } from '../errors.js';
import { batches } from './batches.js';
import type { Source } from './batches.js';
import { JqTimeLimitError, runInWorker } from './jq-runner.js';
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
  /** The last result of all runs so far as compact JSON (a string quoted), or undefined before any. */
  lastResult(): string | undefined;
}

/**
 * jq-wasm drops an error raised after some output, so every run is wrapped to turn the error into
 * one more output under this key (NUL-prefixed: no data has it). The newlines keep a trailing
 * `# comment` in the expression from swallowing the wrapper.
 */
const ERROR_KEY = '\u0000jq_error';
const ERROR_LINE_PREFIX = `{${JSON.stringify(ERROR_KEY)}:`;

/**
 * The inputs travel as one `--argjson` array, not on stdin: jq-wasm feeds stdin one byte at a time,
 * copying the rest of the buffer for each (quadratic: 35 KB took ~0.5 s). Arguments are copied
 * once, onto the WebAssembly stack (1-2 MiB), hence the size limit below.
 */
const INPUTS_VARIABLE = '__parcels_jq_inputs';
const MAX_INPUT_BYTES = 512 * 1024;

function wrapped(expression: string): string {
  return `$${INPUTS_VARIABLE}[] | try (\n${expression}\n) catch {${JSON.stringify(ERROR_KEY)}: .}`;
}

/** Items filtered per run on a stream: jq applies the filter to each input of a run in turn. */
const STREAM_BATCH = 100;
/** …or fewer, when the stream has been quiet this long (a slow list still shows its first results). */
const STREAM_IDLE_MS = 100;
/**
 * The longest one run may take. Real filters over a page or a batch of 100 items take
 * milliseconds; a filter still running after this never ends (`repeat(1)`, `def f: f; f`).
 */
export const JQ_TIME_LIMIT_MS = 10_000;

/** How long a run may take, and what cancels it (the command's SIGINT/SIGTERM). */
export interface JqLimits {
  timeLimitMs?: number;
  signal?: AbortSignal | undefined;
}

/** Runs `filter` with `-n -c`, the JSON array `inputs` bound to $__parcels_jq_inputs. */
function runJq(inputs: string, filter: string, limits: JqLimits): Promise<string> {
  return runInWorker(filter, ['-n', '-c', '--argjson', INPUTS_VARIABLE, inputs], { timeLimitMs: limits.timeLimitMs ?? JQ_TIME_LIMIT_MS, signal: limits.signal });
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

/**
 * jq's own complaints (they start "jq: ") are the user's to fix: exit 2, as are a filter that met
 * the time limit and one whose results outgrew jq's memory. Anything else is ours.
 */
function jqError(expression: string, error: unknown): unknown {
  if (error instanceof JqTimeLimitError) {
    return new UsageError(
      `--jq stopped: the filter gave ${error.message} (a filter that never ends, such as repeat(…) or a recursion without a base case?)`,
      '--jq',
      `check the expression: ${expression}`,
    );
  }
  const message = jqMessage(error);
  if (/\bOOM\b|out of memory|Memory\.grow/i.test(message)) return expressionError(expression, 'stopped: its results outgrew the memory jq may use');
  return message.startsWith('jq: ') ? expressionError(expression, message) : error;
}

/**
 * Compiles the expression by running it once on `null`: a syntax error fails here, before any
 * request is sent (exit 2). An error that depends on the input (`.[]` on null) is not a compile
 * error and waits for the real data.
 */
export async function compileJq(expression: string, limits: JqLimits = {}): Promise<JqFilter> {
  try {
    await runJq('[]', expression, limits);
  } catch (error) {
    const message = jqMessage(error);
    if (error instanceof CancelledError || error instanceof JqTimeLimitError) throw jqError(expression, error);
    if (!message.startsWith('jq: ') || /compile error/i.test(message)) throw jqError(expression, error);
  }
  let last: string | undefined;
  return {
    expression,
    lastResult: () => last,
    async run(inputs) {
      if (inputs.length === 0) return { lines: [] };
      const text = `[${inputs.map((input) => JSON.stringify(input) ?? 'null').join(',')}]`;
      if (Buffer.byteLength(text) > MAX_INPUT_BYTES) {
        throw new UsageError(
          `--jq takes JSON values up to ${MAX_INPUT_BYTES / 1024} KiB (this one is ${Math.ceil(Buffer.byteLength(text) / 1024)} KiB)`,
          '--jq',
          'print it with --json and filter it with a jq installed on the machine',
        );
      }
      let output: string;
      try {
        output = await runJq(text, wrapped(expression), limits);
      } catch (error) {
        throw jqError(expression, error);
      }
      const lines = output === '' ? [] : output.split('\n');
      const failed = lines.findIndex((l) => l.startsWith(ERROR_LINE_PREFIX));
      const results = failed === -1 ? lines : lines.slice(0, failed);
      last = results.at(-1) ?? last;
      if (failed === -1) return { lines: lines.map(printedLine) };
      const raised = (JSON.parse(lines[failed] as string) as Record<string, unknown>)[ERROR_KEY];
      const message = typeof raised === 'string' ? raised : `${JSON.stringify(raised)} (not a string)`;
      return { lines: results.map(printedLine), error: expressionError(expression, `jq: error: ${message}`) };
    },
  };
}

/**
 * `--jq-exit-status`, as `jq -e` decides: the command fails (exit 12) when the filter's last result
 * was false or null, or when it gave no result at all; its results are printed either way.
 */
export function checkLastResult(filter: JqFilter): void {
  const last = filter.lastResult();
  if (last === undefined) throw new JqFalseError(`--jq-exit-status: the filter gave no result (${filter.expression})`);
  if (last === 'false' || last === 'null') throw new JqFalseError(`--jq-exit-status: the filter's last result was ${last} (${filter.expression})`);
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
    for (const part of bySize(batch)) {
      await write(io, await filter.run(part));
      count += part.length;
      if (isClosed(io.stdout)) return { count };
    }
  }
  return { count };
}

/** Splits a batch so each run's inputs stay well inside MAX_INPUT_BYTES (an item too large alone is left to `run` to refuse). */
function bySize(batch: readonly unknown[]): unknown[][] {
  const parts: unknown[][] = [];
  let part: unknown[] = [];
  let bytes = 0;
  for (const item of batch) {
    const size = Buffer.byteLength(JSON.stringify(item) ?? 'null') + 1;
    if (part.length > 0 && bytes + size > MAX_INPUT_BYTES / 2) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(item);
    bytes += size;
  }
  if (part.length > 0) parts.push(part);
  return parts;
}
