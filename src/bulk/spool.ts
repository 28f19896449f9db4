import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { WholeFileWriter } from '../config/whole-file.js';
import { holdsNul, NotTextError } from './input-lines.js';

export interface Spooled {
  path: string;
  /** SHA-256 of the whole input: the batch identity. */
  hash: string;
}

/**
 * Copies piped input (standard input, or a --from that is not a regular file: a pipe, a device) to
 * <dir>/spool/<hash>.input (the batch identity needs the whole input before the first line is
 * sent), hashing on the way. The same input spooled twice is one file. Input whose first read
 * holds a NUL byte is refused at once (NotTextError); `signal` ends the copy (the partial file is
 * removed). A symbolic link where the spool file goes is refused (SymlinkError), its target untouched.
 */
export async function spoolInput(input: NodeJS.ReadableStream, dir: string, name = '-', signal?: AbortSignal): Promise<Spooled> {
  const spoolDir = join(dir, 'spool');
  const spool = WholeFileWriter.create(spoolDir, 'input');
  const hash = createHash('sha256');
  let first = true;
  const checking = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (first && holdsNul(chunk)) return done(new NotTextError(name, undefined));
      first = false;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      input,
      checking,
      async (chunks: AsyncIterable<Buffer>) => {
        for await (const chunk of chunks) spool.write(chunk);
      },
      signal === undefined ? {} : { signal },
    );
  } catch (error) {
    spool.discard();
    throw error;
  }
  const digest = hash.digest('hex');
  const path = join(spoolDir, `${digest}.input`);
  // Not fsync'd: a spool lost to a power cut is only read from standard input again.
  spool.commit(path, { durable: false });
  return { path, hash: digest };
}
