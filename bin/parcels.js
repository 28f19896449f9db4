#!/usr/bin/env node
// CommonJS on purpose (bin/package.json): a CommonJS file starts without Node's ESM loader, so
// `--version` and `--help` answer from the small dist/fast-path.cjs; every command loads dist/cli.js.
require('node:module').enableCompileCache?.();
const argv = process.argv.slice(2);
const answer = require('../dist/fast-path.cjs').fastAnswer(argv);
if (answer !== undefined) process.stdout.write(answer);
else import('../dist/cli.js').then(async ({ run }) => (process.exitCode = await run(argv)));
