/** `config …`: plain data; src/commands/loaders.ts names the module that runs each. */
import { command } from './definition.js';

export const configCommands = {
  configList: command({
    path: ['config', 'list'],
    summary: 'Show the settings of every profile (keys masked)',
    flags: {},
    examples: ['parcels config list'],
  }),
  configGet: command({
    path: ['config', 'get'],
    args: '<key>',
    summary: 'Print one setting of the profile (output, timeout, retries, base_url, bulk_matched_lines, sandbox, queue_writes)',
    flags: {},
    examples: ['parcels config get output'],
  }),
  configSet: command({
    path: ['config', 'set'],
    args: '<key> <value>',
    summary: 'Change one setting of the profile (output, timeout, retries, base_url, bulk_matched_lines, sandbox, queue_writes)',
    flags: {},
    examples: ['parcels config set output json', 'parcels config set timeout 10 --profile ci', 'parcels config set queue_writes yes'],
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
    summary: 'Remove one setting from the profile (output, timeout, retries, base_url, bulk_matched_lines, sandbox, queue_writes)',
    flags: {},
    examples: ['parcels config unset output', 'parcels config unset timeout --profile ci'],
  }),
} as const;
