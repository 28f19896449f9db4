/**
 * `parcels __complete WORD…`: the candidates for the last word of a command line, derived from the
 * command definitions (commands, subcommands, flags) plus values: code names built in from the
 * spec, and what the local caches hold (profiles, couriers, reference names, parcel ids). Runs on
 * the fast path: no commander, no command modules, no network.
 */
import { COMMANDS } from '../definitions/table.js';
import { groupDescription } from '../definitions/groups.js';
import { findFlag, flagsOf, parseLine } from './parse-line.js';
import type { Candidate, ValueSources } from './value-candidates.js';
import { argumentValues, flagValues } from './value-candidates.js';
import { isBareWord } from '../hint/shell.js';
import { inertText } from '../schemas/terminal-text.js';
import { recordFieldsOf } from '../schemas/record-fields.js';

/** The topics of `parcels help TOPIC` (src/help.ts; a test checks they are the same). */
export const HELP_TOPICS = ['exit-codes', 'environment'];
/**
 * Only what a shell takes as it is and a terminal can show. Bash inserts a candidate as it is, so a
 * value from a service (a courier code such as ``D$(touch x)`id`;id``, `{1..3}`, `=ls`, `%self`)
 * is offered only in the one bare shape every shell reads back verbatim (src/hint/shell.ts); zsh
 * and fish quote what they insert, and one rule for all three keeps them offering the same values.
 * A description passes the one rule for a service's text on a screen (src/schemas/terminal-text.ts).
 */
function clean(candidate: Candidate): Candidate | undefined {
  if (!isBareWord(candidate.value) || candidate.value.startsWith(':')) return undefined;
  const description = candidate.description === undefined ? undefined : inertText(candidate.description).trim();
  return description ? { value: candidate.value, description } : { value: candidate.value };
}

/** Commands and groups one level below the path typed so far. */
function subcommands(path: readonly string[]): Candidate[] {
  const seen = new Map<string, string>();
  for (const command of COMMANDS) {
    if (!path.every((part, i) => command.path[i] === part) || command.path.length <= path.length) continue;
    const next = command.path[path.length] as string;
    if (!seen.has(next)) seen.set(next, command.path.length === path.length + 1 ? command.summary : groupDescription(next));
  }
  const out = [...seen].map(([value, description]) => ({ value, description }));
  if (path.length === 0) out.push({ value: 'help', description: 'help for a command, or a topic: exit-codes, environment' });
  return out;
}

export function complete(words: readonly string[], sources: ValueSources): Candidate[] {
  const current = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  if (before[0] === 'help') {
    const below = subcommands(before.slice(1)).filter((c) => c.value !== 'help');
    return filter([...HELP_TOPICS.map((value) => ({ value })), ...below], current);
  }
  const { line, pending } = parseLine(before);
  if (pending?.long === '--fields') return filter(fieldCandidates(line.path, current), current);
  if (pending !== undefined) return filter(flagValues(pending, line, sources), current);

  if (current.startsWith('-')) {
    const eq = current.indexOf('=');
    if (eq > 0) {
      const flag = findFlag(line, current.slice(0, eq));
      if (flag === undefined || !flag.takesValue) return [];
      const prefix = `${current.slice(0, eq)}=`;
      return filter(flagValues(flag, line, sources).map((c) => ({ ...c, value: prefix + c.value })), current);
    }
    const flags = flagsOf(line).filter((f) => f.repeatable || !line.given.has(f.long));
    return filter(flags.map((f) => ({ value: f.long, description: f.description })), current);
  }
  const below = line.words.length === 0 ? subcommands(line.path) : [];
  return filter([...below, ...argumentValues(line, sources, current)], current);
}

/** `--fields a,b,…`: the fields not given yet, each after those typed (`entry_id,status`), as gh completes them. */
function fieldCandidates(path: readonly string[], current: string): Candidate[] {
  const head = current.slice(0, current.lastIndexOf(',') + 1);
  const given = new Set(head.split(','));
  return recordFieldsOf(path)
    .filter((field) => !given.has(field))
    .map((field) => ({ value: head + field }));
}

/**
 * Where the word being typed is a file name (`--from <file>`, `--data @body.json`): the part of it
 * before the name, for the shell to keep while it completes files itself. Undefined elsewhere.
 */
export function filesAfter(words: readonly string[]): string | undefined {
  const current = words.at(-1) ?? '';
  const { pending } = parseLine(words.slice(0, -1));
  const prefix = pending?.filesAfter;
  return prefix !== undefined && current.startsWith(prefix) ? prefix : undefined;
}

function filter(candidates: readonly Candidate[], prefix: string): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    const safe = clean(candidate);
    if (safe === undefined || !safe.value.startsWith(prefix) || seen.has(safe.value)) continue;
    seen.add(safe.value);
    out.push(safe);
  }
  return out;
}

/**
 * The line that tells the completion scripts to complete file names themselves, after the prefix
 * that follows it (`:files@`). A candidate never starts with `:` (see clean), so it is never one.
 */
export const FILES_DIRECTIVE = ':files';

/** One candidate per line, a tab and the description after it when there is one. */
export function formatCandidates(candidates: readonly Candidate[]): string {
  return candidates.map((c) => (c.description === undefined ? c.value : `${c.value}\t${c.description}`)).join('\n') + (candidates.length > 0 ? '\n' : '');
}
