import { trustsTestClock } from '../clock-skew/policy.js';
import type { SkewKey } from '../clock-skew/tracker.js';
import { defaultSandboxDb, prepareDefaultSandboxDb } from '../config/paths.js';
import { sandboxDataExists } from '../config/sandbox-data.js';
import { resolveSettings } from '../config/settings.js';
import type { Settings } from '../config/settings.js';
import { readConfig } from '../config/store.js';
import { targetId } from '../config/target.js';
import type { GlobalOptions } from '../definitions/globals.js';
import { otherCommand } from '../hint/hint.js';
import type { CommandLine } from '../hint/hint.js';
import type { OutputFormat } from '../io/output-format.js';
import { renderMessage } from '../io/render.js';
import type { IO } from '../io/streams.js';

/** Profile name shown for --sandbox. */
const SANDBOX_PROFILE = 'sandbox';

/** Where a command's requests go, each part resolved on first use. */
export interface Targets {
  /** The resolved settings (flags, environment, profile). Pure: reads config, starts nothing. */
  settings(): Promise<Settings>;
  /** The settings requests go to: with --sandbox, those of an embedded sandbox started on first call. */
  target(): Promise<Settings>;
  /** The id per-target caches are kept under: the sandbox's database, or the base URL (none without one). */
  targetKey(): Promise<string | undefined>;
  /** The target and profile the clock skew is kept for; never starts the embedded sandbox (its database names the target). */
  skewKey(): Promise<SkewKey | undefined>;
  /** The output format the profile names, once settings() has read it. */
  profileOutput(): OutputFormat | undefined;
  /** Stops the embedded sandbox, if one was started. */
  close(): Promise<void>;
}

export function targets(init: { io: IO; env: NodeJS.ProcessEnv; globals: GlobalOptions; commandLine: CommandLine; noticesWanted: () => boolean }): Targets {
  const { io, env, globals } = init;
  let settingsPromise: Promise<Settings> | undefined;
  let targetPromise: Promise<Settings> | undefined;
  let profileOutput: OutputFormat | undefined;
  /** The --sandbox database: the target its ETags and names are kept for. */
  let sandboxDb: string | undefined;
  let closeSandbox: (() => Promise<void>) | undefined;

  const settings = (): Promise<Settings> => {
    settingsPromise ??= (async () => {
      const config = await readConfig(env);
      const resolved = resolveSettings({
        flags: {
          profile: globals.profile,
          baseUrl: globals.baseUrl,
          output: globals.output,
          timeout: globals.timeout,
          retries: globals.retries,
        },
        env,
        config,
      });
      profileOutput = resolved.output;
      return resolved;
    })();
    return settingsPromise;
  };

  const target = (): Promise<Settings> => {
    targetPromise ??= (async () => {
      const resolved = await settings();
      if (!globals.sandbox) return resolved;
      const { loadSandbox } = await import('../sandbox-loader.js');
      const { startSandbox, DEMO_API_KEY } = await loadSandbox();
      const firstUse = !(await sandboxDataExists(env));
      sandboxDb = await prepareDefaultSandboxDb(env);
      if (firstUse && init.noticesWanted()) {
        await renderMessage(io, `Using the local sandbox; its data is kept in ${sandboxDb} (empty it with \`${otherCommand(init.commandLine, ['sandbox', 'reset'], [])}\`)`);
      }
      const sandbox = await startSandbox({ db: sandboxDb, port: 0 });
      closeSandbox = sandbox.close;
      return {
        ...resolved,
        profile: SANDBOX_PROFILE,
        baseUrl: sandbox.url,
        apiKey: DEMO_API_KEY,
        sources: { ...resolved.sources, profile: 'sandbox', baseUrl: 'sandbox', apiKey: 'sandbox' },
      };
    })();
    return targetPromise;
  };

  return {
    settings,
    target,
    async targetKey() {
      const resolved = await target();
      if (sandboxDb !== undefined) return targetId({ sandboxDb });
      return resolved.baseUrl === undefined ? undefined : targetId({ baseUrl: resolved.baseUrl });
    },
    async skewKey() {
      if (globals.sandbox) return { target: targetId({ sandboxDb: defaultSandboxDb(env) }), profile: SANDBOX_PROFILE, testClockTrusted: true };
      const resolved = await settings();
      if (resolved.baseUrl === undefined) return undefined;
      const testClockTrusted = trustsTestClock({ embedded: false, baseUrl: resolved.baseUrl, markedSandbox: resolved.markedSandbox === true });
      return { target: targetId({ baseUrl: resolved.baseUrl }), profile: resolved.profile, testClockTrusted };
    },
    profileOutput: () => profileOutput,
    async close() {
      await closeSandbox?.();
    },
  };
}
