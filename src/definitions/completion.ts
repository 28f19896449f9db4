/** `completion`: plain data; src/commands/loaders.ts names the module that runs it. */
import { command } from './definition.js';

export const completionCommands = {
  completion: command({
    path: ['completion'],
    args: '<shell>',
    summary: 'Print the completion script for bash, zsh or fish',
    flags: {},
    examples: [
      'mkdir -p ~/.local/share/bash-completion/completions && parcels completion bash > ~/.local/share/bash-completion/completions/parcels',
      'mkdir -p ~/.zfunc && parcels completion zsh > ~/.zfunc/_parcels',
      'mkdir -p ~/.config/fish/completions && parcels completion fish > ~/.config/fish/completions/parcels.fish',
    ],
  }),
} as const;
