/**
 * A command's parse step alone: typed flags in, options object out, no network and no server. The
 * flags go through resolveFlags exactly as cli.ts sends them (raw values keyed like the definition).
 */
import { describe, expect, it } from 'vitest';
import type { CommandDefinition } from '../../src/definitions/definition.js';
import type { RawFlag } from '../../src/command-kit/resolve-flags.js';
import { resolveFlags, resolveGlobalOptions } from '../../src/command-kit/resolve-flags.js';
import { definitions } from '../../src/definitions/table.js';
import { loadCommand } from '../../src/commands/loaders.js';
import type { CommandModule } from '../../src/command-kit/types.js';
import { createContext } from '../../src/context.js';
import { UsageError } from '../../src/errors.js';
import { captureIO } from '../helpers/io.js';

const NOW = 1_790_000_000;
const ID = '5f0c2a9e-8d41-4b7a-9c3e-1f2d3c4b5a69';

function context(env: NodeJS.ProcessEnv = {}) {
  const { io } = captureIO({ env });
  return createContext({
    io,
    env,
    now: () => NOW,
    globals: resolveGlobalOptions({}),
  });
}

async function parse<Def extends CommandDefinition>(definition: Def, raw: Record<string, RawFlag>, args: string[] = []): Promise<unknown> {
  const module = (await loadCommand(definition)).default as CommandModule<CommandDefinition, unknown>;
  const ctx = context();
  const options = await module.parse({ args, flags: resolveFlags(definition, raw) }, ctx);
  await ctx.close();
  return options;
}

async function usageError(promise: Promise<unknown>): Promise<{ message: string; field: string | undefined }> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  const { message, field } = error as UsageError;
  return { message, field };
}

describe('parse alone (no network)', () => {
  it('create: flags become the body, times resolved against the injected clock', async () => {
    const options = await parse(definitions.create, {
      courier: 'A-BIKE',
      country: 'NL',
      postalCode: '1234AB',
      number: '10',
      weight: '1200',
      slotStart: 'now',
      idempotencyKey: 'parse-test-key-01',
    });
    expect(options).toEqual({
      body: { courier: 'A-BIKE', country: 'NL', postal_code: '1234AB', number: '10', parcel_weight: 1200, time_slot_period_start: NOW },
      idempotencyKey: 'parse-test-key-01',
      envelope: false,
    });
  });

  it('create: a non-integer --weight names the flag', async () => {
    expect(await usageError(parse(definitions.create, { courier: 'A', weight: '1.5' }))).toEqual({
      message: '--weight must be an integer (got "1.5")',
      field: '--weight',
    });
  });

  it('list: --status by name, --all a boolean', async () => {
    expect(await parse(definitions.list, { status: 'in_transit', limit: '10', all: true })).toEqual({
      query: { status: 2, limit: 10 },
      all: true,
      max: undefined,
    });
  });

  it('patch: --clear and --set collect; --if-match conflicts with --refresh', async () => {
    expect(await parse(definitions.patch, { clear: ['weight'], set: ['service_type=2'], refresh: true }, [ID])).toEqual({
      id: ID,
      body: { service_type: 2, parcel_weight: null },
      ifMatch: { kind: 'refresh' },
    });
    expect(await usageError(parse(definitions.patch, { weight: '1', ifMatch: '"x"', refresh: true }, [ID]))).toEqual({
      message: '--if-match and --refresh cannot be used together',
      field: '--if-match',
    });
  });

  it('sandbox serve: defaults from the definition, bounds from the definition', async () => {
    expect(await parse(definitions.sandboxServe, {})).toEqual({
      host: '127.0.0.1',
      port: 8787,
      db: undefined,
      seed: undefined,
      latencyMs: undefined,
      failRate: undefined,
      dropRate: undefined,
      faultSeed: undefined,
      faultRetryAfter: undefined,
      clockOffset: undefined,
      oracleUnavailable: false,
      allowedHosts: [],
      limits: { headersTimeoutMs: undefined, requestTimeoutMs: undefined, keepAliveTimeoutMs: undefined, idleTimeoutMs: undefined, maxConnections: undefined },
    });
    expect(await usageError(parse(definitions.sandboxServe, { port: '70000' }))).toEqual({
      message: '--port must be between 0 and 65535 (got 70000)',
      field: '--port',
    });
  });

  it('auth login: --no-verify reads as verify: false, its default true', async () => {
    const { io } = captureIO({ tty: true });
    const ctx = createContext({ io, env: {}, globals: resolveGlobalOptions({}) });
    const module = (await loadCommand(definitions.authLogin)).default as CommandModule<CommandDefinition, unknown>;
    expect(await module.parse({ args: [], flags: resolveFlags(definitions.authLogin, {}) }, ctx)).toEqual({ keyFrom: 'prompt', verify: true, insecure: false });
    expect(await module.parse({ args: [], flags: resolveFlags(definitions.authLogin, { verify: false }) }, ctx)).toEqual({
      keyFrom: 'prompt',
      verify: false,
      insecure: false,
    });
  });
});

describe('resolveFlags', () => {
  const demo = {
    path: ['demo'],
    summary: 'demo',
    examples: ['parcels demo'],
    flags: {
      mode: { type: 'choice', flags: '--mode <mode>', description: 'x', choices: ['fast', 'safe'], default: 'safe' },
      name: { type: 'string', flags: '--name <name>', description: 'x', required: true, env: 'DEMO_NAME' },
      count: { type: 'int', flags: '--count <n>', description: 'x', min: 1 },
      zip: { type: 'string', flags: '--zip <code>', description: 'x', requiredUnless: ['file'] },
      file: { type: 'string', flags: '--file <path>', description: 'x', conflicts: ['count'] },
    },
  } as const satisfies CommandDefinition;

  it('applies defaults and environment variables, and types the result', () => {
    const flags = resolveFlags(demo, { zip: 'z' }, { DEMO_NAME: 'from-env' });
    // Type-checked: `mode` is 'fast' | 'safe', `name` a string, `count` possibly undefined.
    const mode: 'fast' | 'safe' = flags.mode;
    const name: string = flags.name;
    expect({ mode, name, count: flags.count }).toEqual({ mode: 'safe', name: 'from-env', count: undefined });
  });

  it('required, choices and bounds are enforced with the flag named', () => {
    expect(() => resolveFlags(demo, { zip: 'z' })).toThrow(expect.objectContaining({ message: '--name is required', field: '--name' }));
    expect(() => resolveFlags(demo, { name: 'x' })).toThrow(expect.objectContaining({ message: '--zip is required', field: '--zip' }));
    expect(resolveFlags(demo, { name: 'x', file: 'f' }).zip).toBeUndefined();
    expect(() => resolveFlags(demo, { name: 'x', file: 'f', count: '2' })).toThrow(expect.objectContaining({ message: '--file and --count cannot be used together', field: '--file' }));
    expect(() => resolveFlags(demo, { name: 'x', zip: 'z', mode: 'slow' })).toThrow('--mode must be one of fast, safe (got "slow")');
    expect(() => resolveFlags(demo, { name: 'x', zip: 'z', count: '0' })).toThrow('--count must be at least 1 (got 0)');
  });
});
