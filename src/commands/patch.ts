import type { PatchResult } from '../api/parcels.js';
import { patchParcel, recordRefreshedPatch } from '../api/parcels.js';
import { couldNotTake } from '../api/core/policy.js';
import type { Context } from '../context.js';
import { DryRunComplete, UsageError } from '../errors.js';
import { etagSchema } from '../schemas/headers.js';
import { parcelPatchSchema } from '../schemas/parcel.js';
import { validate } from '../schemas/validate.js';
import { resolveParcelId } from '../args/parcel-id.js';
import { defineCommand } from '../command-kit/types.js';
import { dataFlag, issuesToUsageError } from '../args/flags.js';
import type { patchCommands } from '../definitions/patch.js';
import { presentResource } from '../io/present/resource.js';
import { presentWritten } from '../io/present.js';
import { clearedValue, fieldName, setValue } from '../args/patch-fields.js';
import { parcelFieldFlagValues } from '../args/field-flags.js';
import { normaliseAddress } from '../schemas/address-normalize.js';
import { otherCommand, sameCommand } from '../hint/hint.js';
import type { CommandFlag } from '../schemas/flag-name.js';

/** Where the If-Match value comes from. */
export type IfMatchSource = { kind: 'flag'; etag: string } | { kind: 'refresh' } | { kind: 'cached' };

export interface PatchOptions {
  id: string;
  body: Record<string, unknown>;
  ifMatch: IfMatchSource;
}

/** The flags that change a field; an error names the one that did. */
type PatchFlag = CommandFlag<typeof patchCommands.patch>;

export default defineCommand<typeof patchCommands.patch, PatchOptions>({
  async parse({ args, flags }, ctx) {
    const id = await resolveParcelId(args[0] ?? '', ctx);
    const body: Record<string, unknown> = await dataFlag(flags.data, ctx);
    const setBy = new Map<string, PatchFlag>();
    const assign = (field: string, value: unknown, flag: PatchFlag): void => {
      const earlier = setBy.get(field);
      if (earlier !== undefined && earlier !== flag) {
        throw new UsageError(`${flag} and ${earlier} both change ${field}: give one`, flag);
      }
      setBy.set(field, flag);
      body[field] = value;
    };
    for (const pair of flags.set) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new UsageError(`--set takes field=value (got "${pair}")`, '--set');
      const field = fieldName(pair.slice(0, eq), '--set');
      assign(field, await setValue(field, pair.slice(eq + 1), ctx), '--set');
    }
    // `--country nl --postal-code "1234 ab"` is sent as NL and 1234AB, as create sends it.
    const fromFlags = await parcelFieldFlagValues(flags, ctx);
    const normalised = normaliseAddress(Object.fromEntries(fromFlags.map(({ field, value }) => [field, value])), 'country', 'postal_code');
    for (const { field, flag } of fromFlags) assign(field, normalised[field], flag as PatchFlag);
    for (const name of flags.clear) {
      const field = fieldName(name, '--clear');
      assign(field, clearedValue(field), '--clear');
    }

    const checked = validate(parcelPatchSchema, body);
    if (!checked.ok) {
      if (Object.keys(body).length === 0) {
        throw new UsageError('nothing to change: give a field flag (--weight, --slot-start, … see --help), --clear FIELD, --set FIELD=VALUE or --data', '--data');
      }
      // Name the flag that set each field, as the user typed it (`--set parcel_weight`, `--weight`).
      const flagFor = Object.fromEntries([...setBy].map(([field, flag]) => [field, flag === '--set' ? (`--set ${field}` as const) : flag]));
      throw issuesToUsageError(checked.issues, flagFor, 'the change');
    }

    const { ifMatch } = flags;
    if (ifMatch !== undefined) {
      const etag = validate(etagSchema, ifMatch);
      if (!etag.ok) throw new UsageError(`--if-match ${etag.issues[0]?.message ?? 'is invalid'}`, '--if-match');
      return { id, body, ifMatch: { kind: 'flag', etag: ifMatch } };
    }
    return { id, body, ifMatch: flags.refresh ? { kind: 'refresh' } : { kind: 'cached' } };
  },

  async run({ id, body, ifMatch }, ctx) {
    const client = await ctx.api();
    const etags = await ctx.etags();
    // A failure the service is to blame for: describe-error says the change was not made (or may
    // have been) and gives the command that sends it again.
    const unsent = (sent: boolean) => (error: unknown): never => {
      if (couldNotTake(error) && !ctx.signal.aborted) error.unsent = { kind: 'patch', ifMatch: ifMatch.kind, sent };
      throw error;
    };
    const etag = await resolveIfMatch(ifMatch, id, body, ctx).catch(unsent(false));
    const response: PatchResult = await patchParcel(client, id, body, etag, ctx.signal).catch(unsent(true));
    if (response.etag !== undefined) await etags.set(id, response.etag);
    else await etags.delete(id);
    await presentResource(ctx, response.data, { view: 'parcels', afterWrite: true });
    const note = response.recoveredAfter412 ? ' (an earlier attempt had already applied it)' : '';
    await presentWritten(ctx, `Updated parcel ${id}${note}`);
  },
});

async function resolveIfMatch(source: IfMatchSource, id: string, body: Record<string, unknown>, ctx: Context): Promise<string> {
  if (source.kind === 'flag') return source.etag;
  if (source.kind === 'refresh') {
    const client = await ctx.api();
    if (client.recording) {
      // A dry run shows both requests: the GET, then the PATCH carrying the ETag that GET would return.
      recordRefreshedPatch(client, id, body);
      throw new DryRunComplete();
    }
    const latest = await client.route('parcels.get', { params: { id }, signal: ctx.signal });
    if (latest.etag === undefined) throw new Error('the service answered the read without an ETag, so the change cannot be made safely');
    await (await ctx.etags()).set(id, latest.etag);
    return latest.etag;
  }
  const cached = await (await ctx.etags()).get(id);
  if (cached === undefined) {
    throw new UsageError(
      `no cached ETag for parcel ${id} (a change is sent with If-Match)`,
      undefined,
      `run \`${otherCommand(ctx.commandLine, ['get', id])}\` first (it caches the ETag), or \`${sameCommand(ctx.commandLine, { drop: ['--refresh'], add: ['--refresh'] })}\` to read the latest one before patching`,
    );
  }
  return cached;
}
