import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { confirm, promptHidden } from '../../io/prompt.js';
import { renderMessage } from '../../io/render.js';
import { readAll } from '../../io/streams.js';
import { isLoopbackHost } from '../../schemas/host.js';
import { presentSuccess } from '../../io/present.js';
import type { authCommands } from '../../definitions/auth.js';
import { defineCommand } from '../../command-kit/types.js';
import { otherCommand, sameCommand } from '../../hint/hint.js';
import { verifyKey } from '../../api/verify.js';
import { updateConfig } from '../../config/store.js';
import { maskKey } from '../../api/redact.js';

export interface LoginOptions {
  keyFrom: 'stdin' | 'prompt';
  verify: boolean;
  insecure: boolean;
}

export default defineCommand<typeof authCommands.authLogin, LoginOptions>({
  parse({ flags }, ctx) {
    if (ctx.globals.sandbox) throw new UsageError('--sandbox needs no login: it uses the sandbox demo key', '--sandbox');
    const keyFrom = flags.withKeyStdin ? 'stdin' : 'prompt';
    if (keyFrom === 'prompt' && !ctx.io.stdinIsTTY) {
      throw new UsageError(
        'no terminal to prompt for the key',
        undefined,
        `pipe the key in with --with-key-stdin, e.g. printf %s "$KEY" | ${sameCommand(ctx.commandLine, { drop: ['--with-key-stdin'], add: ['--with-key-stdin'] })}`,
      );
    }
    return { keyFrom, verify: flags.verify, insecure: flags.insecure };
  },

  async run({ keyFrom, verify, insecure }, ctx) {
    const settings = await ctx.settings();
    if (settings.baseUrl === undefined) {
      throw new UsageError(`no base URL for profile "${settings.profile}": add --base-url URL`, '--base-url');
    }
    if (!insecure && isPlainRemote(settings.baseUrl)) await confirmUnencrypted(ctx, settings.baseUrl);
    const key = (keyFrom === 'stdin' ? await readAll(ctx.io.stdin) : await promptHidden(ctx.io, 'API key: ')).trim();
    if (key === '') throw new UsageError('the API key is empty', keyFrom === 'stdin' ? '--with-key-stdin' : 'API key');
    if (/\s/.test(key)) throw new UsageError('the API key must not contain whitespace', keyFrom === 'stdin' ? '--with-key-stdin' : 'API key');
    if (verify) {
      const check = await verifyKey(ctx.client({ baseUrl: settings.baseUrl, apiKey: key, timeoutMs: settings.timeoutMs, retries: settings.retries }), ctx.signal);
      if (check.missingScope !== undefined) {
        await renderMessage(ctx.io, `The key works but lacks the ${check.missingScope} scope; saving it anyway.`, 'warn');
      }
    }

    await updateConfig(ctx.env, (config) => {
      const profile = config.profiles[settings.profile] ?? {};
      config.profiles[settings.profile] = { ...profile, base_url: settings.baseUrl, api_key: key };
      config.current_profile ??= settings.profile;
    });
    if (verify) {
      await presentSuccess(ctx, `Logged in to ${settings.baseUrl} as profile "${settings.profile}" (key ${maskKey(key)})`);
      return;
    }
    // Nothing was asked of the service: say so, and how to ask it.
    await presentSuccess(ctx, `Saved the key for ${settings.baseUrl} as profile "${settings.profile}" (key ${maskKey(key)}), not checked: \`${otherCommand(ctx.commandLine, ['auth', 'status'])}\` checks it`);
  },
});

/** Plain http:// to another machine: the key would cross the network unencrypted. */
export function isPlainRemote(baseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:') return false;
  return !isLoopbackHost(url.hostname);
}

async function confirmUnencrypted(ctx: Context, baseUrl: string): Promise<void> {
  const warning = `${baseUrl} is plain http:// to another machine: the API key would travel unencrypted`;
  // With the key itself coming from stdin, stdin is no place for a yes: only --insecure goes on.
  if (ctx.io.stdinIsTTY && ctx.io.stderrIsTTY) {
    await renderMessage(ctx.io, warning, 'warn');
    if (await confirm(ctx.io, 'Send the key over plain http anyway?')) return;
    throw new UsageError('login stopped: the key was not sent or saved', '--insecure', 'use an https:// base URL, or add --insecure to accept the risk');
  }
  throw new UsageError(warning, '--insecure', 'use an https:// base URL, or add --insecure to accept the risk');
}
