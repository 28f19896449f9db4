import { renderMessage } from '../../io/render.js';
import { writeOut } from '../../io/streams.js';
import { UsageError } from '../../errors.js';
import { defineCommand } from '../types.js';
import { intFlag, stringFlags } from '../shared/flags.js';

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

const DEFAULT_PORT = 8787;

function rate(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const p = Number(value);
  if (value.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1) throw new UsageError(`${flag} must be a number from 0 to 1 (got "${value}")`, flag);
  return p;
}

export default defineCommand<ServeOptions>({
  parse({ flags }) {
    const str = stringFlags(flags);
    const int = (name: string, flag: string, min?: number, max?: number): number | undefined => {
      const v = str(name);
      return v === undefined ? undefined : intFlag(v, flag, { min, max });
    };
    return {
      host: str('host') ?? '127.0.0.1',
      port: int('port', '--port', 0, 65535) ?? DEFAULT_PORT,
      db: str('db'),
      seed: str('seed'),
      latencyMs: int('latency', '--latency', 0, 60_000),
      failRate: rate(str('failRate'), '--fail-rate'),
      dropRate: rate(str('dropRate'), '--drop-rate'),
      faultSeed: int('faultSeed', '--fault-seed'),
      clockOffset: int('clockOffset', '--clock-offset'),
      oracleUnavailable: flags.oracleUnavailable === true,
      limits: {
        headersTimeoutMs: int('headersTimeout', '--headers-timeout', 1, 3_600_000),
        requestTimeoutMs: int('requestTimeout', '--request-timeout', 1, 3_600_000),
        keepAliveTimeoutMs: int('keepAliveTimeout', '--keep-alive-timeout', 1, 3_600_000),
        idleTimeoutMs: int('idleTimeout', '--idle-timeout', 1, 3_600_000),
        maxConnections: int('maxConnections', '--max-connections', 1, 1_000_000),
      },
    };
  },

  async run(options, ctx) {
    const { startSandbox, DEMO_API_KEY, PortInUseError, SeedError } = await import('../../sandbox/index.js');
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
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await sandbox.close();
  },
});
