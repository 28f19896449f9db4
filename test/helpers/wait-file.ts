import { existsSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Resolves once `path` exists: at once when it does, else on the directory's change event naming it (no polling, no sleep). */
export function fileAppears(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dirname(path), (_event, name) => {
      if (name !== basename(path) || !existsSync(path)) return;
      watcher.close();
      resolve();
    });
    watcher.on('error', reject);
    // Made between the check below and the watch above would be missed: the watch comes first.
    if (existsSync(path)) {
      watcher.close();
      resolve();
    }
  });
}
