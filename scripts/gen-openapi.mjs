// Writes docs/openapi.json (or the file given) from the shared zod schemas: `npm run docs`.
// test/unit/openapi.test.ts fails when the committed file is stale.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, importSource } from './import-source.mjs';

const { openApiDocument } = await importSource('src/schemas/openapi.ts');
const file = process.argv[2] ?? join(ROOT, 'docs', 'openapi.json');
writeFileSync(file, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`wrote ${file}`);
