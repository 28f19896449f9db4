const argv = process.argv.slice(2);
import('../dist/cli.js').then(async ({ run }) => (process.exitCode = await run(argv)));
