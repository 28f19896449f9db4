import { startTestSandbox } from 'parcels/testing';
import { steeringSuite } from './steering.js';

// A sandbox of its own for each test, in this process.
steeringSuite((seed) => startTestSandbox({ seed }));
