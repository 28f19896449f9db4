/**
 * `parcels __complete WORD…`: the candidates for the last word of a command line, derived from the
 * command definitions (commands, subcommands, flags) plus values: code names built in from the
 * spec, and what the local caches hold (profiles, couriers, reference names, parcel ids). Runs on
 * the fast path: no commander, no command modules, no network.
 */
import type { FlagSpec } from '../definitions/definition.js';
import type { FlagSyntax } from '../io/hint.js';
import { flagSyntax, helpDescription } from '../definitions/definition.js';
import { GLOBAL_FLAGS } from '../definitions/globals.js';
import { COMMANDS } from '../definitions/table.js';
import { groupDescription } from '../definitions/groups.js';
import { OUTPUT_FORMATS } from '../io/output-format.js';
import { OUTCOME_NAMES, REASON_NAMES, STATUS_NAMES } from '../schemas/codes.js';
import { ROUTES } from '../schemas/routes.js';

export interface Candidate {
  value: string;
  description?: string;
}

/** Where values come from; the fast path passes readers of the local caches. */
export interface ValueSources {
  env: NodeJS.ProcessEnv;
  profiles(): { current: string | undefined; names: string[]; baseUrls: Record<string, string> };
  /** The id per-target caches are kept under, for --sandbox or a base URL; undefined without either. */
  targetKey(line: { sandbox: boolean; baseUrl: string | undefined }): string | undefined;
  couriers(target: string): { code: string; name?: string }[];
  /**
   * Asks the service for its couriers (which caches them), when none are cached yet: `where` are
   * the command line's target flags. Short and silent: nothing happens on failure.
   */
  fetchCouriers?(where: readonly string[]): void;
  codeNames(target: string): Record<string, Record<string, string>>;
  parcelIds(target: string): string[];
}

interface FlagInfo extends FlagSyntax {
  repeatable: boolean;
  description: string;
  choices?: readonly string[];
}

/** The four scopes, as the spec's route table names them. */
const SCOPES = [...new Set(ROUTES.map((route) => route.scope))];
/** The spec's metric names (section 4.8): activity, planned, coverage. */
const METRICS = ['activity', 'planned', 'coverage'];
const SHELLS = ['bash', 'zsh', 'fish'];
const HTTP_METHODS = ['GET', 'POST', 'PATCH'];
/** `config set` keys; the same list as SETTABLE_KEYS in src/config/store.ts (a test checks), which loads zod. */
export const CONFIG_KEYS = ['output', 'timeout', 'retries', 'base_url'];
/** The topics of `parcels help TOPIC` (src/help.ts; a test checks they are the same). */
export const HELP_TOPICS = ['exit-codes', 'environment'];
/**
 * A value is typed into the command line as is (SAFE_VALUE below). A
 * description becomes one line without control characters, as src/io/sanitize.ts does (not imported:
 * it reaches zod through src/schemas/text.ts, too heavy for completion).
 */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
/** A shell shows every candidate; past this many parcel ids the list stops helping. */
const MAX_IDS = 50;

function flagInfo(spec: FlagSpec): FlagInfo {
  return {
    ...flagSyntax(spec),
    repeatable: spec.type === 'list',
    description: helpDescription(spec),
    ...(spec.type === 'choice' ? { choices: spec.choices } : {}),
  };
}

/** Every command takes the global flags, and commander's --help. */
const EVERY_COMMAND_FLAGS: readonly FlagInfo[] = [
  ...Object.values(GLOBAL_FLAGS).map(flagInfo),
  { long: '--help', short: '-h', takesValue: false, repeatable: false, description: 'show help for a command' },
];

/**
 * The only shape of value offered: letters, digits and `_ . : @ % + / = { } -`. Bash inserts a
 * candidate as it is, so a value from a service (a courier code such as ``D$(touch x)`id`;id``)
 * with a quote, `$`, a backtick, `;`, `|`, `&`, `<`, `>`, `*`, `?`, `~`, `!`, `#`, a comma (brace
 * expansion) or a space would run when the line is entered. zsh and fish quote what they insert;
 * one rule for all three keeps them offering the same values.
 */
