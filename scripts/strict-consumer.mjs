// The compiler options of a strict TypeScript consumer of the package: what scripts/check-package.mjs
// compiles every public entry with, and scripts/test-packed.mjs the packed tier's suites.
export const STRICT_CONSUMER_OPTIONS = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  noEmit: true,
  types: ['node'],
};
