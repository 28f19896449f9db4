import { readCached, writeCached } from './cache.js';

/**
 * The service's clock minus this machine's, in seconds, as last measured from a response's Date
 * header. Kept per target (base URL) and profile, so the next command's `now` is corrected before
 * it has sent anything: a report dated "now" is never rejected because the local clock runs ahead.
 */

/** A measurement older than this is ignored: clocks get fixed and drift. */
const SKEW_MAX_AGE_S = 30 * 86_400;

function entryName(profile: string): string {
  return `clock-skew.${profile}`;
}

export async function readClockSkew(env: NodeJS.ProcessEnv, target: string, profile: string): Promise<number | undefined> {
  const value = await readCached<unknown>(env, target, entryName(profile), SKEW_MAX_AGE_S);
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

export async function writeClockSkew(env: NodeJS.ProcessEnv, target: string, profile: string, seconds: number): Promise<void> {
  await writeCached(env, target, entryName(profile), seconds);
}
