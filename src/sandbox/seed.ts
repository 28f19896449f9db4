import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { deliveryAttemptSchema, statusEventSchema } from '../schemas/history.js';
import { jsonSyntaxProblem } from '../schemas/json-error.js';
import { parcelIdSchema } from '../schemas/parcel-id.js';
import type { Clock } from '../schemas/time.js';
import { validate } from '../schemas/validate.js';
import type { ErrorDetail } from './errors.js';
import { FileProblemsError } from './errors.js';
import { SANDBOX_CREATE_FIELDS, createFields, crossFieldIssues } from './rules.js';

/** The demo key of the built-in seed: all four scopes, no expiry. */
export const DEMO_API_KEY = 'sbx_demo_9f2c4e7a1b3d5f60';

/** Rate limit used when neither the seed nor its organisation sets one: generous, for bulk work. */
export const FALLBACK_RATE_LIMIT: RateLimitSpec = { requests: 100_000, window_s: 60 };

export const DEFAULT_SEED: SeedObject = {
  organisations: [
    {
      id: 'demo',
      name: 'Demo Deliveries',
      couriers: [
        { code: 'DEMO-BIKE', name: 'Demo bikes' },
        { code: 'DEMO-VAN', name: 'Demo vans' },
      ],
      keys: [
        { key: DEMO_API_KEY, scopes: ['deliveries:read', 'deliveries:write', 'usage:read', 'oracle:read'], expires_at: null },
      ],
      verified: true,
    },
  ],
  rate_limit: { requests: 100_000, window_s: 60 },
};

const ID = /^[A-Za-z0-9_.-]{1,64}$/;
/** Bearer token characters (RFC 6750 b64token, printable, no spaces). */
const KEY = /^[A-Za-z0-9\-._~+/]+=*$/;

const rateLimitSchema = z.strictObject({
  requests: z.int().check(z.gte(1, { error: 'must be an integer >= 1' })),
  window_s: z.int().check(z.gte(1, { error: 'must be an integer >= 1' }), z.lte(86_400, { error: 'must be at most 86400' })),
});

/** Parcels one organisation of a seed holds at most, and reports (events, attempts) one parcel holds. */
const SEED_PARCELS_MAX = 10_000;
const SEED_REPORTS_MAX = 1000;

/**
 * A parcel of a seed: the fields a create body takes (the sandbox's rules), an optional `entry_id`,
 * and its `events` and `attempts` as the events and attempts routes take them, times checked
 * against `now` as those routes check them.
 */
function seedParcelSchema(now: Clock) {
  return z.strictObject({
    ...SANDBOX_CREATE_FIELDS,
    entry_id: z.optional(parcelIdSchema),
    events: z.optional(z.array(statusEventSchema(now)).check(z.maxLength(SEED_REPORTS_MAX, { error: `must list at most ${SEED_REPORTS_MAX} events` }))),
    attempts: z.optional(z.array(deliveryAttemptSchema(now)).check(z.maxLength(SEED_REPORTS_MAX, { error: `must list at most ${SEED_REPORTS_MAX} attempts` }))),
  });
}

const seedSchema = (now: Clock) => z.strictObject({
  organisations: z
    .array(
      z.strictObject({
        id: z.string().check(z.regex(ID, { error: 'must be 1 to 64 characters of A-Z a-z 0-9 _ . -' })),
        name: z.string().check(z.minLength(1, { error: 'must not be empty' }), z.maxLength(200)),
        couriers: z.array(
          z.strictObject({
            code: z.string().check(z.regex(ID, { error: 'must be 1 to 64 characters of A-Z a-z 0-9 _ . -' })),
            name: z.string().check(z.minLength(1, { error: 'must not be empty' }), z.maxLength(200)),
          }),
        ),
        keys: z.array(
          z.strictObject({
            key: z.string().check(
              z.minLength(8, { error: 'must be at least 8 characters' }),
              z.maxLength(256, { error: 'must be at most 256 characters' }),
              z.regex(KEY, { error: 'must contain only bearer-token characters (no spaces)' }),
            ),
            scopes: z.array(z.enum(['deliveries:read', 'deliveries:write', 'usage:read', 'oracle:read'])),
            expires_at: z.optional(z.nullable(z.int())),
          }),
        ),
        verified: z.optional(z.boolean()),
        rate_limit: z.optional(rateLimitSchema),
        parcels: z.optional(z.array(seedParcelSchema(now)).check(z.maxLength(SEED_PARCELS_MAX, { error: `must list at most ${SEED_PARCELS_MAX} parcels` }))),
      }),
    )
    .check(z.minLength(1, { error: 'must list at least one organisation' })),
  rate_limit: z.optional(rateLimitSchema),
});

