/** `completion`: plain data; src/commands/loaders.ts names the module that runs it. */
import { command } from './definition.js';

export const completionCommands = {
  completion: command({
    path: ['completion'],
    args: '<shell>',
    summary: 'Print the completion script for bash, zsh or fish',
    notes: ['Create the directory first on a fresh account (mkdir -p); the README has the install lines for each shell.'],
    flags: {},
    examples: [
      'parcels completion bash > ~/.local/share/bash-completion/completions/parcels',
      'parcels completion zsh > ~/.zfunc/_parcels',
      'parcels completion fish > ~/.config/fish/completions/parcels.fish',
    ],
  }),
} as const;
