import * as z from 'zod/mini';
import { OUTPUT_FORMATS, isOutputFormat } from '../io/output-format.js';
import type { OutputFormat } from '../io/output-format.js';
import { isRecord } from '../schemas/record.js';
import { hasLineTerminator } from '../schemas/text.js';

/**
 * The one definition of a profile's settings and of the config file: the store checks what it
 * writes and reads with it, settings checks flags, environment and profile values with it, and the
 * API client gets only values that passed it.
 */

const RETRIES_MAX = 10;

const OUTPUT_RULE = `must be one of ${OUTPUT_FORMATS.join(', ')}`;
const TIMEOUT_RULE = 'must be a positive number of seconds';
const RETRIES_RULE = `must be an integer from 0 to ${RETRIES_MAX}`;
const URL_RULE = 'must be an http:// or https:// URL';
const CREDENTIALS_RULE = 'must not contain a user name or password (user:password@host): the API key is the only credential';
const API_KEY_RULE = 'must be a non-empty API key on one line';
/** What a `create --from` does with lines matching what earlier batches on the target created (a copy is refused whatever this says). */
export const MATCHED_LINES_CHOICES = ['refuse', 'skip', 'create'] as const;
export type MatchedLinesSetting = (typeof MATCHED_LINES_CHOICES)[number];
const MATCHED_LINES_RULE = `must be one of ${MATCHED_LINES_CHOICES.join(', ')}`;
/**
 * A switch of the profile: `sandbox yes` (its service is a sandbox, whose Parcels-Test-Clock header
 * is trusted: src/clock-skew/policy.ts), `queue_writes yes` (create, events add and attempts add
 * keep a request the service cannot take in the outbox, as --queue does: src/bulk/queue.ts).
 */
export const YES_NO = ['yes', 'no'] as const;
export type YesNo = (typeof YES_NO)[number];
const YES_NO_RULE = `must be ${YES_NO.join(' or ')}`;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function parsedUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

const outputSchema = z.custom<OutputFormat>(isOutputFormat, { error: OUTPUT_RULE });
const timeoutSchema = z.number({ error: TIMEOUT_RULE }).check(z.refine((n) => Number.isFinite(n) && n > 0, { error: TIMEOUT_RULE }));
const retriesSchema = z.number({ error: RETRIES_RULE }).check(z.refine((n) => Number.isInteger(n) && n >= 0 && n <= RETRIES_MAX, { error: RETRIES_RULE }));
const baseUrlSchema = z.string({ error: URL_RULE }).check(
  z.refine(
    (s) => {
      const url = parsedUrl(s);
      return url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
    },
    { error: URL_RULE, abort: true },
  ),
  z.refine((s) => parsedUrl(s)?.username === '' && parsedUrl(s)?.password === '', { error: CREDENTIALS_RULE }),
);
const apiKeySchema = z.string({ error: API_KEY_RULE }).check(
  z.refine((s) => s !== '' && s === s.trim() && !hasLineTerminator(s) && !CONTROL.test(s), { error: API_KEY_RULE }),
);

const yesNoSchema = z.custom<YesNo>((value) => (YES_NO as readonly unknown[]).includes(value), { error: YES_NO_RULE });

const matchedLinesSchema = z.custom<MatchedLinesSetting>((value) => (MATCHED_LINES_CHOICES as readonly unknown[]).includes(value), { error: MATCHED_LINES_RULE });

const profileSchema = z.looseObject({
  base_url: z.optional(baseUrlSchema),
  api_key: z.optional(apiKeySchema),
  output: z.optional(outputSchema),
  /** Seconds. */
  timeout: z.optional(timeoutSchema),
  retries: z.optional(retriesSchema),
  bulk_matched_lines: z.optional(matchedLinesSchema),
  sandbox: z.optional(yesNoSchema),
  queue_writes: z.optional(yesNoSchema),
});

export type Profile = z.infer<typeof profileSchema>;
export type ProfileKey = 'base_url' | 'api_key' | 'output' | 'timeout' | 'retries' | 'bulk_matched_lines' | 'sandbox' | 'queue_writes';
export const PROFILE_KEYS: readonly ProfileKey[] = ['base_url', 'api_key', 'output', 'timeout', 'retries', 'bulk_matched_lines', 'sandbox', 'queue_writes'];

/** The file's shape; values inside a profile are checked where they are used (settings) or changed (store). */
export const configFileSchema = z.looseObject({
  current_profile: z.optional(z.string({ error: '"current_profile" must be a string' })),
  profiles: z.optional(
    z.custom<Record<string, Record<string, unknown>>>(isRecord, { error: '"profiles" must be an object of profile name → settings' }).check(
      z.superRefine((profiles, ctx) => {
        for (const [name, profile] of Object.entries(profiles)) {
          if (!isRecord(profile)) ctx.issues.push({ code: 'custom', message: `profile "${name}" must be an object`, input: profile });
        }
      }),
    ),
  ),
});

export interface ConfigFile {
  current_profile?: string;
  profiles: Record<string, Profile>;
}

export type SettingCheck = { ok: true; value: unknown } | { ok: false; rule: string; /** False when echoing the value could leak a secret. */ showValue: boolean };

/** Checks one profile value against its rule. */
export function checkSetting(key: ProfileKey, value: unknown): SettingCheck {
  const result = z.safeParse(profileSchema.shape[key], value);
  if (result.success && value !== undefined) return { ok: true, value: result.data };
  const rule = result.success ? 'is required' : (result.error.issues[0]?.message ?? 'is not valid');
  return { ok: false, rule, showValue: key !== 'api_key' && rule !== CREDENTIALS_RULE };
}

/** Scheme, host and port of a base URL: what a stored key is bound to. */
export function originOf(baseUrl: string): string | undefined {
  return parsedUrl(baseUrl)?.origin;
}