/** A rate limit: at most `requests` requests per `window_s` seconds (fixed window, per organisation). */
export type RateLimitSpec = z.infer<typeof rateLimitSchema>;
/**
 * The seed file format. Per key: `key` in clear text (only its SHA-256 hash is stored), `scopes`,
 * `expires_at` (Unix seconds after which the key is refused; omitted or null: no expiry). Per
 * organisation: `verified` (false: its write routes answer 403; default true) and `rate_limit`
 * (overrides the top-level one).
 */
export type SeedObject = z.input<ReturnType<typeof seedSchema>>;
export type SeedOrganisation = SeedObject['organisations'][number];
export type SeedKey = SeedOrganisation['keys'][number];
/** A seed as checked: the events' and attempts' defaults (status 0, outcome 0, reason 0) filled in. */
export type ValidSeed = z.output<ReturnType<typeof seedSchema>>;
/** A parcel of a seed: its fields, optional `entry_id`, `events` and `attempts` (applied by seed-parcels.ts). */
export type SeedParcel = NonNullable<SeedOrganisation['parcels']>[number];

/** Unix seconds now: a seed's event and attempt times may be at most five minutes ahead of it, as the API's. */
const realNow: Clock = () => Math.floor(Date.now() / 1000);

/** A seed that cannot be read or breaks a rule; the message names the file and every offending path. */
export class SeedError extends FileProblemsError {
  override readonly name = 'SeedError';
}

/** Checks a seed object; throws a SeedError listing every problem with its path. */
export function validateSeed(input: unknown, source = 'seed'): ValidSeed {
  const result = validate(seedSchema(realNow), input);
  if (!result.ok) {
    throw new SeedError(`invalid ${source}`, result.issues.map((i) => ({ field: i.path || '(root)', message: i.message })));
  }
  const seed = result.value;
  const problems: ErrorDetail[] = [];
  const orgIds = new Set<string>();
  const keys = new Set<string>();
  const entryIds = new Set<string>();
  seed.organisations.forEach((org, i) => {
    if (orgIds.has(org.id)) problems.push({ field: `organisations.${i}.id`, message: `duplicate organisation id "${org.id}"` });
    orgIds.add(org.id);
    const codes = new Set<string>();
    org.couriers.forEach((c, j) => {
      if (codes.has(c.code)) problems.push({ field: `organisations.${i}.couriers.${j}.code`, message: `duplicate courier code "${c.code}"` });
      codes.add(c.code);
    });
    org.keys.forEach((k, j) => {
      if (keys.has(k.key)) problems.push({ field: `organisations.${i}.keys.${j}.key`, message: 'the same key appears twice' });
      keys.add(k.key);
    });
    org.parcels?.forEach((p, j) => {
      const at = `organisations.${i}.parcels.${j}`;
      for (const issue of crossFieldIssues(createFields(p), codes)) problems.push({ field: `${at}.${issue.path}`, message: issue.message });
      const id = p.entry_id?.toLowerCase();
      if (id !== undefined && entryIds.has(id)) problems.push({ field: `${at}.entry_id`, message: `duplicate entry_id "${id}"` });
      if (id !== undefined) entryIds.add(id);
    });
  });
  if (problems.length > 0) throw new SeedError(`invalid ${source}`, problems);
  return seed;
}

/** Reads and validates a seed file (JSON). Errors name the file and every offending path. */
export function loadSeed(path: string): ValidSeed {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new SeedError(`cannot read seed file ${path}: ${(err as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new SeedError(`seed file ${path} is not JSON (${jsonSyntaxProblem(err)}); a seed is one JSON object, see docs/sandbox.md`);
  }
  return validateSeed(value, `seed file ${path}`);
}
