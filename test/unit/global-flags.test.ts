/** The global flags' parse step alone: typed values from commander's raw ones, and the refusals (exit 2, the flag named). */
import { describe, expect, it } from 'vitest';
import { longFlag } from '../../src/definitions/definition.js';
import { GLOBAL_FLAGS } from '../../src/definitions/globals.js';
import { resolveGlobalOptions } from '../../src/command-kit/resolve-flags.js';
import { helpTopic } from '../../src/help.js';
import { UsageError } from '../../src/errors.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';

const env = { PARCELS_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' };

describe('resolveGlobalOptions', () => {
  it('types every global flag: switches off (colour on), values absent', () => {
    expect(resolveGlobalOptions({ color: true })).toEqual({
      profile: undefined,
      baseUrl: undefined,
      output: undefined,
      json: false,
      fields: undefined,
      jq: undefined,
      jqExitStatus: false,
      quiet: false,
      utc: false,
      color: true,
      verbose: false,
      dryRun: false,
      sandbox: false,
      timeout: undefined,
      retries: undefined,
    });
    expect(resolveGlobalOptions({ color: false, quiet: true, output: 'csv', profile: 'ops' })).toMatchObject({ color: false, quiet: true, output: 'csv', profile: 'ops' });
  });

  it('--json is --output json, and wins over another --output as it always has', () => {
    expect(resolveGlobalOptions({ json: true }).output).toBe('json');
    expect(resolveGlobalOptions({ json: true, output: 'csv' }).output).toBe('json');
  });

  it('--output takes only the output formats', () => {
    expect(() => resolveGlobalOptions({ output: 'xml' })).toThrow(new UsageError('--output must be one of table, wide, json, ndjson, csv (got "xml")', '--output'));
    expect(() => resolveGlobalOptions({ output: '' })).toThrow('--output must be one of table, wide, json, ndjson, csv (got "")');
  });

  it('--sandbox and --base-url conflict; either alone is fine', () => {
    expect(() => resolveGlobalOptions({ sandbox: true, baseUrl: 'https://api.example.com' })).toThrow(
      new UsageError('--sandbox and --base-url cannot be used together', '--sandbox'),
    );
    expect(resolveGlobalOptions({ sandbox: true }).sandbox).toBe(true);
    expect(resolveGlobalOptions({ baseUrl: 'https://api.example.com' }).baseUrl).toBe('https://api.example.com');
  });

  it('reads no environment: settings orders variable, profile and default', () => {
    expect(resolveGlobalOptions({}).output).toBeUndefined();
    expect(resolveGlobalOptions({}).profile).toBeUndefined();
  });
});

describe('the variables behind global flags', () => {
  it('each has its line in `parcels help environment`, saying which flag wins', () => {
    const topic = helpTopic('environment') ?? '';
    const withVariable = Object.values(GLOBAL_FLAGS).filter((spec) => 'env' in spec);
    // profile, base URL, output, timeout and retries, at least
    expect(withVariable.length).toBeGreaterThanOrEqual(5);
    for (const spec of withVariable) expect(topic).toMatch(new RegExp(`^  ${spec.env} .*\\(flag ${longFlag(spec)}[ /]`, 'm'));
  });
});

describe('a refused global flag on the command line', () => {
  it('-o xml: exit 2 naming --output, for any command, before the command runs', async () => {
    expect(await runCli(['completion', 'bash', '-o', 'xml'], { env })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: --output must be one of table, wide, json, ndjson, csv (got "xml")\n',
    });
  });

  it('--sandbox with --base-url, with --json: one JSON error line on stderr', async () => {
    expect(await runCli(['couriers', '--sandbox', '--base-url', 'https://api.example.com', '--json'], { env })).toEqual({
      code: 2,
      stdout: '',
      stderr: '{"error":{"status":null,"code":"invalid_usage","message":"--sandbox and --base-url cannot be used together","exit_code":2,"field":"--sandbox"}}\n',
    });
  });
});
