#!/usr/bin/env node
// CommonJS on purpose (bin/package.json): a CommonJS file starts without Node's ESM loader, so
// `--version` and `--help` answer from the small dist/fast-path.cjs, shell completion from
// dist/complete.cjs; every command loads dist/cli.js.
require('node:module').enableCompileCache?.();
const argv = process.argv.slice(2);
// The fast path answers at most two words (FAST_PATH_WORDS in src/fast-path.ts): a longer command line skips reading it.
const answer =
  argv[0] === '__complete'
    ? require('../dist/complete.cjs').answerCompletion(argv.slice(1), process.env)
    : argv.length <= 2
      ? require('../dist/fast-path.cjs').fastAnswer(argv)
      : undefined;
if (answer !== undefined) writeAnswer(answer);
else import('../dist/cli.js').then(async ({ run }) => (process.exitCode = await run(argv)));

/**
 * Written straight to fd 1: creating process.stdout loads Node's stream modules (~6% of the CPU of
 * a `--help` or a completion). A reader gone (EPIPE) ends the answer quietly; a non-blocking stdout
 * that is full (EAGAIN) gets the rest through process.stdout.
 */
function writeAnswer(text) {
  const fs = require('node:fs');
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += fs.writeSync(1, bytes, written);
  } catch (error) {
    if (error.code === 'EAGAIN') process.stdout.write(bytes.subarray(written));
    else if (error.code !== 'EPIPE') throw error;
  }
}
