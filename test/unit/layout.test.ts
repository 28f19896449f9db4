import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CommandDefinition } from '../../src/definitions/definition.js';
import { COMMANDS } from '../../src/definitions/table.js';
import { ALIASES, loadCommand } from '../../src/commands/loaders.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const COMMANDS_DIR = join(SRC, 'commands');
const DEFINITIONS_DIR = join(SRC, 'definitions');

/** Not a command module, on its way to src/io/ with the presenter (issue 21): the one file allowed to stay. */
const LEAVING_COMMANDS = ['shared/show.ts'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.split('\\').join('/'))
    .sort();
}

/** Where the module of the command at `path` lives: `a b` → commands/a/b.ts, `a` → commands/a.ts. */
const modulePath = (def: CommandDefinition): string => `${def.path.join('/')}.ts`;

describe('a folder per feature: the command at path `a b` lives at src/commands/a/b.ts', () => {
  it('every command is loaded from the file its path names, or is an alias of a command that is', async () => {
    const files = new Set(tsFiles(COMMANDS_DIR));
    for (const def of COMMANDS) {
      const name = def.path.join(' ');
      const twin = ALIASES.get(def);
      if (twin !== undefined) {
        expect(ALIASES.has(twin), `${name}: an alias of an alias`).toBe(false);
        expect((await loadCommand(def)).default, name).toBe((await loadCommand(twin)).default);
        continue;
      }
      expect(files.has(modulePath(def)), `${name}: src/commands/${modulePath(def)}`).toBe(true);
      const atItsPath = (await import(join(COMMANDS_DIR, modulePath(def)))) as { default: unknown };
      expect((await loadCommand(def)).default, `${name} loads src/commands/${modulePath(def)}`).toBe(atItsPath.default);
    }
  });

  it('src/commands/ holds command modules and loaders.ts, nothing else', () => {
    const modules = new Set(COMMANDS.filter((def) => !ALIASES.has(def)).map(modulePath));
    const others = tsFiles(COMMANDS_DIR).filter((file) => file !== 'loaders.ts' && !modules.has(file));
    expect(others).toEqual(LEAVING_COMMANDS);
  });
});

describe('definition areas are named after the command\'s first word', () => {
  it('src/definitions/<word>.ts defines exactly the commands whose path starts with <word>', async () => {
    const inTable = new Set<unknown>(COMMANDS);
    const defined: CommandDefinition[] = [];
    // table.ts gathers the areas: the commands it re-exports are defined elsewhere.
    for (const file of tsFiles(DEFINITIONS_DIR).filter((name) => name !== 'table.ts')) {
      const word = basename(file, '.ts');
      const exports = (await import(join(DEFINITIONS_DIR, file))) as Record<string, unknown>;
      const commands = Object.values(exports).flatMap((value) =>
        typeof value === 'object' && value !== null ? Object.values(value).filter((item): item is CommandDefinition => inTable.has(item)) : [],
      );
      for (const def of commands) expect(def.path[0], `${def.path.join(' ')} in definitions/${file}`).toBe(word);
      defined.push(...commands);
    }
    expect(new Set(defined)).toEqual(inTable);
    expect(defined).toHaveLength(COMMANDS.length);
  });
});
