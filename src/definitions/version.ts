/** `version`: plain data; src/commands/loaders.ts names the module that runs it. */
import { command } from './definition.js';

export const versionCommands = {
  version: command({
    path: ['version'],
    summary: "Print the CLI's version, and Node's (--json for a script; --version prints the number alone)",
    flags: {},
    examples: ['parcels version', 'parcels version --json'],
  }),
} as const;
