import { setFlagsFromString } from 'node:v8';

/**
 * The heap of a bulk run. A run allocates fast and keeps little: with V8's default growth the old
 * generation fills with garbage far past what the run holds. Growing it 10% at a time keeps a
 * 100,000-line import's peak RSS ~15% lower; keeping the young generation at its size (V8 doubles
 * it up to 32 MB whenever enough has survived since it last grew, which a long run always reaches)
 * saves ~28 MB more for the same CPU (BENCHMARKS.md). The process ends with the run.
 */
export const BULK_HEAP_FLAGS = ['--heap-growing-percent=10', '--semi-space-growth-factor=1'] as const;

/** V8's own growth of the young generation (its default factor). */
const YOUNG_GENERATION_GROWS = '--semi-space-growth-factor=2';
const YOUNG_GENERATION_HELD = '--semi-space-growth-factor=1';

let held = false;

/** Sets BULK_HEAP_FLAGS for the rest of the process. */
export function holdBulkHeap(): void {
  for (const flag of BULK_HEAP_FLAGS) setFlagsFromString(flag);
  held = true;
}

/**
 * Runs `read` with the young generation free to grow, then holds it again at the size it reached.
 * For a read of the whole input before anything is sent (the created index's check): held at its
 * first size, the young generation is scavenged ~3.5 times as often and promotes what the read
 * holds for a moment, which made the check of a 100,000-line file cost ~0.4 s of CPU more; a
 * million-line one grows it to V8's cap (~12 MB more RSS through the run, BENCHMARKS.md). In a
 * process that did not hold the heap (tests, --check) nothing is changed.
 */
export async function withYoungGenerationGrowing<T>(read: () => Promise<T>): Promise<T> {
  if (!held) return read();
  setFlagsFromString(YOUNG_GENERATION_GROWS);
  try {
    return await read();
  } finally {
    setFlagsFromString(YOUNG_GENERATION_HELD);
  }
}
