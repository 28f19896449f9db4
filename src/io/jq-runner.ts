/**
 * Runs jq off the main thread: jq-wasm (jq 1.7 compiled to WebAssembly) in a worker thread, so a
 * filter that never ends (`repeat(1)`, `def f: f; f`) neither blocks Ctrl-C and SIGTERM nor runs
 * for ever. A run ends with its results, with a time limit met, or on the command's signal; the
 * last two terminate the worker (the next run starts a fresh one).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { CancelledError } from '../errors.js';

/**
 * One jq-wasm 1.0.1 instance wears out: its function table breaks after about 310 runs ("Unknown
 * function type"), and each run leaves its arguments on the WebAssembly stack (1-2 MiB), never
 * popped. A fresh instance costs 12-16 ms, so one serves this many runs or argument bytes and is
 * then replaced.
 */
const RUNS_PER_INSTANCE = 100;
const ARGUMENT_BYTES_PER_INSTANCE = 768 * 1024;

/**
 * The worker, as source: it needs no build step of its own (the same text runs under the test
 * runner and from dist/). jq's own errors (starting "jq: ") leave the instance sound; a
 * WebAssembly fault (an abort) does not, and the instance is dropped.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const loaded = require(workerData.jq);
const create = loaded.default ?? loaded;
let current;
parentPort.on('message', async ({ id, args, filter, bytes }) => {
  if (current === undefined || current.runs >= ${RUNS_PER_INSTANCE} || current.bytes + bytes > ${ARGUMENT_BYTES_PER_INSTANCE}) {
    current = { instance: create(), runs: 0, bytes: 0 };
  }
  current.runs++;
  current.bytes += bytes;
  const used = current;
  try {
    const instance = await used.instance;
    parentPort.postMessage({ id, started: true });
    parentPort.postMessage({ id, output: await instance.raw('', filter, args) });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!message.trim().startsWith('jq: ') && current === used) current = undefined;
    parentPort.postMessage({ id, error: message });
  }
});
`;

/** A run that met its time limit. */
export class JqTimeLimitError extends Error {
  override readonly name = 'JqTimeLimitError';
}

interface Pending {
  /** The filter began to run (the worker and jq are loaded): its time limit starts now. */
  started(): void;
  resolve(output: string): void;
  reject(error: Error): void;
}

let worker: { thread: Worker; pending: Map<number, Pending> } | undefined;
let nextId = 0;

function startWorker(): NonNullable<typeof worker> {
  const jq = createRequire(import.meta.url).resolve('jq-wasm/dist/build/jq.js');
  const thread = new Worker(WORKER_SOURCE, { eval: true, workerData: { jq } });
  const started = { thread, pending: new Map<number, Pending>() };
  const failAll = (error: Error): void => {
    if (worker === started) worker = undefined;
    for (const p of started.pending.values()) p.reject(error);
    started.pending.clear();
  };
  thread.on('message', (m: { id: number; started?: true; output?: string; error?: string }) => {
    const p = started.pending.get(m.id);
    if (p === undefined) return;
    if (m.started) {
      p.started();
      return;
    }
    started.pending.delete(m.id);
    if (started.pending.size === 0) thread.unref();
    if (m.error === undefined) p.resolve(m.output ?? '');
    else p.reject(new Error(m.error));
  });
  thread.on('error', failAll);
  thread.on('exit', () => failAll(new Error('the jq worker stopped')));
  thread.unref();
  return started;
}

/** Stops the worker at once (a runaway filter is not waited for). */
function stopWorker(): void {
  const stopping = worker;
  worker = undefined;
  if (stopping !== undefined) void stopping.thread.terminate();
}

/**
 * `jq <args>` with `filter`; rejects with JqTimeLimitError `timeLimitMs` after the filter began
 * (loading the worker and jq does not count), with a
 * CancelledError when `signal` aborts, with jq's error otherwise.
 */
export function runInWorker(filter: string, args: string[], limits: { timeLimitMs: number; signal?: AbortSignal | undefined }): Promise<string> {
  const { signal } = limits;
  // The exit code (130 or 143) is decided from the signal itself (src/cli.ts).
  if (signal?.aborted) return Promise.reject(new CancelledError());
  worker ??= startWorker();
  const { thread, pending } = worker;
  const id = ++nextId;
  const bytes = args.reduce((sum, a) => sum + Buffer.byteLength(a) + 1, Buffer.byteLength(filter) + 1);
  return new Promise<string>((resolve, reject) => {
    const finish = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const stop = (error: Error): void => {
      finish();
      pending.delete(id);
      stopWorker();
      reject(error);
    };
    const onAbort = (): void => stop(new CancelledError());
    let timer: NodeJS.Timeout | undefined;
    signal?.addEventListener('abort', onAbort, { once: true });
    pending.set(id, {
      started: () => {
        timer = setTimeout(() => stop(new JqTimeLimitError(`no result within ${limits.timeLimitMs / 1000} s`)), limits.timeLimitMs);
      },
      resolve: (output) => (finish(), resolve(output)),
      reject: (error) => (finish(), reject(error)),
    });
    thread.ref();
    thread.postMessage({ id, args, filter, bytes });
  });
}
