import { findItems } from '../api/envelope.js';
import { statusPhrase } from '../api/failures.js';
import type { ApiRequest, ApiResponse, HttpMethod } from '../api/http.js';
import { paginate } from '../api/paginate.js';
import type { Context } from '../context.js';
import { ApiError, UsageError } from '../errors.js';
import { presentList, presentRecord } from '../io/present.js';
import { renderRecord } from '../io/render.js';
import { renderResponseHead } from '../io/response-head.js';
import { untilAborted } from '../api/abortable.js';
import { dataFlag } from '../args/flags.js';
import { idempotencyKeyFlag } from '../args/idempotency.js';
import type { apiCommands } from '../definitions/api.js';
import { defineCommand } from '../command-kit/types.js';
import { QUERY_METHODS, fieldsFlags, headerFlags, methodArg, pathArg, queryFlags } from '../args/api-request.js';

export interface ApiOptions {
  method: HttpMethod;
  path: string;
  query: Record<string, string>;
  body: Record<string, unknown> | undefined;
  headers: Record<string, string>;
  idempotencyKey: string | undefined;
  ifMatch: string | undefined;
  include: boolean;
  paginate: boolean;
}

export default defineCommand<typeof apiCommands.api, ApiOptions>({
  async parse({ args, flags }, ctx) {
    const method = methodArg(args[0] ?? '');
    const { path, query: pathQuery } = pathArg(args[1] ?? '');
    const fields = await fieldsFlags(flags.field, flags.rawField, ctx);
    const fieldsInQuery = QUERY_METHODS.has(method);
    if (fieldsInQuery && flags.data !== undefined) {
      throw new UsageError(`--data cannot be sent with ${method}: it has no body (use --query or --field)`, '--data');
    }
    const query = Object.fromEntries([
      ...pathQuery,
      ...queryFlags(flags.query),
      ...(fieldsInQuery ? Object.entries(fields).map(([k, v]): [string, string] => [k, v === null ? '' : String(v)]) : []),
    ]);
    const fromData = flags.data === undefined ? undefined : await dataFlag(flags.data, ctx);
    const body = fieldsInQuery || (fromData === undefined && Object.keys(fields).length === 0) ? undefined : { ...fromData, ...fields };
    if (flags.paginate && method !== 'GET') throw new UsageError(`--paginate follows next_cursor on GET requests only (got ${method})`, '--paginate');
    const header = headerFlags(flags.header);
    if (header.idempotencyKey !== undefined && flags.idempotencyKey !== undefined) {
      throw new UsageError('--idempotency-key and --header Idempotency-Key cannot be used together', '--idempotency-key');
    }
    const givenKey = flags.idempotencyKey ?? header.idempotencyKey;
    // POST creates: it gets a key unless one is given, so a retry can never create twice.
    const idempotencyKey = givenKey !== undefined || method === 'POST' ? idempotencyKeyFlag(givenKey, ctx) : undefined;
    return { method, path, query, body, headers: header.headers, idempotencyKey, ifMatch: header.ifMatch, include: flags.include, paginate: flags.paginate };
  },

  async run(options, ctx) {
    const client = await ctx.api();
    const request: ApiRequest = {
      method: options.method,
      path: options.path,
      query: options.query,
      body: options.body,
      headers: options.headers,
      idempotencyKey: options.idempotencyKey,
      ifMatch: options.ifMatch,
      signal: ctx.signal,
    };
    if (options.paginate) {
      await showItems(ctx, untilAborted(items(paginate(client, request)), ctx.signal));
      return;
    }
    let response: ApiResponse;
    try {
      response = await client.request(request);
    } catch (error) {
      if (error instanceof ApiError) await showErrorAnswer(ctx, error, options.include);
      throw error;
    }
    if (options.include) await renderResponseHead(ctx.io, response.status, statusPhrase(response.status), response.headers);
    if (response.body !== undefined) await showBody(ctx, response.body);
  },
});

/** The items of every page; a page without a list is passed on whole. */
async function* items(pages: AsyncIterable<{ data: unknown }>): AsyncGenerator<unknown> {
  for await (const page of pages) yield* findItems(page.data) ?? [page.data];
}

/** The body as sent: JSON (one NDJSON line with --output ndjson), never a table. */
async function showBody(ctx: Context, body: unknown): Promise<void> {
  await presentRecord(ctx, body, { format: ctx.outputFormat() === 'ndjson' ? 'ndjson' : 'json', now: ctx.now() });
}

async function showItems(ctx: Context, source: AsyncIterable<unknown>): Promise<void> {
  await presentList(ctx, source, { format: 'ndjson', now: ctx.now(), stream: true });
}

/** Like gh api: the service's error body is the answer asked for, so it goes to stdout; the error itself to stderr. */
async function showErrorAnswer(ctx: Context, error: ApiError, include: boolean): Promise<void> {
  if (include) await renderResponseHead(ctx.io, error.status, statusPhrase(error.status), {});
  if (error.body !== undefined) await renderRecord(ctx.io, error.body, { format: ctx.outputFormat() === 'ndjson' ? 'ndjson' : 'json', now: ctx.now() });
}
