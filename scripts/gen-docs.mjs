// Writes docs/commands.md (or the file given) from the command definitions: `npm run docs`.
// test/unit/docs.test.ts fails when the committed file is stale.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, importSource } from './import-source.mjs';

const { commandsReference } = await importSource('src/docs/commands-reference.ts');
const file = process.argv[2] ?? join(ROOT, 'docs', 'commands.md');
writeFileSync(file, commandsReference());
console.log(`wrote ${file}`);
