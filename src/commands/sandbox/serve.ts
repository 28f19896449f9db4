import { renderMessage } from '../../io/render.js';
import { writeOut } from '../../io/streams.js';
import { UsageError } from '../../errors.js';
import { defineCommand } from '../types.js';
import type { definitions } from '../table.js';

export interface ServeOptions {
  host: string;
  port: number;
  db?: string;
  seed?: string;
  latencyMs?: number;
  failRate?: number;
  dropRate?: number;
  faultSeed?: number;
  clockOffset?: number;
  oracleUnavailable: boolean;
  limits: { headersTimeoutMs?: number; requestTimeoutMs?: number; keepAliveTimeoutMs?: number; idleTimeoutMs?: number; maxConnections?: number };
}

function rate(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const p = Number(value);
  if (value.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1) throw new UsageError(`${flag} must be a number from 0 to 1 (got "${value}")`, flag);
  return p;
}

export default defineCommand<typeof definitions.sandboxServe, ServeOptions>({
  parse({ flags }) {
    return {
      host: flags.host,
      port: flags.port,
      db: flags.db,
      seed: flags.seed,
      latencyMs: flags.latency,
      failRate: rate(flags.failRate, '--fail-rate'),
      dropRate: rate(flags.dropRate, '--drop-rate'),
      faultSeed: flags.faultSeed,
      clockOffset: flags.clockOffset,
      oracleUnavailable: flags.oracleUnavailable,
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
    const { startSandbox, DEMO_API_KEY, PortInUseError, SeedError } = await loadSandbox();
    const { prepareDefaultSandboxDb } = await import('../../config/paths.js');
    const db = options.db ?? (await prepareDefaultSandboxDb(ctx.env));
    const sandbox = await startSandbox({
      host: options.host,
      port: options.port,
      db,
      seed: options.seed,
      faults: { latencyMs: options.latencyMs, failRate: options.failRate, dropRate: options.dropRate, seed: options.faultSeed },
      clockOffset: options.clockOffset,
      oracleUnavailable: options.oracleUnavailable,
      limits: options.limits,
    }).catch((err: unknown) => {
      if (err instanceof SeedError) throw new UsageError(err.message, '--seed');
      if (err instanceof PortInUseError) throw new UsageError(err.message, '--port');
      throw err;
    });
    await writeOut(ctx.io.stdout, `${sandbox.url}\n`);
    if (options.seed === undefined) {
      await renderMessage(ctx.io, `Sandbox on ${sandbox.url} (database ${db}); demo key: ${DEMO_API_KEY}`, 'info');
      await renderMessage(ctx.io, `Try: printf %s ${DEMO_API_KEY} | parcels auth login --profile sandbox --base-url ${sandbox.url} --with-key-stdin`, 'info');
    } else {
      await renderMessage(ctx.io, `Sandbox on ${sandbox.url} (database ${db}, seed ${options.seed})`, 'info');
    }
    await renderMessage(ctx.io, 'Press Ctrl-C to stop.', 'info');
    // Ctrl-C or SIGTERM is how this command is meant to end: a clean stop, exit 0.
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await sandbox.close();
  },
});
