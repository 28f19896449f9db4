import { completionTarget, readCachedCodeNames, readCachedCouriers, readProfiles, readRecentParcelIds } from './values.js';
import type { ValueSources } from './value-candidates.js';
import { FILES_DIRECTIVE, complete, filesAfter, formatCandidates } from './complete.js';
import { longFlag } from '../definitions/definition.js';
import { GLOBAL_FLAGS } from '../definitions/globals.js';

/** The hidden `parcels __complete WORD…`: candidates from the definitions and the local caches only. */
export function answerCompletion(words: readonly string[], env: NodeJS.ProcessEnv): string {
  let profiles: ReturnType<typeof readProfiles> | undefined;
  const sources: ValueSources = {
    env,
    profiles: () => (profiles ??= readProfiles(env)),
    targetKey: (line) => completionTarget(env, line),
    couriers: (target) => readCachedCouriers(env, target),
    fetchCouriers: (where) => fetchCouriers(where, env),
    codeNames: (target) => readCachedCodeNames(env, target),
    parcelIds: (target, prefix, max) => readRecentParcelIds(env, target, prefix, max),
  };
  // A shell calls this with whatever was typed: no word at all still completes the first one.
  const typed = words.length === 0 ? [''] : words;
  const files = filesAfter(typed);
  if (files !== undefined) return `${FILES_DIRECTIVE}${files}\n`;
  return formatCandidates(complete(typed, sources));
}

/** How long completion waits, at most, for `parcels couriers` to fill the cache the first time. */
export const COURIER_FETCH_TIMEOUT_MS = 2000;

/**
 * `parcels couriers` run on the command line's target, output dropped: the command caches what it
 * reads (src/args/couriers.ts), with the same settings, key and host rules as any other.
 * Only from the installed launcher (bin/parcels.js), which completion scripts call; a failure or a
 * timeout leaves the cache empty and completion offers nothing, as before.
 */
function fetchCouriers(where: readonly string[], env: NodeJS.ProcessEnv): void {
  const launcher = process.argv[1];
  if (launcher === undefined || !/[\\/]parcels(\.js)?$/.test(launcher)) return;
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  spawnSync(process.execPath, [launcher, 'couriers', longFlag(GLOBAL_FLAGS.quiet), ...where], { env, stdio: 'ignore', timeout: COURIER_FETCH_TIMEOUT_MS });
}
