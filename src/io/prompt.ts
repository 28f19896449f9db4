import { CancelledError } from '../errors.js';
import type { IO } from './streams.js';

/** Reads one line from the terminal without echoing it (for secrets). The question goes to stderr. */
export async function promptHidden(io: IO, question: string): Promise<string> {
  const stdin = io.stdin as NodeJS.ReadStream;
  const wasRaw = stdin.isRaw === true;
  // Echo off before the question shows: a key typed (or pasted) as soon as it appears is never echoed.
  stdin.setRawMode?.(true);
  io.stderr.write(question);
  stdin.setEncoding('utf8');
  stdin.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let value = '';
      const onData = (chunk: string): void => {
        for (const char of chunk) {
          if (char === '\r' || char === '\n' || char === '\u0004') {
            stdin.off('data', onData);
            resolve(value);
            return;
          }
          if (char === '\u0003') {
            stdin.off('data', onData);
            reject(new CancelledError('login cancelled'));
            return;
          }
          if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
          else value += char;
        }
      };
      stdin.on('data', onData);
    });
  } finally {
    stdin.setRawMode?.(wasRaw);
    stdin.pause();
    io.stderr.write('\n');
  }
}

/**
 * Asks for one line on the terminal (question on stderr) and resolves with it, without its line
 * end; at the end of input, with what was typed. Hands back what follows the answer (typed ahead),
 * so the next question reads it.
 */
export async function askLine(io: IO, question: string): Promise<string> {
  io.stderr.write(question);
  const stdin = io.stdin as NodeJS.ReadStream;
  stdin.setEncoding('utf8');
  stdin.resume();
  try {
    return await new Promise<string>((resolve) => {
      let line = '';
      const onData = (chunk: string): void => {
        line += chunk;
        const end = line.search(/[\r\n]/);
        if (end >= 0) {
          // Stop at once and hand back what follows the answer: the next prompt reads it.
          stdin.pause();
          stdin.off('data', onData);
          stdin.off('end', onEnd);
          const rest = line.slice(end + 1).replace(/^\n/, '');
          if (rest !== '') stdin.unshift(rest);
          resolve(line.slice(0, end));
        }
      };
      const onEnd = (): void => resolve(line);
      stdin.on('data', onData);
      stdin.once('end', onEnd);
    });
  } finally {
    stdin.pause();
  }
}

/** Asks a yes/no question on the terminal (question on stderr); only "y" or "yes" is a yes. */
export async function confirm(io: IO, question: string): Promise<boolean> {
  return /^\s*y(es)?\s*$/i.test(await askLine(io, `${question} [y/N] `));
}
