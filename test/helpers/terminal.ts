import { Readable } from 'node:stream';
import { run } from '../../src/cli.js';
import type { CliResult } from './cli.js';
import { recordHints } from './hint-replay.js';
import { captureIO } from './io.js';

/** Runs the CLI in-process as at a terminal where the user types `typed` (e.g. a key at a hidden prompt, or "y\n"). */
export async function runAtTerminal(argv: string[], opts: { env: NodeJS.ProcessEnv; typed: string }): Promise<CliResult> {
  const captured = captureIO({ tty: true, env: opts.env });
  const io = { ...captured.io, stdin: Readable.from([Buffer.from(opts.typed, 'utf8')]), stdinIsTTY: true };
  const code = await run(argv, { io, env: opts.env });
  recordHints(argv, opts.env, captured.stderr());
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

export { hintedCommands, shellWords } from './hint-replay.js';
