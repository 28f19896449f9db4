import type { Context } from '../../context.js';
import { OUTCOME_NAMES, REASON_NAMES, STATUS_NAMES } from '../../schemas/codes.js';
import { codeFlag, normaliseName } from './flags.js';

/**
 * A status given as a number or a name. The spec names 0–3; names for 4 and 5 exist only if the
 * service's reference route gives them, so the reference is consulted only for an unknown name.
 */
export async function statusFlag(value: string, flag: string, ctx: Context): Promise<number> {
  const isNumber = /^\s*-?\d+\s*$/.test(value);
  if (isNumber || Object.values(STATUS_NAMES).some((n) => normaliseName(n) === normaliseName(value))) return codeFlag(value, flag, STATUS_NAMES);
  const names = { ...STATUS_NAMES, ...(await ctx.codeNames()).status };
  return codeFlag(value, flag, names);
}

export function outcomeFlag(value: string, flag: string): number {
  return codeFlag(value, flag, OUTCOME_NAMES);
}

export function reasonFlag(value: string, flag: string): number {
  return codeFlag(value, flag, REASON_NAMES);
}
