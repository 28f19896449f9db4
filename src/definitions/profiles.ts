/** Keys, profiles and settings: auth, doctor and config. Plain data: src/commands/loaders.ts names each command's module. */
import { command } from './definition.js';

export const profilesCommands = {
  authLogin: command({
    path: ['auth', 'login'],
    summary: 'Save an API key for a profile (read from a hidden prompt or stdin, never argv)',
    flags: {
      withKeyStdin: { type: 'bool', flags: '--with-key-stdin', description: 'read the key from standard input' },
      verify: { type: 'bool', flags: '--no-verify', description: 'save without checking the key with a read request' },
      insecure: { type: 'bool', flags: '--insecure', description: 'allow a plain http:// base URL that is not this machine (the key travels unencrypted)' },
    },
    examples: [
      'parcels auth login --base-url https://api.example.com',
      'printf %s "$KEY" | parcels auth login --profile ci --base-url https://api.example.com --with-key-stdin',
    ],
  }),
  authStatus: command({
    path: ['auth', 'status'],
    summary: 'Check the key with the service; show the profile, base URL and masked key',
    flags: { offline: { type: 'bool', flags: '--offline', description: 'answer from the local settings only, without asking the service' } },
    examples: ['parcels auth status', 'parcels auth status --json', 'parcels auth status --offline'],
  }),
  authToken: command({
    path: ['auth', 'token'],
    summary: "Print the profile's API key, for PARCELS_API_KEY=$(parcels auth token)",
    flags: { show: { type: 'bool', flags: '--show', description: 'print the key even when stdout is a terminal' } },
    examples: ['parcels auth token --show', 'parcels auth token --profile ci | gh secret set PARCELS_API_KEY'],
  }),
  authLogout: command({
    path: ['auth', 'logout'],
    summary: "Remove a profile's saved key",
    flags: {},
    examples: ['parcels auth logout --profile ci'],
  }),
  doctor: command({
    path: ['doctor'],
    summary: 'Check the set-up as a checklist: settings, host, key, scopes, clock, config file, unfinished work',
    flags: {
      requireScope: {
        type: 'list',
        flags: '--require-scope <scope>',
        description: 'fail unless the key holds this scope (repeatable): deliveries:read, deliveries:write, usage:read, oracle:read',
      },
    },
    examples: ['parcels doctor', 'parcels doctor --json --require-scope deliveries:write'],
  }),
  authSwitch: command({
    path: ['auth', 'switch'],
    args: '<profile>',
    summary: 'Make a saved profile the default one',
    flags: {},
    examples: ['parcels auth switch prod'],
  }),
  configList: command({
    path: ['config', 'list'],
    summary: 'Show the settings of every profile (keys masked)',
    flags: {},
    examples: ['parcels config list'],
  }),
  configGet: command({
    path: ['config', 'get'],
    args: '<key>',
    summary: 'Print one setting of the profile (output, timeout, retries, base_url)',
    flags: {},
    examples: ['parcels config get output'],
  }),
  configSet: command({
    path: ['config', 'set'],
    args: '<key> <value>',
    summary: 'Change one setting of the profile (output, timeout, retries, base_url)',
    flags: {},
    examples: ['parcels config set output json', 'parcels config set timeout 10 --profile ci'],
  }),
  configUse: command({
    path: ['config', 'use'],
    args: '<profile>',
    summary: 'Make a saved profile the default one (same as auth switch)',
    flags: {},
    examples: ['parcels config use prod'],
  }),
  configUnset: command({
    path: ['config', 'unset'],
    args: '<key>',
    summary: 'Remove one setting from the profile (output, timeout, retries, base_url)',
    flags: {},
    examples: ['parcels config unset output', 'parcels config unset timeout --profile ci'],
  }),
} as const;
