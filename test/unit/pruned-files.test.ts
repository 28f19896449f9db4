import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeBatchFiles } from '../../src/bulk/pruned-files.js';

/** A target's journal folder with one pruned batch's files, and what links planted there point at. */
function folder(): { dir: string; outside: string } {
  const root = mkdtempSync(join(tmpdir(), 'pruned-'));
  const dir = join(root, 'journals', 'target');
  mkdirSync(join(dir, 'newest'), { recursive: true });
  const outside = join(root, 'outside.txt');
  writeFileSync(outside, 'keep me\n');
  return { dir, outside };
}

describe('removeBatchFiles', () => {
  it('removes the results file and the pointers naming a pruned batch, and no other pointer', () => {
    const { dir } = folder();
    writeFileSync(join(dir, 'create~aaaa.results.jsonl'), '{}\n');
    writeFileSync(join(dir, 'newest', 'create-1.json'), JSON.stringify({ v: 1, kind: 'create', path: '/a.csv', batch: 'aaaa', at: 1 }));
    writeFileSync(join(dir, 'newest', 'create-2.json'), JSON.stringify({ v: 1, kind: 'create', path: '/b.csv', batch: 'bbbb', at: 1 }));
    writeFileSync(join(dir, 'newest', 'events-3.json'), JSON.stringify({ v: 1, kind: 'events', path: '/a.csv', batch: 'aaaa', at: 1 }));
    expect(removeBatchFiles([join(dir, 'create~aaaa.ndjson')])).toEqual({ results: 1, pointers: 1 });
    expect(readdirSync(dir).sort()).toEqual(['newest']);
    expect(readdirSync(join(dir, 'newest')).sort()).toEqual(['create-2.json', 'events-3.json']);
  });

  it('never follows a link: a linked results file, pointer or pointer folder is left, and what it points at untouched', () => {
    const { dir, outside } = folder();
    symlinkSync(outside, join(dir, 'create~aaaa.results.jsonl'));
    symlinkSync(outside, join(dir, 'newest', 'create-1.json'));
    expect(removeBatchFiles([join(dir, 'create~aaaa.ndjson')])).toEqual({ results: 0, pointers: 0 });
    expect(readFileSync(outside, 'utf8')).toBe('keep me\n');

    const other = folder();
    const elsewhere = join(other.dir, '..', 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'create-1.json'), JSON.stringify({ v: 1, kind: 'create', path: '/a.csv', batch: 'aaaa', at: 1 }));
    const linked = join(other.dir, 'linked');
    mkdirSync(linked);
    symlinkSync(elsewhere, join(linked, 'newest'));
    expect(removeBatchFiles([join(linked, 'create~aaaa.ndjson')])).toEqual({ results: 0, pointers: 0 });
    expect(readdirSync(elsewhere)).toEqual(['create-1.json']);
  });
});
