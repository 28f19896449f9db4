// The sandbox of bench/inspector-log.mjs: started here, its URL and an inspector login link sent to the parent.
import { startSandbox } from '../dist/sandbox/index.js';

const sandbox = await startSandbox({ db: ':memory:' });
process.send({ url: sandbox.url, link: sandbox.inspectorLink() });
process.on('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
