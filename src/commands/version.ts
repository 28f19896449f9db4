import { defineCommand } from '../command-kit/types.js';
import type { versionCommands } from '../definitions/version.js';
import { presentRecordOrLine } from '../io/present.js';
import { VERSION } from '../version.js';

/** `parcels version`, as gh and kubectl have one: a line for people, a record for scripts. */
export default defineCommand<typeof versionCommands.version, Record<string, never>>({
  parse: () => ({}),
  async run(_options, ctx) {
    const record = { version: VERSION, node: process.versions.node, platform: `${process.platform}-${process.arch}` };
    await presentRecordOrLine(ctx, record, `parcels ${VERSION} (node ${record.node}, ${record.platform})`, ctx.now());
  },
});
