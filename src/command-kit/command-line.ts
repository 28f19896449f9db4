import type { CommandLine } from '../hint/hint.js';
import type { FlagSpec } from '../definitions/definition.js';
import { flagSyntax } from '../definitions/definition.js';
import { GLOBAL_FLAGS } from '../definitions/globals.js';

/** The command line the hint builder reads: the words typed, the global flags and the command's own (`flags`). */
export function commandLine(words: readonly string[], flags: readonly Pick<FlagSpec, 'flags'>[] = []): CommandLine {
  return { words, flags: [...Object.values(GLOBAL_FLAGS), ...flags].map(flagSyntax) };
}
