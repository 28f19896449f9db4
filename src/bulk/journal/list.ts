import { readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { DoneKeys } from './done.js';
import type { LineState, RunRecord } from './records.js';
import { JOURNAL_SUFFIX, journalsRoot } from './paths.js';
import { namesIn } from '../../config/own-file.js';
import { readJournal } from './read.js';

export interface JournalCounts {
  /** Lines confirmed by the service. */
  done: number;
  /** Lines the service refused (4xx): not applied. */
  rejected: number;
  /** Lines sent without a known outcome: resent with the same key by the next run. */
  uncertain: number;
  /** Lines waiting in the outbox (`--queue`): sent by `outbox flush`, not by the next run. */
  queued: number;
}

export interface JournalSummary {
  /** The journal's batch: `<kind>~<batch id>` (`<kind>-<hash or id>` for a journal of version 1). */
  batch: string;
  target: string;
  /** The target as the user knows it (profile and base URL, or the sandbox database), when the journal says. */
  where: string | undefined;
  input: string;
  kind: string;
  path: string;
  counts: JournalCounts;
  /** How its last run ended, in the words of its summary. */
  lastRun: RunRecord | undefined;
  /** Milliseconds since the journal was last written. */
  ageMs: number;
}

export function countLines(lines: ReadonlyMap<string, LineState>, done: DoneKeys): JournalCounts {
  const counts: JournalCounts = { done: done.size, rejected: 0, uncertain: 0, queued: 0 };
  for (const state of lines.values()) {
    if (state.rejected) counts.rejected++;
    else if (state.queued) counts.queued++;
    else if (state.sent) counts.uncertain++;
  }
  return counts;
}

function journalFiles(dir: string): string[] {
  const root = journalsRoot(dir);
  return namesIn(root).flatMap((target) =>
    readdirSync(join(root, target))
      .filter((name) => name.endsWith(JOURNAL_SUFFIX))
      .map((name) => join(root, target, name)),
  );
}

function spoolFiles(dir: string): string[] {
  const spool = join(dir, 'spool');
  return namesIn(spool)
    .filter((name) => name.endsWith('.input'))
    .map((name) => join(spool, name));
}

/** A journal a listing skipped: its path and why it cannot be read (damaged, a link, not a regular file). */
export interface UnreadableJournal {
  path: string;
  problem: string;
}

export interface JournalListing {
  /** Newest first. */
  journals: JournalSummary[];
  /** One damaged journal does not hide the others: it is skipped and named here. */
  unreadable: UnreadableJournal[];
}

/**
 * The lines a journal's last run kept in the outbox. A run record written before it counted them
 * has none: the lines the journal still marks queued stand in (a flush since may have sent some).
 */
export function queuedOf(journal: Pick<JournalSummary, 'lastRun' | 'counts'>): number {
  return journal.lastRun?.queued ?? journal.counts.queued;
}

/** Every journal in the data directory. */
export async function listJournals(dir: string, nowMs: number = Date.now()): Promise<JournalListing> {
  const found: Array<{ modifiedMs: number; summary: JournalSummary }> = [];
  const unreadable: UnreadableJournal[] = [];
  for (const path of journalFiles(dir)) {
    let read;
    try {
      read = await readJournal(path);
    } catch (error) {
      unreadable.push({ path, problem: (error as Error).message });
      continue;
    }
    if (read.meta === undefined) continue;
    const modifiedMs = statSync(path).mtimeMs;
    found.push({
      modifiedMs,
      summary: {
        batch: read.meta.batch,
        target: read.meta.target,
        where: read.meta.where,
        lastRun: read.lastRun,
        input: read.meta.input,
        kind: read.meta.kind,
        path,
        counts: countLines(read.lines, read.done),
        ageMs: Math.max(0, nowMs - modifiedMs),
      },
    });
  }
  // Newest first by the file's own time: ages in whole seconds tie for journals written in the same second.
  return { journals: found.sort((a, b) => b.modifiedMs - a.modifiedMs).map((entry) => entry.summary), unreadable };
}

/**
 * Removes journals not written for longer than `olderThanMs`, except those a run holds locked and
 * those of the batches in `keep` (the outbox), and standard-input spool files as old. Returns what it removed.
 */
export function pruneJournals(dir: string, olderThanMs: number, nowMs: number = Date.now(), keep: readonly string[] = []): string[] {
  const removed: string[] = [];
  const kept = new Set(keep.map((batch) => `${encodeURIComponent(batch)}.ndjson`));
  for (const path of [...journalFiles(dir), ...spoolFiles(dir)]) {
    if (kept.has(basename(path)) || nowMs - statSync(path).mtimeMs <= olderThanMs) continue;
    try {
      statSync(`${path}.lock`);
      continue;
    } catch {
      // No lock file: nobody is using it.
    }
    rmSync(path, { force: true });
    removed.push(path);
    // A compacted journal's done file goes with it.
    const name = basename(path);
    for (const other of readdirSync(dirname(path))) {
      if (other.startsWith(`${name}.`) && other.endsWith('.done')) rmSync(join(dirname(path), other), { force: true });
    }
  }
  return removed;
}
