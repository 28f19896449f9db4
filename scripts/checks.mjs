// `npm run checks` (part of `npm test`): the two type checks and the lint at once. Each is one
// single-threaded process, so on two cores they take the time of the longest rather than their sum;
// each one's output is printed whole when it ends, and the run fails if any of them failed.
import { spawn } from 'node:child_process';

const CHECKS = [
  ['tsc', ['--noEmit']],
  ['tsc', ['--noEmit', '-p', 'src/sandbox/inspector-page']],
  ['eslint', ['.']],
  ['node', ['scripts/check-imports.mjs']],
];

function run([command, args]) {
  return new Promise((resolve) => {
    const child = spawn(command === 'node' ? process.execPath : `node_modules/.bin/${command}`, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (err) => resolve({ name: `${command} ${args.join(' ')}`, code: 1, output: Buffer.from(`${err.message}\n`) }));
    child.on('close', (code, signal) => resolve({ name: `${command} ${args.join(' ')}`, code: code ?? (signal === null ? 1 : 128), output: Buffer.concat(output) }));
  });
}

const results = await Promise.all(CHECKS.map(run));
for (const { name, code, output } of results) {
  process.stdout.write(`> ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`}\n`);
  process.stdout.write(output);
}
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
