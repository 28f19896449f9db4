/**
 * docs/commands.md, rendered from the command definitions: every command with its arguments, flags
 * (default and rules), the global flags, examples, and the help topics. `npm run docs` writes it;
 * test/unit/docs.test.ts fails when the file in the repository differs from this rendering.
 */
import type { CommandDefinition, FlagSpec, GlobalFlagSpec } from '../definitions/definition.js';
import { longFlag } from '../definitions/definition.js';
import { GLOBAL_FLAGS } from '../definitions/globals.js';
import { COMMANDS } from '../definitions/table.js';
import { helpTopic } from '../help.js';

/** A table cell: pipes escaped, so a description never splits a Markdown row. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

function code(text: string): string {
  return `\`${cell(text)}\``;
}

function defaultOf(spec: GlobalFlagSpec): string {
  if (spec.type === 'bool') return spec.flags.includes('--no-') ? 'on' : 'off';
  if (spec.type === 'list') return 'none (repeatable)';
  const value = spec.default ?? spec.settingDefault;
  return value === undefined ? '—' : code(String(value));
}

/** The rules resolve-flags enforces for this flag, in words, naming other flags as the user types them. */
function rulesOf(spec: FlagSpec, flags: Readonly<Record<string, FlagSpec>>): string[] {
  const flagName = (key: string): string => {
    const other = flags[key];
    return other === undefined ? key : code(longFlag(other));
  };
  const rules: string[] = [];
  if ('required' in spec && spec.required === true) rules.push('required');
  if (spec.type === 'string' && spec.requiredUnless !== undefined) rules.push(`required unless ${spec.requiredUnless.map(flagName).join(' or ')}`);
  if (spec.type === 'int') {
    rules.push('integer');
    if (spec.min !== undefined && spec.max !== undefined) rules.push(`${spec.min} to ${spec.max}`);
    else if (spec.min !== undefined) rules.push(`at least ${spec.min}`);
    else if (spec.max !== undefined) rules.push(`at most ${spec.max}`);
  }
  if (spec.type === 'choice') rules.push(`one of ${spec.choices.map(code).join(', ')}`);
  if (spec.conflicts !== undefined) rules.push(`not with ${spec.conflicts.map(flagName).join(', ')}`);
  if (spec.env !== undefined) rules.push(`env ${code(spec.env)}`);
  return rules;
}

/** One row per flag: its syntax, description, default and the rules resolve-flags enforces. */
function flagTable(flags: Readonly<Record<string, GlobalFlagSpec>>): string[] {
  return [
    '| Flag | Description | Default | Rules |',
    '|---|---|---|---|',
    ...Object.values(flags).map((spec) => `| ${code(spec.flags)} | ${cell(spec.description)} | ${defaultOf(spec)} | ${rulesOf(spec, flags).join('; ')} |`),
  ];
}

function usage(def: CommandDefinition): string {
  return ['parcels', ...def.path, ...(def.args ? [def.args] : []), ...(Object.keys(def.flags).length > 0 ? ['[options]'] : [])].join(' ');
}

function anchor(def: CommandDefinition): string {
  return ['parcels', ...def.path].join('-');
}

function commandSection(def: CommandDefinition): string[] {
  const lines = [`## \`parcels ${def.path.join(' ')}\``, '', def.summary, '', '```sh', usage(def), '```', ''];
  if (Object.keys(def.flags).length > 0) lines.push(...flagTable(def.flags), '');
  lines.push('Global flags: see [Global flags](#global-flags).', '', 'Examples:', '', '```sh', ...def.examples, '```', '');
  for (const note of def.notes ?? []) lines.push(note, '');
  return lines;
}

function topicSection(title: string, topic: string): string[] {
  const text = helpTopic(topic);
  if (text === undefined) throw new Error(`no help topic ${topic}`);
  return [`## ${title}`, '', `\`parcels help ${topic}\`:`, '', '```text', text.trimEnd(), '```', ''];
}

export function commandsReference(
  commands: readonly CommandDefinition[] = COMMANDS,
  globals: Readonly<Record<string, GlobalFlagSpec>> = GLOBAL_FLAGS,
): string {
  const lines = [
    '# Command reference',
    '',
    '<!-- Generated from src/definitions/ by `npm run docs`. Do not edit: a test fails when this file is stale. -->',
    '',
    '`parcels help COMMAND` (or `parcels COMMAND --help`) prints the same for one command.',
    '',
    '## Commands',
    '',
    ...commands.map((def) => `- [\`parcels ${def.path.join(' ')}\`](#${anchor(def)}): ${def.summary}`),
    '',
    '## Global flags',
    '',
    'Every command accepts these, before or after its name. Where a flag has a variable, the flag wins over the variable, the variable over the profile, and the profile over the default.',
    '',
    ...flagTable(globals),
    '',
    ...commands.flatMap(commandSection),
    ...topicSection('Exit codes', 'exit-codes'),
    ...topicSection('Environment', 'environment'),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
