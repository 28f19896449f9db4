import { randomUUID } from 'node:crypto';
import { API_KEY_SOURCE, dryRunRecorder, profileKeySource } from './api/dry-run.js';
import { stdoutZone } from './io/time.js';
import { ApiClient } from './api/http.js';
import { otherCommand, sameCommand } from './hint/hint.js';
import { renderTrace } from './io/render.js';
import { waitingIndicator } from './io/spinner.js';
import type { CredentialSource, DryRunRecorder, RequestDescription } from './api/dry-run.js';
import type { ApiClientOptions } from './api/http.js';
import type { EtagCache } from './config/etags.js';
import type { KnownIds } from './config/known-ids.js';
import type { Settings } from './config/settings.js';
import { didYouMean } from './schemas/did-you-mean.js';
import { UsageError } from './errors.js';
import { USER_AGENT } from './version.js';
import type { CodeNames } from './io/format.js';
import { OUTPUT_FORMATS, isOutputFormat } from './io/output-format.js';
import type { OutputFormat } from './io/output-format.js';
import type { IO } from './io/streams.js';
import type { JqFilter } from './io/jq.js';
import { skewTracker } from './clock-skew/tracker.js';
import { requireApiKey } from './config/settings.js';
import { targetCaches } from './context/caches.js';
import { targets } from './context/target.js';
import type { GlobalOptions } from './definitions/globals.js';
import type { CommandLine } from './hint/hint.js';
import type { FlagName, VariableName } from './schemas/flag-name.js';

/**
 * The factory handed to every command. Everything costly (config file, HTTP client, embedded
 * sandbox, reference names) is created on first use, so a command pays only for what it touches.
 */
export interface Context {
  readonly io: IO;
  readonly env: NodeJS.ProcessEnv;
  readonly globals: GlobalOptions;
  /** The command line as the user typed it (after `parcels`), with its command's flags: hints repeat it with their change. */
  readonly commandLine: CommandLine;
  /** Unix seconds. */
  now(): number;
  /**
   * Unix seconds on the service's clock: `now()` corrected by the skew this command knows (kept
   * from earlier commands, changed by its answers as src/clock-skew/policy.ts allows). The `now` of
   * time flags, and of the ages shown next to times the service wrote.
   */
  serviceNow(): Promise<number>;
  /** Aborted on SIGINT/SIGTERM: pass it to requests and stop streams when it fires. */
  readonly signal: AbortSignal;
  /**
   * Aborted on a second SIGINT/SIGTERM. Calling this tells the CLI not to exit at once on that
   * second signal: the caller must then end promptly itself (a bulk run abandons its requests in flight).
   */
  claimSecondSignal(): AbortSignal;
  /** The resolved settings (flags, environment, profile). Pure: reads config, starts nothing. */
  settings(): Promise<Settings>;
  /** The settings requests go to: with --sandbox, those of an embedded sandbox started on first call. */
  target(): Promise<Settings>;
  api(): Promise<ApiClient>;
  /**
   * A client of a command's own, for what `api()`'s cannot be (bulk's engine, doctor's probes, a key
   * being logged in, the sandbox's admin token): built here like `api()`'s, with the one sanitised
   * --verbose trace and this command's signal. The caller closes it.
   */
  client(options: ClientOptions): ApiClient;
  /** The id per-target state is kept under (see src/config/target.ts): the sandbox's database or the base URL; undefined without a base URL. */
  targetId(): Promise<string | undefined>;
  etags(): Promise<EtagCache>;
  /** The id per-target caches are kept under (one service, or the --sandbox database); undefined without a base URL. */
  cacheTarget(): Promise<string | undefined>;
  /** Parcel ids this target has shown recently (for id prefixes). */
  knownIds(): Promise<KnownIds>;
  /** Every parcel id a prefix resolves against, read anew on each call (src/context/caches.ts). */
  prefixIds(): Promise<string[]>;
  codeNames(): Promise<CodeNames>;
  /** The output format from --output/--json, PARCELS_OUTPUT, the profile, or "table". */
  outputFormat(): OutputFormat;
  fields(): string[] | undefined;
  /** The compiled --jq filter (jq is loaded only when the flag is given); undefined without it. */
  jq(): Promise<JqFilter | undefined>;
  newIdempotencyKey(): string;
  /** --dry-run: the requests recorded so far (printed as JSON with --json, as text otherwise). */
  dryRunRequests(): readonly RequestDescription[];
  close(): Promise<void>;
}

