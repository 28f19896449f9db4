import { createWriteStream } from 'node:fs';
import { renderMessage } from '../../io/render.js';
import { otherCommand } from '../../hint/hint.js';
import { writeOut } from '../../io/streams.js';
import { timeText } from '../../schemas/time-text.js';
import { UsageError } from '../../errors.js';
import { shareFlag } from '../../args/share.js';
import { defineCommand } from '../../command-kit/types.js';
import type { sandboxCommands } from '../../definitions/sandbox.js';
import { ADMIN_TOKEN_ENV, adminTokenFile, readTokenFile, writeAdminToken, removeAdminToken } from '../../config/admin-token.js';
import { refuseSymlink } from '../../config/atomic.js';
import { SymlinkError, NotRegularFileError } from '../../config/own-file.js';
import { UnwritableKindError, openUserOutput, writeUserFile } from '../../config/user-output.js';
import { prepareDefaultSandboxDb } from '../../config/paths.js';
import type { CommandFlag, VariableName } from '../../schemas/flag-name.js';

export interface ServeOptions {
  host: string;
  /** Names besides loopback ones and the bound address that a loopback listener answers for. */
  allowedHosts: string[];
  port: number;
  db?: string;
  seed?: string;
  latencyMs?: number;
  failRate?: number;
  dropRate?: number;
  faultSeed?: number;
  faultRetryAfter?: number;
  clockOffset?: number;
  oracleUnavailable: boolean;
  /** true: start the test clock stopped; absent: leave the stored clock as it is. */
  frozen?: true;
  speed?: number;
  scenarios?: string;
  scenarioSeed?: number;
  /** Tracking-level faults; absent when no such flag is given. */
  tracking?: { duplicateRate?: number; lateRate?: number; reorderRate?: number; dateDriftSPerHour?: number };
  adminTokenFile?: string;
  /** Where the URL is written once the sandbox is ready. */
  urlFile?: string;
  /** Where every request log entry is written (NDJSON). */
  logFile?: string;
  logSize?: number;
  limits: { headersTimeoutMs?: number; requestTimeoutMs?: number; keepAliveTimeoutMs?: number; idleTimeoutMs?: number; maxConnections?: number };
}

/** The banner's line about the test clock: its time, and whether it is frozen or sped up. */
export function clockLine(clock: { now_ms: number; frozen: boolean; speed: number }, timeZone: string | undefined): string {
  const at = timeText(Math.floor(clock.now_ms / 1000), timeZone);
  if (clock.frozen) return `Clock: frozen at ${at}`;
  if (clock.speed !== 1) return `Clock: ${at}, running ${clock.speed}× real time`;
  return `Clock: ${at}, real time`;
}

type ServeFlag = CommandFlag<typeof sandboxCommands.sandboxServe>;

/** A seed or scenario file that cannot be used: the flag, the file, and each problem on a line of its own. */
function fileUsageError(err: { heading: string; problems: readonly { field: string; message: string }[] }, flag: ServeFlag): UsageError {
  return new UsageError(err.problems.length === 0 ? err.heading : `${err.heading}:`, flag, undefined, err.problems);
}

function speedOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || n <= 0 || n > 1_000_000) throw new UsageError(`--speed must be a number above 0 and at most 1000000 (got "${value}")`, '--speed');
  return n;
}

function trackingOf(flags: { duplicateRate?: string; lateRate?: string; reorderRate?: string; dateDrift?: number }): ServeOptions['tracking'] {
  const tracking = {
    duplicateRate: shareFlag(flags.duplicateRate, '--duplicate-rate'),
    lateRate: shareFlag(flags.lateRate, '--late-rate'),
    reorderRate: shareFlag(flags.reorderRate, '--reorder-rate'),
    dateDriftSPerHour: flags.dateDrift,
  };
  return Object.values(tracking).every((v) => v === undefined) ? undefined : tracking;
}

/** `--allowed-hosts a.test,b.test`: host names (letters, digits, dots, hyphens) or IP addresses, without a port. */
function allowedHostsOf(value: string | undefined): string[] {
  if (value === undefined) return [];
  const names = value.split(',').map((n) => n.trim().toLowerCase());
  const bad = names.find((n) => !/^(\[[0-9a-f:.]+\]|[0-9a-z.-]+|[0-9a-f:.]*:[0-9a-f:.]*)$/.test(n));
  if (bad !== undefined) throw new UsageError(`--allowed-hosts takes comma-separated host names or addresses without a port (got "${bad}")`, '--allowed-hosts');
  return names;
}

