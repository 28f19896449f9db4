import type { IO } from './streams.js';

/** Asks a yes/no question on the terminal (question on stderr); only "y" or "yes" is a yes. */
export async function confirm(io: IO, question: string): Promise<boolean> {
  io.stderr.write(`${question} [y/N] `);
  const stdin = io.stdin as NodeJS.ReadStream;
  stdin.setEncoding('utf8');
  stdin.resume();
  try {
    const answer = await new Promise<string>((resolve) => {
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
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    stdin.pause();
  }
}
