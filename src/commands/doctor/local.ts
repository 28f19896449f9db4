import { configFileState } from '../../config/permissions.js';
import { shellQuote } from '../../io/shell.js';
import type { CheckResult } from './report.js';
import { ok, warning } from './report.js';

/** Checks of the files on this machine: the profiles file's permissions. */
export async function checkLocalFiles(env: NodeJS.ProcessEnv): Promise<CheckResult[]> {
  const state = await configFileState(env);
  if (!state.exists) return [ok('config file', `none at ${state.path} (settings come from flags and the environment)`)];
  const mode = state.mode.toString(8).padStart(3, '0');
  if (state.loose) {
    return [warning('config file', `${state.path} is mode ${mode}: others on this machine may read the API key`, `run \`chmod 600 ${shellQuote(state.path)}\``)];
  }
  return [ok('config file', `${state.path} is mode ${mode}`)];
}