const SAFE_VALUE = /^[\p{L}\p{N}_.:@%+/={}-]+$/u;

/** Only what a shell can take as it is and a terminal can show: a safe shape, no control characters in the description. */
function clean(candidate: Candidate): Candidate | undefined {
  if (!SAFE_VALUE.test(candidate.value)) return undefined;
  const description = candidate.description?.replace(BREAKS, ' ').replace(CONTROLS, '').trim();
  return description ? { value: candidate.value, description } : { value: candidate.value };
}

function named(table: Readonly<Record<string | number, string>>, max?: number): Candidate[] {
  return Object.entries(table)
    .filter(([code]) => max === undefined || Number(code) <= max)
    .map(([code, name]) => ({ value: name, description: `code ${code}` }));
}

function codes(table: Readonly<Record<string, string>> | undefined): Candidate[] {
  return Object.entries(table ?? {}).map(([code, name]) => ({ value: code, description: name }));
}

interface Line {
  /** Words of the command path matched so far (`['events', 'add']`). */
  path: string[];
  /** The command, once the path names one. */
  command: (typeof COMMANDS)[number] | undefined;
  /** The positional words, in order. */
  words: string[];
  given: Set<string>;
  profile: string | undefined;
  baseUrl: string | undefined;
  sandbox: boolean;
  /** The target flags as typed (`--sandbox`, `-p ops`, `--base-url=…`), for a command run on the same target. */
  where: string[];
}

/** The flags that choose the service a command talks to. */
const TARGET_FLAGS = ['--sandbox', '--profile', '--base-url'];

function flagsOf(line: Line): FlagInfo[] {
  return [...EVERY_COMMAND_FLAGS, ...Object.values(line.command?.flags ?? {}).map(flagInfo)];
}

function findFlag(line: Line, word: string): FlagInfo | undefined {
  return flagsOf(line).find((f) => f.long === word || f.short === word);
}

/** Records what a flag's value tells completion about the target (profile, base URL). */
function noteValue(line: Line, flag: FlagInfo, value: string): void {
  if (flag.long === '--profile') line.profile = value;
  if (flag.long === '--base-url') line.baseUrl = value;
}

function parseLine(words: readonly string[]): { line: Line; pending: FlagInfo | undefined } {
  const line: Line = { path: [], command: undefined, words: [], given: new Set(), profile: undefined, baseUrl: undefined, sandbox: false, where: [] };
  let pending: FlagInfo | undefined;
  let flagsEnded = false;
  for (const word of words) {
    if (pending !== undefined) {
      noteValue(line, pending, word);
      if (TARGET_FLAGS.includes(pending.long)) line.where.push(word);
      pending = undefined;
      continue;
    }
    if (!flagsEnded && word === '--') {
      flagsEnded = true;
      continue;
    }
    if (!flagsEnded && word.startsWith('-') && word.length > 1) {
      const [name = word, inline] = word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word];
      const flag = findFlag(line, name);
      if (flag === undefined) continue;
      line.given.add(flag.long);
      if (TARGET_FLAGS.includes(flag.long)) line.where.push(word);
      if (flag.long === '--sandbox') line.sandbox = true;
      if (flag.takesValue && inline === undefined) pending = flag;
      else if (inline !== undefined) noteValue(line, flag, inline);
      continue;
    }
    // A word extends the command path while some command lies below it (`usage` runs, and `usage daily` too).
    if (line.words.length === 0) {
      const path = [...line.path, word];
      const matches = COMMANDS.filter((c) => path.every((part, i) => c.path[i] === part));
      if (matches.length > 0) {
        line.path = path;
        line.command = matches.find((c) => c.path.length === path.length);
        continue;
      }
    }
    line.words.push(word);
  }
  return { line, pending };
}

