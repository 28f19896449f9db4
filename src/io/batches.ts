/** Items of a list as they arrive, grouped for printing (the stream mode of renderList). */

export type Source = AsyncIterable<unknown> | Iterable<unknown>;

export function iteratorOf(source: Source): AsyncIterator<unknown> | Iterator<unknown> {
  if (Symbol.asyncIterator in source) return (source as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  return (source as Iterable<unknown>)[Symbol.iterator]();
}

/**
 * Group items into batches: a batch is handed on when it is full or when the source has been
 * quiet for `idleMs` with items waiting, so a slow source still shows its first rows at once.
 */
export async function* batches(source: Source, size: number, idleMs: number): AsyncGenerator<unknown[]> {
  const it = iteratorOf(source);
  let batch: unknown[] = [];
  let pending: Promise<IteratorResult<unknown>> | undefined;
  let finished = false;
  try {
    for (;;) {
      pending ??= Promise.resolve(it.next());
      let result: IteratorResult<unknown> | 'idle';
      if (batch.length > 0) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const idle = new Promise<'idle'>((resolve) => {
          timer = setTimeout(() => resolve('idle'), idleMs);
        });
        result = await Promise.race([pending, idle]);
        clearTimeout(timer);
      } else {
        result = await pending;
      }
      if (result === 'idle') {
        yield batch;
        batch = [];
        continue;
      }
      pending = undefined;
      if (result.done) {
        finished = true;
        break;
      }
      batch.push(result.value);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } finally {
    // Stopped early (closed pipe): let the source clean up (e.g. stop fetching pages).
    if (!finished && typeof it.return === 'function') {
      const stop = async (): Promise<void> => {
        if (pending) await pending.catch(() => undefined);
        await it.return?.();
      };
      void stop().catch(() => undefined);
    }
  }
}
