// Regenerates completions/ from the built CLI: `parcels completion bash|zsh|fish` into the files
// shells look for. Run: npm run gen:completions (it builds first). A test fails when these are stale.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const FILES = { bash: 'parcels.bash', zsh: '_parcels', fish: 'parcels.fish' };
mkdirSync(join(root, 'completions'), { recursive: true });
for (const [shell, file] of Object.entries(FILES)) {
  const script = execFileSync(process.execPath, [join(root, 'bin', 'parcels.js'), 'completion', shell], { encoding: 'utf8' });
  writeFileSync(join(root, 'completions', file), script);
  console.log(`completions/${file}`);
}
