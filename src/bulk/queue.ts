import { idempotencyKeyFlag } from '../args/idempotency.js';
import type { ApiResponse } from '../api/http.js';
import { routePath } from '../api/routes.js';
import type { Context } from '../context.js';
import { EXIT, ReportedFailure } from '../errors.js';
import { couldNotTake } from '../api/core/policy.js';
import { isoSeconds } from '../schemas/time-text.js';
import { dataDir } from '../config/paths.js';
import { renderMessage } from '../io/render.js';
import { journalTarget } from './target.js';
import { otherCommand } from '../hint/hint.js';
import type { BulkKind } from './types.js';
import type { FlagName } from '../schemas/flag-name.js';

/**
 * `--queue` / `--offline` on create, events add and attempts add: the request's body bytes and
 * Idempotency-Key are fixed first; when the service cannot be reached (a network failure or
 * timeout, or a 5xx after the client's retries), or `--offline` says not to try, they go into the
 * profile's outbox and the command exits 75 ("queued, not sent yet"). The profile's `queue_writes
 * yes` does as --queue unless --no-queue is typed; without either, such a failure hints --queue.
 */

export interface QueueMode {
  queue: boolean;
  offline: boolean;
  /** Queued because the profile says so (`queue_writes yes`), not a flag: the queued line says which. */
  bySetting?: true;
}

export interface OutgoingRequest {
  kind: BulkKind;
  /** The parcel a history request is about. */
  parcel?: string;
  body: unknown;
  idempotencyKey: string;
  /**
   * The flag that makes the user's command line build this body again (`--at` with the observation
   * time the command filled in): the hint that queues or re-sends it keeps the same request.
   */
  pin?: readonly [FlagName, string];
}

/** The outbox flags of a one-shot write, as typed (`queueAllowed` is false for --no-queue). */
export interface QueueFlags {
  queue: boolean;
  queueAllowed: boolean;
  offline: boolean;
}

/**
 * `{ queue }` when --queue or --offline was given, or the profile's queue_writes is yes and
 * --no-queue was not; else nothing (a plain request).
 */
export async function queueMode(flags: QueueFlags, ctx: Context): Promise<{ queue?: QueueMode }> {
  if (flags.queue || flags.offline) return { queue: { queue: flags.queue, offline: flags.offline } };
  if (flags.queueAllowed && (await ctx.settings()).queueWrites) return { queue: { queue: true, offline: false, bySetting: true } };
  return {};
}

/** The observation time the command filled in, for `pin`: `--at 2026-11-28T03:01:02Z` (as the flag reads it back). */
export function pinnedTime(seconds: number): readonly [FlagName, string] {
  return ['--at', isoSeconds(seconds)];
}

/**
 * What a one-shot write (create, events add, attempts add) takes from its flags beside its body: its
 * Idempotency-Key, --envelope, its outbox mode, and the observation time it filled in itself
 * (`filledAt`), pinned so a hint sends the same bytes again.
 */
export async function oneShotWrite(
  flags: QueueFlags & { idempotencyKey?: string | undefined; envelope: boolean },
  ctx: Context,
  filledAt?: number,
): Promise<{ idempotencyKey: string; envelope: boolean; queue?: QueueMode; pin?: readonly [FlagName, string] }> {
  return {
    idempotencyKey: idempotencyKeyFlag(flags.idempotencyKey, ctx),
    envelope: flags.envelope,
    ...(await queueMode(flags, ctx)),
    ...(filledAt === undefined ? {} : { pin: pinnedTime(filledAt) }),
  };
}

export const COMMAND: Readonly<Record<BulkKind, string>> = { create: 'create', events: 'events add', attempts: 'attempts add' };

/**
 * Sends the request through `send` (the command's usual API call, given the exact bytes), or queues
 * it as described above. Without --queue/--offline (or in a dry run) it only sends; a failure it
 * would have queued then carries what describe-error needs for the hint to queue it.
 */
export async function sendOrQueue(
  ctx: Context,
  mode: QueueMode | undefined,
  request: OutgoingRequest,
  send: (body: Uint8Array) => Promise<ApiResponse>,
): Promise<ApiResponse> {
  const bytes = Buffer.from(JSON.stringify(request.body), 'utf8');
  if (ctx.globals.dryRun) return send(bytes);
  if (mode === undefined) {
    try {
      return await send(bytes);
    } catch (error) {
      // describe-error's hint then names the same command with --queue.
      if (couldNotTake(error) && !ctx.signal.aborted) error.unsent = { kind: 'queueable', ...(request.pin === undefined ? {} : { pin: request.pin }) };
      throw error;
    }
  }
  // The place is fixed (and a missing base URL or key reported) before anything is tried.
  const target = await journalTarget(ctx);
  if (!mode.offline) {
    try {
      return await send(bytes);
    } catch (error) {
      if (!couldNotTake(error) || ctx.signal.aborted) throw error;
    }
  }
  const { captureRequest } = await import('./outbox.js');
  const path = request.kind === 'create' ? routePath('parcels.create') : routePath(request.kind === 'events' ? 'events.create' : 'attempts.create', { id: request.parcel as string });
  const { waiting } = await captureRequest(
    { dir: dataDir(ctx.env), target },
    {
      command: COMMAND[request.kind],
      ...(request.parcel === undefined ? {} : { parcel: request.parcel }),
      request: { method: 'POST', path, body: bytes, idempotencyKey: request.idempotencyKey },
    },
    (await ctx.serviceNow()) * 1000,
  );
  const why = mode.bySetting === true ? '; queue_writes is yes' : '';
  await renderMessage(ctx.io, `queued (${waiting} waiting${why}); \`${otherCommand(ctx.commandLine, ['outbox', 'flush'])}\` sends it`, 'warn');
  throw new ReportedFailure(EXIT.QUEUED);
}
