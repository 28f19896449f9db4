/**
 * The target ids shell completion has worked out, remembered in one small file of its own
 * (`<data dir>/completion-targets.json`). A target id is a SHA-256 of the target
 * (src/config/target.ts), and loading node:crypto is ~8 ms and a young-generation collection: most
 * of a parcel-id or courier completion's time. The id is a pure function of the target, so a
 * remembered one never goes stale; the file only spares the hash on every key press after the first.
 */
import { join } from 'node:path';
import { dataDir } from '../config/paths.js';
import { readOwnFile } from '../config/own-file.js';
import { TARGET_ID, targetId, targetIdentity, type Target } from '../config/target.js';
import { writeFileAtomicSync } from '../config/whole-file.js';
import { isRecord } from '../schemas/record.js';

/** The targets remembered, hashed last; older ones are forgotten (they cost one hash when next used). A hit writes nothing. */
export const REMEMBERED_TARGETS = 32;

export function targetIdsPath(env: NodeJS.ProcessEnv): string {
  return join(dataDir(env), 'completion-targets.json');
}

/**
 * `targetId(target)`, from the file when it holds this target, else computed and added to it.
 * An unreadable, damaged or planted file (a link, a FIFO) only means the hash is computed; a file
 * that cannot be written is left as it is.
 */
export function rememberedTargetId(env: NodeJS.ProcessEnv, target: Target): string {
  const { kind, identity } = targetIdentity(target);
  const key = `${kind} ${identity}`;
  const path = targetIdsPath(env);
  const remembered = readRemembered(path);
  const known = remembered.get(key);
  if (known !== undefined && known.startsWith(`${kind}-`)) return known;
  const id = targetId(target);
  remembered.delete(key);
  remembered.set(key, id);
  const kept = [...remembered].slice(-REMEMBERED_TARGETS);
  try {
    writeFileAtomicSync(path, `${JSON.stringify(Object.fromEntries(kept))}\n`, { durable: false });
  } catch {
    // Completion never fails over its memo: the next key press computes the hash again.
  }
  return id;
}

function readRemembered(path: string): Map<string, string> {
  const entries = new Map<string, string>();
  let file: unknown;
  try {
    const text = readOwnFile(path);
    file = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return entries;
  }
  if (!isRecord(file)) return entries;
  for (const [key, id] of Object.entries(file)) if (typeof id === 'string' && TARGET_ID.test(id)) entries.set(key, id);
  return entries;
}
