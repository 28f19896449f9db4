/** commander's parser errors in the CLI's own style (`Error:`, a did-you-mean to paste, the usage line). */
import type { Command as CommanderCommand } from 'commander';
import type { CommandDefinition } from '../definitions/definition.js';
import { longFlag } from '../definitions/definition.js';
import { GLOBAL_FLAGS } from '../definitions/globals.js';
import { EXIT } from '../errors.js';
import { correctedCommand, tokenize } from '../hint/hint.js';
import type { CommandLine } from '../hint/hint.js';
import type { ErrorInfo } from '../io/render.js';

/**
 * commander's `error: unknown option '--statsu'\n(Did you mean --status?)` as the CLI's own error:
 * the suggestion as the user's own command line corrected, to paste (JSON keeps the bare word in
 * `suggestion`); a missing argument that takes known values lists them.
 */
export function parserErrorInfo(text: string, line: CommandLine, def: CommandDefinition | undefined, json: boolean, path: string): ErrorInfo {
  const lines = text.trim().replace(/^error: /, '').split('\n');
  const suggestion = /^\(Did you mean (?:one of )?(.+)\?\)$/.exec(lines.at(-1) ?? '')?.[1];
  let message = (suggestion === undefined ? lines : lines.slice(0, -1)).join(' ');
  const missing = /^missing required argument '(.+)'$/.exec(message)?.[1];
  const position = missing === undefined ? -1 : (def?.args ?? '').split(' ').findIndex((arg) => arg.replace(/[<>[\].]/g, '') === missing);
  const values = def?.argValues?.[position]?.values;
  if (values !== undefined) message += `: one of ${Object.keys(values).join(', ')}`;
  const wrong = /^unknown (?:command|option) '([^']+)'$/.exec(message)?.[1];
  const single = suggestion !== undefined && !suggestion.includes(',') ? suggestion : undefined;
  const info: ErrorInfo = { message, code: 'invalid_usage', exitCode: EXIT.USAGE };
  if (json) return suggestion === undefined ? info : { ...info, suggestion };
  const corrected = wrong !== undefined && single !== undefined ? correctedCommand(line, wrong, single) : undefined;
  if (corrected !== undefined) return { ...info, hint: `did you mean \`${corrected}\`?` };
  const help = `run \`${path} --help\` for usage and examples`;
  return suggestion === undefined ? { ...info, hint: help } : { ...info, suggestion, hint: help };
}

/** `parcels events add`: the command's words. */
export function commandPath(command: CommanderCommand): string {
  const names: string[] = [];
  for (let at: CommanderCommand | null = command; at !== null; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** `parcels events add [options] [id]`: the command's path and commander's usage of it. */
export function usageLine(command: CommanderCommand): string {
  return `${commandPath(command)} ${command.usage()}`;
}

/** Whether the command line (or PARCELS_OUTPUT) asks for JSON output, read before commander parses it. */
export function wantsJsonErrors(line: CommandLine, env: NodeJS.ProcessEnv): boolean {
  const machine = (format: string | undefined): boolean => format === 'json' || format === 'ndjson';
  let format = env.PARCELS_OUTPUT;
  let json = false;
  for (const token of tokenize(line)) {
    if (token.flag === longFlag(GLOBAL_FLAGS.json)) json = true;
    if (token.flag === longFlag(GLOBAL_FLAGS.output)) format = token.value;
  }
  return json || machine(format);
}
