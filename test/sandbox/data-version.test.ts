import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteRepository } from '../../src/sandbox/store/sqlite.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const seed = (name: string) => ({ organisations: [{ id: 'org', name, couriers: [], keys: [] }] });

describe('the change check behind the parcel cache, the test clock and scenario runs (the repository’s dataVersion)', () => {
  it("on a WAL file it changes after every commit of another connection (checkpoints included), never after reads or this connection's commits", () => {
    const dir = mkdtempSync(join(tmpdir(), 'data-version-'));
    dirs.push(dir);
    const file = join(dir, 'sandbox.db');
    const repo = openSqliteRepository(file);
    const other = new Database(file);
    other.pragma('busy_timeout = 5000');
    try {
      const write = other.prepare("INSERT OR REPLACE INTO meta (name, value) VALUES ('probe', ?)");
      let seen = repo.dataVersion();
      let missed = 0;
      for (let i = 0; i < 200; i++) {
        write.run(Buffer.from(String(i)));
        if (i % 50 === 49) other.pragma('wal_checkpoint(TRUNCATE)');
        const now = repo.dataVersion();
        if (now === seen) missed++;
        seen = now;
        repo.loadOrganisations();
        expect(repo.dataVersion()).toBe(seen);
      }
      expect(missed).toBe(0);
      repo.applySeed(seed('mine'));
      expect(repo.dataVersion()).toBe(seen);
      write.run(Buffer.from('after mine'));
      expect(repo.dataVersion()).not.toBe(seen);
    } finally {
      other.close();
      repo.close();
    }
  });

  it('an in-memory database (no other connection can reach it) never signals a change', () => {
    const repo = openSqliteRepository(':memory:');
    const first = repo.dataVersion();
    repo.applySeed(seed('x'));
    expect(repo.dataVersion()).toBe(first);
    repo.close();
  });
});