/** What a command's own client differs in from `ctx.api()`'s. */
export interface ClientOptions extends Pick<ApiClientOptions, 'baseUrl' | 'apiKey' | 'timeoutMs' | 'retries' | 'connections' | 'now' | 'onSkew' | 'dryRun'> {
  /** Where a dry run's curl line reads the credential from (default: $PARCELS_API_KEY). */
  credential?: CredentialSource | undefined;
  /** false: the first Ctrl-C does not cancel its requests (a bulk run lets the lines in flight finish). Default true. */
  cancelOnSignal?: boolean;
}

export function parseOutputFormat(value: string, source: FlagName | VariableName): OutputFormat {
  if (isOutputFormat(value)) return value;
  throw new UsageError(`${source} must be one of ${OUTPUT_FORMATS.join(', ')} (got "${value}")${didYouMean(value, OUTPUT_FORMATS)}`, source);
}

export function createContext(init: {
  io: IO;
  env: NodeJS.ProcessEnv;
  globals: GlobalOptions;
  commandLine?: CommandLine;
  now?: () => number;
  signal?: AbortSignal;
  claimSecondSignal?: () => AbortSignal;
}): Context {
  const { io, env, globals } = init;
  // Every time a person reads on stdout is shown in this zone (io/time.ts); the IO carries it like its colour.
  io.timeZone = stdoutZone(io.stdoutIsTTY, env, globals.utc === true);
  const signal = init.signal ?? new AbortController().signal;
  const now = init.now ?? (() => Math.floor(Date.now() / 1000));
  let apiPromise: Promise<ApiClient> | undefined;
  let jqPromise: Promise<JqFilter | undefined> | undefined;
  let recorder: DryRunRecorder | undefined;
  const closers: (() => Promise<void>)[] = [];

  // A spinner helps a person waiting at a terminal; it would only get in the way of a trace.
  const spinnerWanted = (): boolean => io.stderrIsTTY && !globals.verbose && !globals.quiet && !globals.dryRun;
  const machineOutput = (): boolean => {
    try {
      const format = ctx.outputFormat();
      return format === 'json' || format === 'ndjson';
    } catch {
      return false;
    }
  };
  // Notices (retries, the sandbox's first use) are for people: with --quiet, or JSON on stdout (whose
  // errors are one JSON line on stderr), they stay out of the way.
  const noticesWanted = (): boolean => !globals.quiet && !machineOutput();

  // The one place a client is built: every client of a command traces through the one sanitised sink.
  const trace = globals.verbose ? (line: string) => renderTrace(io, line) : undefined;
  const newClient = ({ cancelOnSignal = true, ...options }: ClientOptions & Pick<ApiClientOptions, 'waiting'>): ApiClient =>
    new ApiClient({ userAgent: USER_AGENT, trace, ...(cancelOnSignal ? { signal } : {}), ...options });

  const commandLine = init.commandLine ?? { words: [], flags: [] };
  const where = targets({ io, env, globals, commandLine, noticesWanted });
  const { settings, target, targetKey } = where;
  // The skew is kept per target and profile: the embedded sandbox's test clock can be moved too.
  const skew = skewTracker({ io, env, key: where.skewKey });
  const caches = targetCaches({ env, targetKey, api: () => ctx.api(), dryRun: globals.dryRun === true, signal });

  const ctx: Context = {
    io,
    env,
    globals,
    commandLine,
    now,
    signal,
    claimSecondSignal: init.claimSecondSignal ?? (() => new AbortController().signal),
    settings,
    target,
    cacheTarget: targetKey,
    targetId: targetKey,
    async serviceNow() {
      return now() + (await skew.current());
    },
    api() {
      apiPromise ??= (async () => {
        const resolved = await target();
        if (resolved.baseUrl === undefined) {
          throw new UsageError(
            `no API base URL for profile "${resolved.profile}"`,
            '--base-url',
            // The service's address is the one word a hint cannot know: URL stands for it; the sandbox form runs as printed.
            `try the local sandbox: \`${sameCommand(ctx.commandLine, { add: ['--sandbox'] })}\`, or save your service's address (for URL) with \`${otherCommand(ctx.commandLine, ['auth', 'login', '--profile', resolved.profile, '--base-url', 'URL'], [])}\` or PARCELS_BASE_URL`,
          );
        }
        // A dry run shows the request with a placeholder for the key, so it needs none.
        if (!globals.dryRun) requireApiKey(resolved);
        // Where its curl line reads the key: where this command found it.
        const credential = resolved.sources.apiKey === 'env' ? API_KEY_SOURCE : profileKeySource(otherCommand(ctx.commandLine, ['auth', 'token']));
        const client = newClient({
          baseUrl: resolved.baseUrl,
          apiKey: resolved.apiKey,
          timeoutMs: resolved.timeoutMs,
          retries: resolved.retries,
          dryRun: globals.dryRun
            ? (recorder = dryRunRecorder(machineOutput() ? undefined : (text) => void io.stdout.write(text), {
                embedded: globals.sandbox,
                credential,
              }))
            : undefined,
          credential,
          waiting: noticesWanted() ? waitingIndicator(io, { spin: spinnerWanted() }) : undefined,
          onSkew: skew.observed,
        });
        closers.push(() => client.close());
        return client;
      })();
      return apiPromise;
    },
    client: (options) => newClient(options),
    etags: caches.etags,
    knownIds: caches.knownIds,
    prefixIds: caches.prefixIds,
    codeNames: caches.codeNames,
    outputFormat() {
      if (globals.jq !== undefined) {
        // jq reads JSON: --jq implies --json, and any other explicit format contradicts it.
        if (globals.output !== undefined && globals.output !== 'json' && globals.output !== 'ndjson') {
          throw new UsageError(`--jq filters JSON output and cannot be used with --output ${globals.output}`, '--jq');
        }
        return 'json';
      }
      if (globals.output !== undefined) return globals.output;
      if (env.PARCELS_OUTPUT) return parseOutputFormat(env.PARCELS_OUTPUT, 'PARCELS_OUTPUT');
      return where.profileOutput() ?? 'table';
    },
    fields() {
      if (globals.fields === undefined) return undefined;
      const list = globals.fields
        .split(',')
        .map((f) => f.trim())
        .filter((f) => f !== '');
      if (list.length === 0) throw new UsageError('--fields must name at least one field, e.g. --fields entry_id,status', '--fields');
      return list;
    },
    jq() {
      jqPromise ??= (async () => {
        if (globals.jqExitStatus) {
          if (globals.jq === undefined) throw new UsageError('--jq-exit-status sets the exit status from the last result of --jq: give --jq EXPR too', '--jq-exit-status');
          if (globals.quiet) throw new UsageError('--jq-exit-status reads the results of --jq, which --quiet replaces with ids: leave out --quiet', '--jq-exit-status');
        }
        if (globals.jq === undefined) return undefined;
        const { compileJq } = await import('./io/jq.js');
        return compileJq(globals.jq, { signal });
      })();
      return jqPromise;
    },
    newIdempotencyKey: () => randomUUID(),
    dryRunRequests: () => recorder?.requests ?? [],
    async close() {
      for (const close of closers.reverse()) await close();
      await where.close();
      await skew.close();
    },
  };
  return ctx;
}
