/**
 * What a result kind can print, declared with the kind: the usage rules that depend on the output
 * format (a never-ending stream cannot be csv, --fields does not apply) are the presenter's, raised
 * before anything is sent, never a command's own test of the format.
 */
import { UsageError } from '../../errors.js';
import type { OutputFormat } from '../output-format.js';
import type { PresentContext } from '../present.js';

export interface ResultKind {
  /** Formats the kind cannot print, each with the rule the error states (it names `--output`). */
  refuses?: Partial<Record<OutputFormat, string>>;
  /** Set when --fields does not apply to the kind: the rule, saying what to use instead. */
  noFields?: string;
  /** Set when --jq does not apply to the kind: the rule, saying what to use instead. */
  noJq?: string;
}

/** What the check reads: the raw --fields, and the settings (a profile can hold the output format). */
export interface KindContext extends PresentContext {
  readonly globals: { readonly quiet?: boolean | undefined; readonly fields?: string | undefined; readonly jq?: string | undefined };
  settings(): Promise<unknown>;
}

/** Exit 2 naming the flag, when the user's format, --fields or --jq is one the kind cannot print. */
export async function assertPresentable(ctx: KindContext, kind: ResultKind): Promise<void> {
  if (kind.noFields !== undefined && ctx.globals.fields !== undefined) throw new UsageError(kind.noFields, '--fields');
  if (kind.noJq !== undefined && ctx.globals.jq !== undefined) throw new UsageError(kind.noJq, '--jq');
  if (kind.refuses === undefined) return;
  // The profile's output setting is known only once the settings are read.
  await ctx.settings();
  const rule = kind.refuses[ctx.outputFormat()];
  if (rule !== undefined) throw new UsageError(rule, '--output');
}