function adminTokenSource(options: ServeOptions): ServeFlag | VariableName {
  return options.adminTokenFile === undefined ? ADMIN_TOKEN_ENV : '--admin-token-file';
}

/** The admin token given at start (--admin-token-file, else PARCELS_SANDBOX_ADMIN_TOKEN), if any. */
async function explicitAdminToken(options: ServeOptions, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const token = options.adminTokenFile === undefined ? env[ADMIN_TOKEN_ENV] || undefined : await readTokenFile(options.adminTokenFile);
  const source = adminTokenSource(options);
  if (options.adminTokenFile !== undefined && token === undefined) throw new UsageError(`--admin-token-file ${options.adminTokenFile} is missing or empty`, source);
  if (token !== undefined && (token.length < 8 || /\s/.test(token))) throw new UsageError(`the admin token from ${source} must be at least 8 characters without spaces`, source);
  return token;
}

/** A file named by --url-file or --log-file that cannot be written: the flag, the file and why. */
async function userFile<T>(flag: '--url-file' | '--log-file', path: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof SymlinkError) throw new UsageError(err.message, flag, 'name the file itself, not a link to it');
    if (err instanceof NotRegularFileError || err instanceof UnwritableKindError) throw new UsageError(err.message, flag);
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== undefined) throw new UsageError(`${path} cannot be written (${code})`, flag);
    throw err;
  }
}

/** How the stop says where the data is: kept in a file, or gone with an in-memory database. */
function stoppedLine(db: string): string {
  return db === ':memory:' ? 'Stopped; the data was in memory (--db :memory:) and is gone' : `Stopped; the data stays in ${db}`;
}

