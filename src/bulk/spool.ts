import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

export interface Spooled {
  path: string;
  /** SHA-256 of the whole input: the batch identity. */
  hash: string;
}

/**
 * Copies standard input to <dir>/spool/<hash>.input (the batch identity needs the whole input
 * before the first line is sent), hashing on the way. The same input spooled twice is one file.
 */
export async function spoolInput(input: NodeJS.ReadableStream, dir: string): Promise<Spooled> {
  const spoolDir = join(dir, 'spool');
  mkdirSync(spoolDir, { recursive: true, mode: 0o700 });
  const partial = join(spoolDir, `.${randomBytes(8).toString('hex')}.part`);
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(input, hashing, createWriteStream(partial, { mode: 0o600 }));
  const digest = hash.digest('hex');
  const path = join(spoolDir, `${digest}.input`);
  renameSync(partial, path);
  return { path, hash: digest };
}
