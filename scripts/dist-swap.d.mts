import type { mkdirSync, renameSync, rmSync } from 'node:fs';

export interface BuildFileSystem {
  mkdir: typeof mkdirSync;
  rename: typeof renameSync;
  rm: typeof rmSync;
}
export declare function swapIn(staged: string, dist: string, fs?: BuildFileSystem): void;
