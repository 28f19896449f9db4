#!/usr/bin/env node
// CommonJS on purpose (bin/package.json): a CommonJS file starts without Node's ESM loader, so
// `--version` and `--help` answer from the small dist/fast-path.cjs, shell completion from
// dist/complete.cjs; every command loads dist/cli.js.
require('node:module').enableCompileCache?.();
const argv = process.argv.slice(2);
if (argv[0] === '__complete') {
  // Written straight to fd 1: creating process.stdout loads Node's stream modules (~5 ms of CPU).
  require('node:fs').writeSync(1, require('../dist/complete.cjs').answerCompletion(argv.slice(1), process.env));
} else {
  const answer = require('../dist/fast-path.cjs').fastAnswer(argv);
  if (answer !== undefined) process.stdout.write(answer);
  else import('../dist/cli.js').then(async ({ run }) => (process.exitCode = await run(argv)));
}
