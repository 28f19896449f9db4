/**
 * scripts/check-imports.mjs on a copy of src/ with one problem planted: it must fail on a client
 * built outside the context and on a circle between the folders of any level (not only the top).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const copies: string[] = [];

function check(plant: Record<string, string>): { code: number | null; stderr: string; stdout: string } {
  const dir = mkdtempSync(join(tmpdir(), 'parcels-imports-'));
  copies.push(dir);
  const src = join(dir, 'src');
  cpSync(join(ROOT, 'src'), src, { recursive: true });
  for (const [file, text] of Object.entries(plant)) writeFileSync(join(src, file), text);
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts/check-imports.mjs')], { env: { ...process.env, CHECK_IMPORTS_SRC: src }, encoding: 'utf8' });
  return { code: run.status, stderr: run.stderr, stdout: run.stdout };
}

afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// The tree as it is passes: `npm run lint` runs the checker on src/ itself. One copy holds both plants (each copy costs a second or more).
describe('the import checker', () => {
  it('fails on a client built anywhere but the context, on a back-arrow inside a folder (api/core/ reaching up to api/http.ts), and on the browser page and the sandbox server reaching each other', () => {
    const r = check({
      'sandbox/inspector-page/planted.ts': "import type { AppOptions } from '../app.js';\nexport type Planted = AppOptions;\n",
      'sandbox/planted.ts': "import { h } from './inspector-page/dom.js';\nexport const planted = h;\n",
      'bulk/planted.ts': "import { ApiClient } from '../api/http.js';\nexport const planted = (): ApiClient => new ApiClient({ baseUrl: 'http://x', timeoutMs: 1, retries: 0, userAgent: 'x' });\n",
      'api/core/planted.ts': "import type { ApiClient } from '../http.js';\nexport type Planted = ApiClient;\n",
    });
    expect(r.code).toBe(1);
    const problems = r.stderr.trimEnd().split('\n');
    expect(problems).toHaveLength(4);
    expect(problems).toContain('src/sandbox/inspector-page/planted.ts imports src/sandbox/app.ts: the browser page reaches only its own files and src/schemas/');
    expect(problems).toContain('src/sandbox/planted.ts imports src/sandbox/inspector-page/dom.ts: the sandbox reaches only its own server files and src/schemas/ (never the browser page)');
    expect(problems).toContain('src/bulk/planted.ts builds an ApiClient: build clients through the context (ctx.client() or ctx.api())');
    expect(problems.find((p) => p.startsWith('folders'))).toMatch(/^folders import each other in a circle: (?:src\/api\/[\w-]+\.ts, )*src\/api\/core\/, src\/api\/http\.ts \(.*src\/api\/core\/planted\.ts -> src\/api\/http\.ts.*\)$/);
  }, 60_000);
});
