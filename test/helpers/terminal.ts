import { Readable } from 'node:stream';
import { run } from '../../src/cli.js';
import type { CliResult } from './cli.js';
import { captureIO } from './io.js';

/** Runs the CLI in-process as at a terminal where the user types `typed` (e.g. a key at a hidden prompt, or "y\n"). */
export async function runAtTerminal(argv: string[], opts: { env: NodeJS.ProcessEnv; typed: string }): Promise<CliResult> {
  const captured = captureIO({ tty: true, env: opts.env });
  const io = { ...captured.io, stdin: Readable.from([Buffer.from(opts.typed, 'utf8')]), stdinIsTTY: true };
  const code = await run(argv, { io, env: opts.env });
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

/** POSIX shell words of a printed command (bare words and '…' quoting, as shellQuote writes them). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  const pattern = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (const match of command.matchAll(pattern)) words.push(match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : (match[2] as string));
  return words;
}

/** Every `parcels …` command quoted in backticks on stderr, as argv (without "parcels"). */
export function hintedCommands(stderr: string): string[][] {
  return [...stderr.matchAll(/`parcels ([^`]+)`/g)].map((m) => shellWords(m[1] as string));
}
