import { join } from 'node:path';
import type { JournalListing } from '../bulk/journal/list.js';
import { rebuildAdvice } from '../bulk/journal/read.js';
import { listJournals } from '../bulk/journal/list.js';
import { dataDir } from '../config/paths.js';
import { configFileState } from '../config/permissions.js';
import { shellQuote } from '../hint/shell.js';
import { relativeTime } from '../schemas/time-text.js';
import type { CheckResult } from './report.js';
import { ok, warning } from './report.js';

/** The journal kind of the offline outbox (src/bulk/outbox.ts); every other kind is a bulk batch. */
const OUTBOX_KIND = 'outbox';

/** The outbox of the target doctor checks (src/bulk/target.ts), and the commands that empty it, as the user would type them. */
export interface OutboxHere {
  target: string;
  flush: string;
  drop: string;
}

/** Checks of the files on this machine: the profiles file's permissions, the outbox, bulk batches. */
export async function checkLocalFiles(env: NodeJS.ProcessEnv, nowMs: number, outbox: OutboxHere | undefined): Promise<CheckResult[]> {
  return [await checkConfigFile(env), ...(await checkJournals(env, nowMs, outbox))];
}

async function checkConfigFile(env: NodeJS.ProcessEnv): Promise<CheckResult> {
  const state = await configFileState(env);
  if (!state.exists) return ok('config file', `none at ${state.path} (settings come from flags and the environment)`);
  const mode = state.mode.toString(8).padStart(3, '0');
  if (state.loose) {
    return warning('config file', `${state.path} is mode ${mode}: others on this machine may read the API key`, `run \`chmod 600 ${shellQuote(state.path)}\``);
  }
  return ok('config file', `${state.path} is mode ${mode}`);
}

/**
 * Work the journals hold (src/bulk/journal/): requests the outbox of this profile and base URL
 * captured while offline (another profile's outbox is flushed only to its own host, so its fix
 * would not work here), and bulk batches with lines sent but never confirmed (every target's: they
 * are all on this machine, whichever profile is in use).
 */
async function checkJournals(env: NodeJS.ProcessEnv, nowMs: number, here: OutboxHere | undefined): Promise<CheckResult[]> {
  let listing: JournalListing;
  try {
    listing = await listJournals(dataDir(env), nowMs);
  } catch (error) {
    const detail = `the journals in ${join(dataDir(env), 'journals')} cannot be listed: ${(error as Error).message}`;
    return [warning('outbox', detail, 'make the folder readable'), warning('bulk batches', detail, 'make the folder readable')];
  }
  const journals = listing.journals;
  const unreadable = listing.unreadable.map(({ path, problem }) => warning('journal', `cannot be read: ${problem}`, rebuildAdvice(path)));
  const outbox = journals.filter((j) => j.kind === OUTBOX_KIND && j.target === here?.target && (j.counts.uncertain > 0 || j.counts.rejected > 0));
  const unfinished = journals.filter((j) => j.kind !== OUTBOX_KIND && j.counts.uncertain > 0);
  const waiting = outbox.reduce((n, j) => n + j.counts.uncertain, 0);
  const refused = outbox.reduce((n, j) => n + j.counts.rejected, 0);
  const checks: CheckResult[] = [];
  if (here === undefined || outbox.length === 0) checks.push(ok('outbox', here === undefined ? 'no outbox without a base URL' : 'empty'));
  else {
    const parts: string[] = [];
    const fixes: string[] = [];
    if (waiting > 0) {
      parts.push(`${waiting} request${waiting === 1 ? '' : 's'} captured while offline wait${waiting === 1 ? 's' : ''} to be sent`);
      fixes.push(`run \`${here.flush}\` once the service answers (each request keeps its key, so none applies twice)`);
    }
    if (refused > 0) {
      parts.push(`${refused} the service rejected ${refused === 1 ? 'is' : 'are'} kept aside`);
      fixes.push(`run \`${here.drop}\` to remove the rejected ones`);
    }
    checks.push(warning('outbox', parts.join('; '), fixes.join('; ')));
  }
  if (unfinished.length === 0) checks.push(ok('bulk batches', 'none unfinished'));
  else {
    const list = unfinished.map((j) => `${j.batch} (${j.kind} from ${j.input}, ${j.counts.uncertain} line${j.counts.uncertain === 1 ? '' : 's'} without a known outcome, ${relativeTime(nowMs / 1000 - j.ageMs / 1000, nowMs / 1000)})`);
    checks.push(
      warning('bulk batches', `unfinished: ${list.join('; ')}`, 'run the same import again with the same input: lines without a known outcome are resent with their keys, so nothing applies twice'),
    );
  }
  return [...unreadable, ...checks];
}
