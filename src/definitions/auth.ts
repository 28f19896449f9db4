/** `auth …`: plain data; src/commands/loaders.ts names the module that runs each. */
import { command } from './definition.js';

export const authCommands = {
  authLogin: command({
    path: ['auth', 'login'],
    summary: 'Save an API key for a profile (read from a hidden prompt or stdin, never argv)',
    flags: {
      withKeyStdin: { type: 'bool', flags: '--with-key-stdin', description: 'read the key from standard input' },
      verify: { type: 'bool', flags: '--no-verify', description: 'save without checking the key with a read request (it says "not checked")' },
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
    flags: { offline: { type: 'bool', flags: '--offline', description: 'answer from the local settings only, sending nothing (stderr says what was not checked)' } },
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
    summary: "Remove a profile's saved key (--remove-profile: the whole profile)",
    flags: { removeProfile: { type: 'bool', flags: '--remove-profile', description: 'remove the profile itself, its settings with its key' } },
    examples: ['parcels auth logout --profile ci', 'parcels auth logout --profile old --remove-profile'],
  }),
  authSwitch: command({
    path: ['auth', 'switch'],
    args: '<profile>',
    summary: 'Make a saved profile the default one',
    flags: {},
    examples: ['parcels auth switch prod'],
  }),
} as const;
