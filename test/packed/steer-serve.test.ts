import { randomUUID } from 'node:crypto';
import { connectTestSandbox } from 'parcels/testing';
import { inject } from 'vitest';
import { steeringSuite } from './steering.js';

// The `parcels sandbox serve` of global-setup.ts, shared with the other files: each test gets a
// tenant of its own (removed by its handle's close()).
const serve = await connectTestSandbox(inject('serve'));
steeringSuite((seed) => serve.tenant(`steer-${randomUUID().slice(0, 8)}`, { seed }));
