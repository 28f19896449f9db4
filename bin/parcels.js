#!/usr/bin/env node
import module from 'node:module';
module.enableCompileCache?.();
const { run } = await import('../dist/cli.js');
process.exitCode = await run(process.argv.slice(2));