export default defineCommand<typeof sandboxCommands.sandboxServe, ServeOptions>({
  parse({ flags }) {
    return {
      host: flags.host,
      allowedHosts: allowedHostsOf(flags.allowedHosts),
      port: flags.port,
      db: flags.db,
      seed: flags.seed,
      latencyMs: flags.latency,
      failRate: shareFlag(flags.failRate, '--fail-rate'),
      dropRate: shareFlag(flags.dropRate, '--drop-rate'),
      faultSeed: flags.faultSeed,
      faultRetryAfter: flags.faultRetryAfter,
      clockOffset: flags.clockOffset,
      oracleUnavailable: flags.oracleUnavailable,
      frozen: flags.frozen ? true : undefined,
      speed: speedOf(flags.speed),
      scenarios: flags.scenarios,
      scenarioSeed: flags.scenarioSeed,
      tracking: trackingOf(flags),
      adminTokenFile: flags.adminTokenFile,
      urlFile: flags.urlFile,
      logFile: flags.logFile,
      logSize: flags.logSize,
      limits: {
        headersTimeoutMs: flags.headersTimeout,
        requestTimeoutMs: flags.requestTimeout,
        keepAliveTimeoutMs: flags.keepAliveTimeout,
        idleTimeoutMs: flags.idleTimeout,
        maxConnections: flags.maxConnections,
      },
    };
  },

  async run(options, ctx) {
    const { loadSandbox } = await import('../../sandbox-loader.js');
    const { startSandbox, DEMO_API_KEY, PortInUseError, SeedError, ScenarioFileError, AdminTokenError, LogFileError } = await loadSandbox();
    const adminToken = await explicitAdminToken(options, ctx.env);
    // A link where the token file goes is refused before listening; with --port 0 the file's name
    // is known only once listening, and the same refusal then comes before the URL is printed.
    if (adminToken === undefined && options.port !== 0) await refuseSymlink(adminTokenFile(ctx.env, options.port));
    const db = options.db ?? (await prepareDefaultSandboxDb(ctx.env));
    const { logFile, urlFile } = options;
    const logStream = logFile === undefined ? undefined : createWriteStream('', { fd: await userFile('--log-file', logFile, () => openUserOutput(logFile)) });
    // A token given at start is the user's own; a made one goes to a 0600 file the other commands
    // read, written before the sandbox says it is ready (health 200, the URL file, stdout).
    let tokenFile: string | undefined;
    const sandbox = await startSandbox({
      host: options.host,
      allowedHosts: options.allowedHosts,
      port: options.port,
      db,
      seed: options.seed,
      faults: { latencyMs: options.latencyMs, failRate: options.failRate, dropRate: options.dropRate, seed: options.faultSeed, retryAfterS: options.faultRetryAfter },
      clockOffset: options.clockOffset,
      oracleUnavailable: options.oracleUnavailable,
      limits: options.limits,
      frozen: options.frozen,
      speed: options.speed,
      scenarios: options.scenarios,
      scenarioSeed: options.scenarioSeed,
      tracking: options.tracking,
      adminToken,
      logSize: options.logSize,
      logStream,
      beforeReady: async (started) => {
        if (started.adminToken !== undefined && adminToken === undefined) tokenFile = await writeAdminToken(ctx.env, Number(new URL(started.url).port), started.adminToken);
      },
    }).catch((err: unknown) => {
      logStream?.destroy();
      if (err instanceof SeedError) throw fileUsageError(err, '--seed');
      if (err instanceof ScenarioFileError) throw fileUsageError(err, '--scenarios');
      if (err instanceof PortInUseError) throw new UsageError(`port ${err.port} on ${err.host} is already in use; choose another --port (0 picks a free one)`, '--port');
      if (err instanceof AdminTokenError) throw new UsageError(err.message, adminTokenSource(options));
      throw err;
    });
    if (urlFile !== undefined) {
      await userFile('--url-file', urlFile, () => writeUserFile(urlFile, `${sandbox.url}\n`)).catch(async (err: unknown) => {
        await sandbox.close().catch(() => undefined);
        if (tokenFile !== undefined) await removeAdminToken(tokenFile);
        throw err;
      });
    }
    await writeOut(ctx.io.stdout, `${sandbox.url}\n`);
    if (options.seed === undefined) {
      await renderMessage(ctx.io, `Sandbox on ${sandbox.url} (database ${db}); demo key: ${DEMO_API_KEY}`, 'info');
      await renderMessage(ctx.io, `Try: printf %s ${DEMO_API_KEY} | parcels auth login --profile sandbox --base-url ${sandbox.url} --with-key-stdin`, 'info');
    } else {
      await renderMessage(ctx.io, `Sandbox on ${sandbox.url} (database ${db}, seed ${options.seed})`, 'info');
    }
    if (sandbox.adminToken === undefined) {
      await renderMessage(ctx.io, 'Admin route (clock, scenarios, logs) off: not a loopback address; give an admin token with PARCELS_SANDBOX_ADMIN_TOKEN or --admin-token-file', 'warn');
    } else if (tokenFile !== undefined) {
      await renderMessage(ctx.io, `Admin token (for parcels sandbox clock, simulate, logs, faults) in ${tokenFile}`, 'info');
    }
    await renderMessage(ctx.io, clockLine(sandbox.clock.status(), ctx.io.timeZone), 'info');
    const inspector = sandbox.inspectorLink();
    if (inspector !== undefined) {
      // The hint finds the token in the file just written; a token given at start is the user's to pass on.
      const ui = otherCommand(ctx.commandLine, ['sandbox', 'ui', '--base-url', sandbox.url], []);
      const again = tokenFile === undefined ? `${ui} with the admin token in ${ADMIN_TOKEN_ENV}` : ui;
      await renderMessage(ctx.io, `Inspector: ${inspector} (the link works once; a new one: ${again})`, 'info');
    }
    await renderMessage(ctx.io, 'Press Ctrl-C to stop.', 'info');
    // Ctrl-C or SIGTERM is how this command is meant to end: a clean stop, exit 0.
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await renderMessage(ctx.io, `Stopping the sandbox on ${sandbox.url}…`, 'info');
    const closeError = await sandbox.close().then(
      () => undefined,
      (err: unknown) => err,
    );
    if (tokenFile !== undefined) await removeAdminToken(tokenFile);
    // The entries the file lacks are still lost after a clean stop: said, the stop still a stop.
    if (closeError instanceof LogFileError) await renderMessage(ctx.io, `--log-file ${logFile ?? ''}: ${closeError.message}`, 'warn');
    else if (closeError !== undefined) throw closeError;
    await renderMessage(ctx.io, stoppedLine(db), 'success');
  },
});
