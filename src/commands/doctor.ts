import type { Context } from '../context.js';
import type { Settings, SettingSource } from '../config/settings.js';
import { CheckFailedError, UsageError } from '../errors.js';
import { SCOPES } from '../api/probe.js';
import type { Scope } from '../schemas/routes.js';
import { presentReport } from '../io/present/report.js';
import type { doctorCommands } from '../definitions/doctor.js';
import { defineCommand } from '../command-kit/types.js';
import { checkLocalFiles } from '../doctor/local.js';
import { didYouMean } from '../schemas/did-you-mean.js';
import type { OutboxHere } from '../doctor/local.js';
import { journalTarget } from '../bulk/target.js';
import { otherCommand, typedFlag } from '../hint/hint.js';
import type { CommandLine } from '../hint/hint.js';
import type { CheckResult, DoctorReport } from '../doctor/report.js';
import { exitCodeOf, failure, ok, skipped } from '../doctor/report.js';
import { checkService } from '../doctor/service.js';
import { loginCommand } from '../describe-error.js';
import type { FlagName } from '../schemas/flag-name.js';
import { parseDuration } from '../schemas/duration.js';
import { MAX_DOCTOR_WAIT_MS, waitForAnswer } from '../doctor/wait.js';
import { forPeople } from '../io/present.js';
import { renderMessage } from '../io/render.js';

export interface DoctorOptions {
  required: Scope[];
  /** --wait: how long to wait for the service to answer before the checks, in ms (0: not at all). */
  waitMs: number;
}

export default defineCommand<typeof doctorCommands.doctor, DoctorOptions>({
  parse({ flags }, ctx) {
    if (ctx.globals.dryRun) throw new UsageError('--dry-run does not apply: doctor sends only checks that change nothing', '--dry-run');
    const required = flags.requireScope.map((value) => {
      if (!(SCOPES as readonly string[]).includes(value)) {
        throw new UsageError(`--require-scope must be one of ${SCOPES.join(', ')} (got "${value}")${didYouMean(value, SCOPES)}`, '--require-scope');
      }
      return value as Scope;
    });
    return { required: [...new Set(required)], waitMs: flags.wait === undefined ? 0 : waitFlag(flags.wait) };
  },

  async run({ required, waitMs }, ctx) {
    const report = await diagnose(ctx, required, waitMs);
    const failed = report.checks.filter((c) => c.result === 'failure');
    // It holds no service codes, so no names are looked up (the report costs no extra request).
    await presentReport(ctx, report, {
      rows: report.checks,
      checklist: report.checks.map((c) => ({ name: c.check, state: c.result, detail: c.detail, fix: c.fix })),
      fields: ctx.fields(),
      now: ctx.now(),
      summary: failed.length > 0 ? undefined : summary(report.checks.filter((c) => c.result === 'warning').length),
    });
    if (failed.length > 0) {
      const names = failed.map((c) => c.check).join(', ');
      throw new CheckFailedError(`${failed.length} check${failed.length === 1 ? '' : 's'} failed: ${names}`, report.exit_code, failed[0]?.fix);
    }
  },
});

function summary(warnings: number): { text: string; kind: 'success' | 'warn' } {
  if (warnings === 0) return { text: 'All checks passed', kind: 'success' };
  return { text: `No failures; ${warnings} warning${warnings === 1 ? '' : 's'} (each with its fix above)`, kind: 'warn' };
}

/** --wait's duration in ms, by the one duration parser; bounded, so no timer outlives a CI step (or overflows). */
function waitFlag(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(`--wait must be a duration such as 30s, 2m or 1m30s (got "${text}")`, '--wait');
  if (ms > MAX_DOCTOR_WAIT_MS) throw new UsageError(`--wait must be at most 1h (got "${text}")`, '--wait');
  return ms;
}

