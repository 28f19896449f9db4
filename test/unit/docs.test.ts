/** docs/commands.md is generated from the command definitions; this fails when it is stale. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { longFlag } from '../../src/definitions/definition.js';
import { GLOBAL_FLAGS } from '../../src/definitions/globals.js';
import { COMMANDS } from '../../src/definitions/table.js';
import { commandsReference } from '../../src/docs/commands-reference.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('docs/commands.md', () => {
  it('is up to date with the command definitions (else run `npm run docs`)', () => {
    expect(readFileSync(join(ROOT, 'docs', 'commands.md'), 'utf8'), 'docs/commands.md is stale: run `npm run docs`').toBe(commandsReference());
  });

  it('names every command, flag, default and example, and the global flags', () => {
    const doc = commandsReference();
    for (const def of COMMANDS) {
      expect(doc).toContain(`## \`parcels ${def.path.join(' ')}\`\n`);
      for (const spec of Object.values(def.flags)) {
        expect(doc).toMatch(new RegExp(`^\\| \`[^\`]*${longFlag(spec)}[^\`]*\` \\|`, 'm'));
        if ('default' in spec && spec.default !== undefined) expect(doc).toContain(`| \`${String(spec.default)}\` |`);
      }
      for (const example of def.examples) expect(doc).toContain(`\n${example}\n`);
    }
    for (const option of Object.values(GLOBAL_FLAGS)) expect(doc).toContain(`| \`${option.flags}\` | ${option.description} |`);
    expect(doc).toContain('| `--port <port>` | port; 0 picks a free one (default 8787) | `8787` | integer; 0 to 65535 |');
    expect(doc).toContain('| `--if-match <etag>` | ETag to send instead of the cached one (quotes included) | — | not with `--refresh` |');
    expect(doc).toContain('| `--no-verify` | save without checking the key with a read request (it says "not checked") | on |  |');
  });

  it('a changed definition changes the rendering (the staleness check can fail)', () => {
    const changed = COMMANDS.map((def) => (def.path.join(' ') === 'get' ? { ...def, summary: 'Something else' } : def));
    expect(commandsReference(changed)).not.toBe(commandsReference());
  });

  it('`npm run docs` writes exactly this rendering', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'parcels-docs-')), 'commands.md');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'gen-docs.mjs'), out], { stdio: 'ignore' });
    expect(readFileSync(out, 'utf8')).toBe(commandsReference());
  });
});
