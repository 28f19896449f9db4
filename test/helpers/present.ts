/**
 * Prints a presenter result kind as a user's choice of format, --jq, --quiet and --fields would,
 * from a context that says only what the user chose (test/unit/io-present*.test.ts).
 */
import { expect } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { compileJq } from '../../src/io/jq.js';
import type { OutputFormat } from '../../src/io/output-format.js';
import { captureIO } from './io.js';

/** 2020-01-01T10:00:00Z, and the service's clock a day later. */
export const T = 1_577_872_800;
export const NOW = T + 86_400;

export interface Choice {
  format: OutputFormat;
  jq?: string;
  quiet?: boolean;
  fields?: string;
  tty?: boolean;
}

/** A context as a command gets it, saying only what the user chose; stdout, stderr and the ids remembered are recorded. */
export async function context(choice: Choice) {
  const c = captureIO({ tty: choice.tty, columns: 120 });
  const filter = choice.jq === undefined ? undefined : await compileJq(choice.jq);
  const remembered: string[] = [];
  const ctx = {
    io: c.io,
    globals: { quiet: choice.quiet, fields: choice.fields },
    commandLine: { words: ['list', '--status', 'in_transit'], flags: [{ long: '--status' as const, takesValue: true }] },
    outputFormat: (): OutputFormat => (filter === undefined ? choice.format : 'json'),
    jq: async () => filter,
    fields: () => choice.fields?.split(','),
    serviceNow: async () => NOW,
    codeNames: async () => ({}),
    knownIds: async () => ({ max: 1000, remember: async (ids: readonly string[]) => void remembered.push(...ids) }),
    prefixIds: async () => [...remembered],
    settings: async () => ({}),
  };
  return { ctx, out: () => ({ stdout: c.stdout(), stderr: c.stderr() }), remembered };
}

export const PARCEL = { entry_id: 'p-1', status: 2, recipient_name: 'Ann' };

export const line = (value: unknown): string => `${JSON.stringify(value)}\n`;
export const pretty = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export type Ctx = Awaited<ReturnType<typeof context>>['ctx'];
export interface Printed {
  stdout: string;
  stderr?: string;
  /** The usage error raised, as `--flag: message`. */
  error?: string;
}

/** What the kind prints for this choice (stderr '' unless given), or the usage error it raises. */
export async function printed(choice: Choice, present: (ctx: Ctx) => Promise<unknown>): Promise<Printed> {
  const c = await context(choice);
  try {
    await present(c.ctx);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { ...c.out(), error: `${error.field}: ${error.message}` };
  }
  return c.out();
}

export const piped: Choice = { format: 'table' };
export const terminal: Choice = { format: 'table', tty: true };
export const wide: Choice = { format: 'wide' };
export const json: Choice = { format: 'json' };
export const ndjson: Choice = { format: 'ndjson' };
export const csv: Choice = { format: 'csv' };
export const jq: Choice = { format: 'table', jq: '.entry_id' };
export const quiet: Choice = { format: 'table', quiet: true };

/** Each choice with what it prints. */
export async function expectEach(present: (ctx: Ctx) => Promise<unknown>, cases: [Choice, Printed][]): Promise<void> {
  for (const [choice, expected] of cases) {
    expect({ choice, ...(await printed(choice, present)) }).toEqual({ choice, stderr: '', ...expected });
  }
}

export const PARCEL_TSV = 'entry_id\tp-1\nstatus\t2 in_transit\nrecipient_name\tAnn\n';
export const PARCEL_KV = 'entry_id        p-1\nstatus          in_transit\nrecipient_name  Ann\n';
export const PARCEL_CSV = 'entry_id,status,recipient_name\np-1,2,Ann\n';
