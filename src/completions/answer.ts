import { completionTarget, readCachedCodeNames, readCachedCouriers, readProfiles, readRecentParcelIds } from '../config/completion-values.js';
import type { ValueSources } from './complete.js';
import { complete, formatCandidates } from './complete.js';

/** The hidden `parcels __complete WORD…`: candidates from the definitions and the local caches only. */
export function answerCompletion(words: readonly string[], env: NodeJS.ProcessEnv): string {
  let profiles: ReturnType<typeof readProfiles> | undefined;
  const sources: ValueSources = {
    env,
    profiles: () => (profiles ??= readProfiles(env)),
    targetKey: (line) => completionTarget(env, line),
    couriers: (target) => readCachedCouriers(env, target),
    codeNames: (target) => readCachedCodeNames(env, target),
    parcelIds: (target) => readRecentParcelIds(env, target),
  };
  // A shell calls this with whatever was typed: no word at all still completes the first one.
  return formatCandidates(complete(words.length === 0 ? [''] : words, sources));
}
