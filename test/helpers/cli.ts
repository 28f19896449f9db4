import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/cli.js';
import { recordHints } from './hint-replay.js';
import { captureIO } from './io.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A fresh, empty PARCELS_CONFIG_DIR: tests never touch the real home. */
export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'parcels-test-'));
}

/** Runs the CLI in-process with captured streams, as `main(argv)` would in the binary. */
export async function runCli(
  argv: string[],
  opts: { env: NodeJS.ProcessEnv; stdin?: string; tty?: boolean; now?: () => number },
): Promise<CliResult> {
  const captured = captureIO({ env: opts.env, stdin: opts.stdin, tty: opts.tty });
  const code = await run(argv, { io: captured.io, env: opts.env, now: opts.now });
  recordHints(argv, opts.env, captured.stderr());
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}
