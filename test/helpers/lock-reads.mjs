// Preloaded (--import) into a spawned `parcels` by tests that must act once it waits for a lock:
// the first time the process reads the holder's pid out of a `.lock` file (it found the lock taken
// and waits), it leaves an empty file named after its pid in $PARCELS_TEST_LOCK_READS.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';

const dir = process.env.PARCELS_TEST_LOCK_READS;
if (dir) {
  const read = fs.readFileSync;
  let seen = false;
  fs.readFileSync = function readFileSync(path, ...rest) {
    if (!seen && typeof path === 'string' && path.endsWith('.lock')) {
      seen = true;
      fs.writeFileSync(join(dir, String(process.pid)), '');
    }
    return read.call(this, path, ...rest);
  };
  syncBuiltinESMExports();
}
