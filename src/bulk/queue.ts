import type { ApiResponse } from '../api/http.js';
import { routePath } from '../api/routes.js';
import type { Context } from '../context.js';
import { ApiError, EXIT, NetworkError, ReportedFailure } from '../errors.js';
import { dataDir } from '../config/paths.js';
import { renderMessage } from '../io/render.js';
import { journalTarget } from './target.js';
import { otherCommand } from '../hint/hint.js';
import type { BulkKind } from './types.js';

/**
 * `--queue` / `--offline` on create, events add and attempts add: the request's body bytes and
 * Idempotency-Key are fixed first; when the service cannot be reached (a network failure or
 * timeout, or a 5xx after the client's retries), or `--offline` says not to try, they go into the
 * profile's outbox and the command exits 75 ("queued, not sent yet").
 */

export interface QueueMode {
  queue: boolean;
  offline: boolean;
}

export interface OutgoingRequest {
  kind: BulkKind;
  /** The parcel a history request is about. */
  parcel?: string;
  body: unknown;
  idempotencyKey: string;
}

/** `{ queue }` when --queue or --offline was given, else nothing (a plain request). */
export function queueMode(flags: QueueMode): { queue?: QueueMode } {
  return flags.queue || flags.offline ? { queue: { queue: flags.queue, offline: flags.offline } } : {};
}

export const COMMAND: Readonly<Record<BulkKind, string>> = { create: 'create', events: 'events add', attempts: 'attempts add' };

/**
 * Sends the request through `send` (the command's usual API call, given the exact bytes), or queues
 * it as described above. Without --queue/--offline (or in a dry run) it only sends.
 */
export async function sendOrQueue(
  ctx: Context,
  mode: QueueMode | undefined,
  request: OutgoingRequest,
  send: (body: Uint8Array) => Promise<ApiResponse>,
): Promise<ApiResponse> {
  const bytes = Buffer.from(JSON.stringify(request.body), 'utf8');
  if (mode === undefined || ctx.globals.dryRun) return send(bytes);
  // The place is fixed (and a missing base URL or key reported) before anything is tried.
  const target = await journalTarget(ctx);
  if (!mode.offline) {
    try {
      return await send(bytes);
    } catch (error) {
      if (!unreachable(error) || ctx.signal.aborted) throw error;
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
  await renderMessage(ctx.io, `queued (${waiting} waiting); \`${otherCommand(ctx.commandLine, ['outbox', 'flush'])}\` sends it`, 'warn');
  throw new ReportedFailure(EXIT.QUEUED);
}

/** The service could not be reached or could not take it: worth keeping for later. */
function unreachable(error: unknown): boolean {
  return error instanceof NetworkError || (error instanceof ApiError && error.status >= 500);
}
