import { closeSync, readSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { openOwnFile } from '../config/own-file.js';
import { basename, dirname, join, resolve } from 'node:path';
import type { JournalMeta, SentRecord } from './journal/records.js';
import type { Journal } from './journal/journal.js';
import { journalPath } from './journal/paths.js';
import type { ReadResult } from './journal/read.js';
import { readJournal } from './journal/read.js';
import { legacyLineKey } from './keys.js';
import type { BulkKind } from './types.js';

/**
 * The adapter through which a run reads journals of the released version (version 1): one per
 * input content (`create-<sha256>`) or --batch-id (`create-<id>`), naming lines by number. A run
 * of a batch with no journal of its own yet opens them with its journal and takes over what those
 * of the same input confirmed or left uncertain, line by line (a line is theirs when its number
 * and bytes still match), then removes them once it has read its whole input.
 *
 * They are told from this version's journals by name alone (`<kind>-…` against `<kind>~…`), so a
 * folder without one costs a directory listing: no other batch's journal is opened, and with none
 * found the run has no adapter at all (its lines never ask it).
 */

interface LegacyJournal {
  path: string;
  batch: string;
  read: ReadResult;
}

/** The input as the released version named its journals: its path, its --batch-id, its content's SHA-256. */
export interface LegacyInput {
  path: string | undefined;
  batchId: string | undefined;
  sha256: string;
}

export type LegacyAnswer = { kind: 'done'; entryId: string | undefined } | { kind: 'sent'; record: SentRecord } | undefined;

export class LegacyJournals {
  private constructor(private readonly journals: readonly LegacyJournal[]) {}

  /** Those of this input when `journal` is new (a batch that already ran has taken over its own); undefined when there are none. */
  static async forNewJournal(journal: Journal, dir: string, target: string, kind: BulkKind, input: LegacyInput): Promise<LegacyJournals | undefined> {
    const fresh = journal.lastInput === undefined && journal.done.size === 0 && journal.previous.size === 0;
    return fresh ? LegacyJournals.find(dir, target, kind, input) : undefined;
  }

  /** Those of this input (its path, or its --batch-id / standard-input content) in the target's folder; undefined when there are none. */
  private static async find(dir: string, target: string, kind: BulkKind, input: LegacyInput): Promise<LegacyJournals | undefined> {
    const folder = dirname(journalPath(dir, target, 'x'));
    let names: string[];
    try {
      names = readdirSync(folder).filter((name) => name.startsWith(`${kind}-`) && name.endsWith('.ndjson'));
    } catch {
      return undefined;
    }
    const wanted = new Set([`${kind}-${input.sha256}`, ...(input.batchId === undefined ? [] : [`${kind}-${input.batchId}`])]);
    const found: LegacyJournal[] = [];
    for (const name of names) {
      const path = join(folder, name);
      const meta = firstRecord(path);
      if (meta?.t !== 'meta' || meta.v !== 1 || meta.kind !== kind) continue;
      const samePath = input.path !== undefined && meta.input !== '-' && sameFile(meta.input, input.path);
      if (!samePath && !wanted.has(meta.batch)) continue;
      found.push({ path, batch: meta.batch.slice(kind.length + 1), read: await readJournal(path) });
    }
    return found.length === 0 ? undefined : new LegacyJournals(found);
  }

  /** What a journal of version 1 knows of this line, as it is now. */
  lookup(line: number, bytes: Uint8Array): LegacyAnswer {
    for (const journal of this.journals) {
      const key = legacyLineKey(journal.batch, line, bytes);
      if (journal.read.done.has(key)) return { kind: 'done', entryId: journal.read.done.entryId(key) };
      const sent = journal.read.lines.get(key)?.sent;
      if (sent !== undefined) return { kind: 'sent', record: sent };
    }
    return undefined;
  }

  /** Removes them (and their done files): everything they knew is in the new journal. */
  remove(): void {
    for (const journal of this.journals) {
      const name = basename(journal.path);
      rmSync(journal.path, { force: true });
      for (const other of readdirSync(dirname(journal.path))) {
        if (other.startsWith(`${name}.`) && other.endsWith('.done')) rmSync(join(dirname(journal.path), other), { force: true });
      }
    }
  }
}

function sameFile(recorded: string, path: string): boolean {
  try {
    return realpathSync(recorded) === path;
  } catch {
    return resolve(recorded) === path;
  }
}

/** The first record of a journal (its meta), read alone; undefined for one that cannot be read (not this run's to refuse: it is another batch's). */
function firstRecord(path: string): JournalMeta | undefined {
  let fd: number;
  try {
    fd = openOwnFile(path, 'read');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const newline = buffer.subarray(0, read).indexOf(0x0a);
    return newline === -1 ? undefined : (JSON.parse(buffer.toString('utf8', 0, newline)) as JournalMeta);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
