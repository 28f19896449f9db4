/**
 * `npm run build` (npm install's and npm pack's prepare) moves a fresh build into dist/ a file at a
 * time: checked after every single file-system step, dist/ and each entry are there, whole, and
 * every chunk an entry imports is there, so a CLI running from the checkout never loses its files.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { BuildFileSystem } from '../../scripts/dist-swap.mjs';
import { swapIn } from '../../scripts/dist-swap.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function write(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
}
function read(dir: string): Record<string, string> {
  const walk = (at: string): string[] =>
    readdirSync(at, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(at, e.name)) : [relative(dir, join(at, e.name))]));
  return Object.fromEntries(walk(dir).sort().map((file) => [file, readFileSync(join(dir, file), 'utf8')]));
}

const OLD = {
  'cli.js': "import './chunk-OLD.js'; // old",
  'chunk-OLD.js': 'old chunk',
  'shared-SAME.js': 'same in both builds',
  'sandbox/index.js': "import '../shared-SAME.js'; // old",
  'inspector/app.js': 'old page',
  'retired/only-old.js': 'gone in the new build',
};
const NEW = {
  'cli.js': "import './chunk-NEW.js'; import './shared-SAME.js'; // new",
  'chunk-NEW.js': 'new chunk',
  'shared-SAME.js': 'same in both builds',
  'sandbox/index.js': "import '../chunk-NEW.js'; // new",
  'inspector/app.js': 'new page',
};
const ENTRIES = ['cli.js', 'sandbox/index.js', 'inspector/app.js'];

describe('scripts/dist-swap.mjs swapIn', () => {
  it('never leaves dist/, an entry, or a chunk an entry imports missing, and ends with exactly the new build', () => {
    const root = mkdtempSync(join(tmpdir(), 'parcels-build-'));
    const dist = join(root, 'dist');
    const staged = join(root, '.dist-next-x');
    write(dist, OLD);
    write(staged, NEW);
    const broken: string[] = [];
    const steps: string[] = [];
    const check = (step: string) => {
      steps.push(step);
      for (const entry of ENTRIES) {
        const path = join(dist, entry);
        if (!existsSync(path)) {
          broken.push(`${step}: ${entry} missing`);
          continue;
        }
        const text = readFileSync(path, 'utf8');
        if (text !== OLD[entry as keyof typeof OLD] && text !== NEW[entry as keyof typeof NEW]) broken.push(`${step}: ${entry} partly written`);
        for (const [, imported] of text.matchAll(/import '([^']+)'/g)) {
          if (!existsSync(join(dirname(path), imported as string))) broken.push(`${step}: ${entry} imports ${imported}, missing`);
        }
      }
    };
    const fs: BuildFileSystem = {
      mkdir: ((path, options) => {
        const made = mkdirSync(path, options);
        check(`mkdir ${relative(root, String(path))}`);
        return made;
      }) as BuildFileSystem['mkdir'],
      rename: (from, to) => {
        renameSync(from, to);
        check(`rename ${relative(root, String(from))} -> ${relative(root, String(to))}`);
      },
      rm: (path, options) => {
        rmSync(path, options);
        check(`rm ${relative(root, String(path))}`);
      },
    };
    swapIn(staged, dist, fs);
    expect(broken).toEqual([]);
    expect(steps.filter((step) => !step.startsWith('mkdir'))).toEqual([
      'rename .dist-next-x/chunk-NEW.js -> dist/chunk-NEW.js',
      'rename .dist-next-x/cli.js -> dist/cli.js',
      'rename .dist-next-x/inspector/app.js -> dist/inspector/app.js',
      'rename .dist-next-x/sandbox/index.js -> dist/sandbox/index.js',
      'rename .dist-next-x/shared-SAME.js -> dist/shared-SAME.js',
      'rm dist/chunk-OLD.js',
      'rm dist/retired/only-old.js',
      'rm .dist-next-x',
    ]);
    expect(read(dist)).toEqual(NEW);
    expect(existsSync(join(dist, 'retired'))).toBe(false);
    expect(existsSync(staged)).toBe(false);
  });

  it('is what `npm run build` runs, so npm install and npm pack (prepare) both build through it', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect({ build: scripts.build, prepare: scripts.prepare, prepack: scripts.prepack }).toEqual({
      build: 'node scripts/build.mjs',
      prepare: 'npm run build',
      prepack: undefined,
    });
  });
});