async function diagnose(ctx: Context, required: readonly Scope[], waitMs: number): Promise<DoctorReport> {
  const report: DoctorReport = {
    ok: false,
    exit_code: 0,
    profile: null,
    profile_from: null,
    base_url: null,
    base_url_from: null,
    api_key_from: null,
    latency_ms: null,
    clock_skew_s: null,
    scopes: Object.fromEntries(SCOPES.map((scope) => [scope, 'unknown'])) as DoctorReport['scopes'],
    checks: [],
  };
  let settings: Settings | undefined;
  try {
    settings = await ctx.target();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    report.checks.push(failure('settings', error.message, error.hint ?? `fix ${error.field ?? 'the setting'}`, 2));
  }
  if (settings !== undefined) {
    Object.assign(report, {
      profile: settings.profile,
      profile_from: settings.sources.profile,
      base_url: settings.baseUrl ?? null,
      base_url_from: settings.baseUrl === undefined ? null : settings.sources.baseUrl,
      api_key_from: settings.apiKey === undefined ? null : settings.sources.apiKey,
    });
    report.checks.push(settingsCheck(settings, ctx.commandLine));
  }
  const usable = settings?.baseUrl !== undefined && settings.apiKey !== undefined;
  if (usable && waitMs > 0) await waitForService(ctx, settings as Settings & { baseUrl: string; apiKey: string }, waitMs);
  if (usable) {
    const findings = await checkService({
      settings: settings as Settings & { baseUrl: string; apiKey: string },
      required,
      now: ctx.now,
      signal: ctx.signal,
      loginCommand: await loginCommand(ctx),
      againCommand: otherCommand(ctx.commandLine, ['doctor']),
      startOver: {
        reset: otherCommand(ctx.commandLine, ['sandbox', 'reset'], []),
        serve: otherCommand(ctx.commandLine, ['sandbox', 'serve', '--db', ':memory:'], []),
        // `sandbox reset` aims at a served sandbox only when its --base-url is typed (commands/sandbox/reset.ts).
        ...(typedFlag(ctx.commandLine, '--base-url') ? { resetServed: otherCommand(ctx.commandLine, ['sandbox', 'reset'], ['--base-url']) } : {}),
      },
      client: (options) => ctx.client(options),
    });
    report.checks.push(...findings.checks);
    report.latency_ms = findings.latencyMs;
    report.clock_skew_s = findings.skewS;
    report.scopes = findings.scopes;
  } else {
    const needs = settings === undefined ? 'needs valid settings' : 'needs a base URL and a key';
    for (const check of ['host', 'key', ...SCOPES.map((s) => `scope ${s}`), 'clock']) report.checks.push(skipped(check, needs));
  }
  report.checks.push(...(await checkLocalFiles(ctx.env, ctx.now() * 1000, await outboxHere(ctx))));
  report.exit_code = exitCodeOf(report.checks);
  report.ok = report.exit_code === 0;
  return report;
}

/** --wait: one probe at a time until the service answers or the time is up; a notice for people at each try. */
async function waitForService(ctx: Context, settings: Settings & { baseUrl: string; apiKey: string }, waitMs: number): Promise<void> {
  const client = ctx.client({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, timeoutMs: settings.timeoutMs, retries: 0 });
  let notices = Promise.resolve();
  try {
    await waitForAnswer({
      client,
      url: settings.baseUrl,
      waitMs,
      signal: ctx.signal,
      notice: (line) => {
        if (forPeople(ctx) && !ctx.globals.quiet) notices = notices.then(() => renderMessage(ctx.io, line, 'warn'));
      },
    });
  } finally {
    await client.close();
    await notices;
  }
}

const FROM: Readonly<Record<SettingSource, string>> = { flag: 'flag', env: 'environment', profile: 'profile', default: 'default', sandbox: '--sandbox' satisfies FlagName };

function settingsCheck(settings: Settings, line: CommandLine): CheckResult {
  const profile = `profile "${settings.profile}" (${settings.sources.profile === 'profile' ? 'current_profile' : FROM[settings.sources.profile]})`;
  if (settings.baseUrl === undefined) {
    return failure('settings', `${profile}: no base URL`, `run \`${otherCommand(line, ['auth', 'login', '--profile', settings.profile, '--base-url', 'URL'], [])}\`, or set PARCELS_BASE_URL`, 2);
  }
  const baseUrl = `base URL ${settings.baseUrl} (${sourceName(settings.sources.baseUrl, 'PARCELS_BASE_URL', '--base-url', settings.profile)})`;
  if (settings.apiKey === undefined) {
    return failure('settings', `${profile}, ${baseUrl}: no API key`, `run \`${otherCommand(line, ['auth', 'login', '--profile', settings.profile], ['--base-url'])}\`, or set PARCELS_API_KEY`, 3);
  }
  const key = `key from ${settings.sources.apiKey === 'sandbox' ? 'the sandbox demo key' : sourceName(settings.sources.apiKey, 'PARCELS_API_KEY', undefined, settings.profile)}`;
  return ok('settings', `${profile}, ${baseUrl}, ${key}`);
}

function sourceName(source: SettingSource, envName: string, flag: FlagName | undefined, profile: string): string {
  if (source === 'env') return envName;
  if (source === 'flag') return flag ?? '';
  if (source === 'profile') return `profile "${profile}"`;
  return FROM[source];
}

/** This target's outbox, and the commands that empty it with the user's own --profile, --base-url or --sandbox. */
async function outboxHere(ctx: Context): Promise<OutboxHere | undefined> {
  let target: string;
  try {
    target = await journalTarget(ctx);
  } catch {
    return undefined;
  }
  return { target, flush: otherCommand(ctx.commandLine, ['outbox', 'flush']), drop: otherCommand(ctx.commandLine, ['outbox', 'drop', '--rejected']) };
}
