import { readCached, writeCached } from '../config/cache.js';
import type { SkewState } from './policy.js';
import { SKEW_MAX_AGE_S } from './policy.js';

/**
 * The skew state (policy.ts) kept per target (base URL) and profile, so the next command's `now` is
 * corrected before it has sent anything, and a warning is not repeated. An entry of the earlier
 * form (a bare number, applied whatever its size) is not read: the skew is learned again.
 */

function entryName(profile: string): string {
  return `clock-skew.${profile}`;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

export async function readClockSkew(env: NodeJS.ProcessEnv, target: string, profile: string): Promise<SkewState | undefined> {
  const value = await readCached<unknown>(env, target, entryName(profile), SKEW_MAX_AGE_S);
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (!finite(v.applied)) return undefined;
  const state: SkewState = { applied: v.applied };
  if (finite(v.candidate)) state.candidate = v.candidate;
  if (finite(v.accepted)) state.accepted = v.accepted;
  if (finite(v.warned)) state.warned = v.warned;
  if (v.testClock === true) state.testClock = true;
  return state;
}

export async function writeClockSkew(env: NodeJS.ProcessEnv, target: string, profile: string, state: SkewState): Promise<void> {
  await writeCached(env, target, entryName(profile), state);
}
