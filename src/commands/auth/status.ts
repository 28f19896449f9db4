import { maskKey } from '../../api/redact.js';
import { defineCommand } from '../types.js';
import type { definitions } from '../table.js';
import { showRecord } from '../shared/show.js';

export default defineCommand<typeof definitions.authStatus, Record<string, never>>({
  parse: () => ({}),
  async run(_options, ctx) {
    // With --sandbox, the status of what requests would use: the embedded sandbox.
    const settings = await ctx.target();
    await showRecord(ctx, {
      profile: settings.profile,
      base_url: settings.baseUrl ?? null,
      base_url_from: settings.sources.baseUrl,
      api_key: settings.apiKey === undefined ? null : maskKey(settings.apiKey),
      api_key_from: settings.apiKey === undefined ? null : settings.sources.apiKey,
      logged_in: settings.apiKey !== undefined,
    });
  },
});