/** The cache key of the service the completed command would talk to: flag, environment, profile. */
function targetKey(line: Line, sources: ValueSources): string | undefined {
  if (line.sandbox) return sources.targetKey({ sandbox: true, baseUrl: undefined });
  const view = sources.profiles();
  const profile = line.profile || sources.env.PARCELS_PROFILE || view.current || 'default';
  return sources.targetKey({ sandbox: false, baseUrl: line.baseUrl || sources.env.PARCELS_BASE_URL || view.baseUrls[profile] });
}

/** Values some cache of the target holds; none when there is no target. */
function fromTarget<T>(line: Line, sources: ValueSources, read: (target: string) => T[]): T[] {
  const key = targetKey(line, sources);
  return key === undefined ? [] : read(key);
}

function flagValues(flag: FlagInfo, line: Line, sources: ValueSources): Candidate[] {
  const names = (kind: string): Record<string, string> => {
    const key = targetKey(line, sources);
    return key === undefined ? {} : (sources.codeNames(key)[kind] ?? {});
  };
  switch (flag.long) {
    case '--profile':
      return sources.profiles().names.map((value) => ({ value }));
    case '--require-scope':
      return SCOPES.map((value) => ({ value }));
    case '--status': {
      // Names for statuses 4 and 5 come only from a cached reference answer; events take 0–3.
      const events = line.command?.path.join(' ') === 'events add';
      return named({ ...names('status'), ...STATUS_NAMES }, events ? 3 : 5);
    }
    case '--outcome':
      return named(OUTCOME_NAMES);
    case '--reason':
      return named(REASON_NAMES);
    case '--delivered-location-type':
      return codes(names('location_type'));
    case '--service-type':
      return codes(names('service_type'));
    case '--courier': {
      let couriers = fromTarget(line, sources, sources.couriers);
      if (couriers.length === 0 && sources.fetchCouriers !== undefined && targetKey(line, sources) !== undefined) {
        sources.fetchCouriers(line.where);
        couriers = fromTarget(line, sources, sources.couriers);
      }
      return couriers.map((c) => ({ value: c.code, ...(c.name === undefined ? {} : { description: c.name }) }));
    }
    default:
      return (flag.choices ?? []).map((value) => ({ value }));
  }
}

function argumentValues(line: Line, sources: ValueSources): Candidate[] {
  const command = line.command;
  if (command === undefined) return [];
  // Required (<id>) and optional ([id]) arguments alike.
  const args = (command.args ?? '').match(/[<[][\w-]+[>\]]/g) ?? [];
  const listed = command.argValues?.[line.words.length];
  if (listed !== undefined) return Object.entries(listed.values).map(([value, description]) => ({ value, description }));
  const arg = args[line.words.length]?.slice(1, -1);
  if (arg === 'id') return fromTarget(line, sources, sources.parcelIds).slice(0, MAX_IDS).map((value) => ({ value }));
  if (arg === 'metric') return METRICS.map((value) => ({ value }));
  if (arg === 'shell') return SHELLS.map((value) => ({ value }));
  if (arg === 'method') return HTTP_METHODS.map((value) => ({ value }));
  if (arg === 'path') return routePaths();
  if (arg === 'key') return CONFIG_KEYS.map((value) => ({ value }));
  if (arg === 'value' && line.words.at(-1) === 'output') return OUTPUT_FORMATS.map((value) => ({ value }));
  return [];
}

/** The spec's route paths, each with the methods it takes (`{id}` left for the user to fill in). */
function routePaths(): Candidate[] {
  const methods = new Map<string, string[]>();
  for (const route of ROUTES) methods.set(route.path, [...(methods.get(route.path) ?? []), route.method]);
  return [...methods].map(([value, list]) => ({ value, description: list.join(', ') }));
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
  return filter([...below, ...argumentValues(line, sources)], current);
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

/** One candidate per line, a tab and the description after it when there is one. */
export function formatCandidates(candidates: readonly Candidate[]): string {
  return candidates.map((c) => (c.description === undefined ? c.value : `${c.value}\t${c.description}`)).join('\n') + (candidates.length > 0 ? '\n' : '');
}
