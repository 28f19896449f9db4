import type { Context } from '../../context.js';
import { ApiError, UsageError } from '../../errors.js';
import { promptHidden } from '../../io/prompt.js';
import { renderMessage } from '../../io/render.js';
import { readAll } from '../../io/streams.js';
import { USER_AGENT } from '../../version.js';
import { defineCommand } from '../types.js';

export interface LoginOptions {
  keyFrom: 'stdin' | 'prompt';
  verify: boolean;
}

export default defineCommand<LoginOptions>({
  parse({ flags }, ctx) {
    if (ctx.globals.sandbox) throw new UsageError('--sandbox needs no login: it uses the sandbox demo key', '--sandbox');
    const keyFrom = flags.withKeyStdin === true ? 'stdin' : 'prompt';
    if (keyFrom === 'prompt' && !ctx.io.stdinIsTTY) {
      throw new UsageError(
        'no terminal to prompt for the key',
        '--with-key-stdin',
        'pipe the key in with --with-key-stdin, e.g. printf %s "$KEY" | parcels auth login --with-key-stdin',
      );
    }
    return { keyFrom, verify: flags.verify !== false };
  },

  async run({ keyFrom, verify }, ctx) {
    const settings = await ctx.settings();
    if (settings.baseUrl === undefined) {
      throw new UsageError(`no base URL for profile "${settings.profile}": add --base-url URL`, '--base-url');
    }
    const key = (keyFrom === 'stdin' ? await readAll(ctx.io.stdin) : await promptHidden(ctx.io, 'API key: ')).trim();
    if (key === '') throw new UsageError('the API key is empty', keyFrom === 'stdin' ? '--with-key-stdin' : 'API key');
    if (/\s/.test(key)) throw new UsageError('the API key must not contain whitespace', keyFrom === 'stdin' ? '--with-key-stdin' : 'API key');
    if (verify) await verifyKey(ctx, settings.baseUrl, key);

    const { updateConfig } = await import('../../config/store.js');
    await updateConfig(ctx.env, (config) => {
      const profile = config.profiles[settings.profile] ?? {};
      config.profiles[settings.profile] = { ...profile, base_url: settings.baseUrl, api_key: key };
      config.current_profile ??= settings.profile;
    });
    const { maskKey } = await import('../../api/redact.js');
    await renderMessage(ctx.io, `Logged in to ${settings.baseUrl} as profile "${settings.profile}" (key ${maskKey(key)})`, 'success');
  },
});

/** One read request with the new key: a 401 stops the login; a 403 means the key works but lacks that scope. */
async function verifyKey(ctx: Context, baseUrl: string, key: string): Promise<void> {
  const { ApiClient } = await import('../../api/http.js');
  const { getCouriers } = await import('../../api/account.js');
  const settings = await ctx.settings();
  const client = new ApiClient({ baseUrl, apiKey: key, timeoutMs: settings.timeoutMs, retries: settings.retries, userAgent: USER_AGENT });
  try {
    await getCouriers(client);
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      await renderMessage(ctx.io, 'The key works but lacks the deliveries:read scope; saving it anyway.', 'warn');
      return;
    }
    if (error instanceof ApiError && error.status === 401) {
      throw new ApiError(401, error.code, 'the API key was refused (invalid or expired); nothing was saved', error.body, undefined, 'check the key in the API console and run `parcels auth login` again');
    }
    throw error;
  } finally {
    await client.close();
  }
}
