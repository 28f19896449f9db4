import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteRepository } from '../../src/sandbox/store/sqlite.js';
import type { UsageEntry } from '../../src/sandbox/store/types.js';

const DAY = 86_400;
const DAY1 = 1_763_856_000; // 2025-11-23T00:00:00Z
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const dbFile = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'usage-store-'));
  dirs.push(dir);
  return join(dir, 'sandbox.db');
};
const entry = (orgId: string, n: number, at: number, status = 200): UsageEntry => ({ orgId, method: 'GET', path: `/p/${n}`, status, at });

describe('usage storage: daily counters and a ring of the latest requests', () => {
  it('counts every request per UTC day and keeps exactly the latest 100, newest first, across batches', () => {
    const repo = openSqliteRepository(':memory:');
    try {
      // 250 requests for org_a over two batches (the ring wraps twice), 3 for org_b; every 10th is an error.
      const a = Array.from({ length: 250 }, (_, i) => entry('org_a', i, i < 120 ? DAY1 + 100 + i : DAY1 + DAY + i, i % 10 === 0 ? 404 : 200));
      repo.recordUsage([...a.slice(0, 170), entry('org_b', 0, DAY1 + 5), entry('org_b', 1, DAY1 + 6, 500)]);
      repo.recordUsage([...a.slice(170), entry('org_b', 2, DAY1 + DAY + 7)]);
      expect(repo.usagePerDay('org_a', DAY1)).toEqual([
        { date: '2025-11-23', requests: 120, errors: 12 },
        { date: '2025-11-24', requests: 130, errors: 13 },
      ]);
      expect(repo.usagePerDay('org_a', DAY1 + DAY)).toEqual([{ date: '2025-11-24', requests: 130, errors: 13 }]);
      expect(repo.usagePerDay('org_b', DAY1)).toEqual([
        { date: '2025-11-23', requests: 2, errors: 1 },
        { date: '2025-11-24', requests: 1, errors: 0 },
      ]);
      const recent = repo.usageRecent('org_a', 0, 100);
      expect(recent.map((r) => r.path)).toEqual(Array.from({ length: 100 }, (_, i) => `/p/${249 - i}`));
      expect(recent[0]).toEqual({ method: 'GET', path: '/p/249', status: 200, at: DAY1 + DAY + 249 });
      expect(repo.usageRecent('org_a', DAY1 + DAY + 240, 100).map((r) => r.path)).toEqual(Array.from({ length: 10 }, (_, i) => `/p/${249 - i}`));
      expect(repo.usageRecent('org_b', 0, 100).map((r) => [r.path, r.status])).toEqual([['/p/2', 200], ['/p/1', 500], ['/p/0', 200]]);
    } finally {
      repo.close();
    }
  });

  it('a batch of more than 100 requests of one organisation keeps its newest 100 and counts them all', () => {
    const repo = openSqliteRepository(':memory:');
    try {
      repo.recordUsage(Array.from({ length: 512 }, (_, i) => entry('org_a', i, DAY1 + i)));
      expect(repo.usagePerDay('org_a', 0)).toEqual([{ date: '2025-11-23', requests: 512, errors: 0 }]);
      expect(repo.usageRecent('org_a', 0, 100).map((r) => r.path)).toEqual(Array.from({ length: 100 }, (_, i) => `/p/${511 - i}`));
      repo.recordUsage([entry('org_a', 512, DAY1 + 600)]);
      expect(repo.usageRecent('org_a', 0, 3).map((r) => r.path)).toEqual(['/p/512', '/p/511', '/p/510']);
      expect(repo.usageRecent('org_a', 0, 100)).toHaveLength(100);
    } finally {
      repo.close();
    }
  });

  it('purging drops whole days before the day of the cut and requests before it', () => {
    const repo = openSqliteRepository(':memory:');
    try {
      repo.recordUsage([entry('org_a', 0, DAY1 + 10), entry('org_a', 1, DAY1 + DAY + 10), entry('org_a', 2, DAY1 + DAY + 20)]);
      repo.purgeUsageBefore(DAY1 + DAY + 15);
      expect(repo.usagePerDay('org_a', 0)).toEqual([{ date: '2025-11-24', requests: 2, errors: 0 }]);
      expect(repo.usageRecent('org_a', 0, 100).map((r) => r.path)).toEqual(['/p/2']);
    } finally {
      repo.close();
    }
  });

  it('a file with the older row-per-request usage table is folded into the counters and the ring once', () => {
    const file = dbFile();
    const old = new Database(file);
    old.exec('CREATE TABLE usage (id INTEGER PRIMARY KEY, org_id TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL, status INTEGER NOT NULL, at INTEGER NOT NULL)');
    const insert = old.prepare('INSERT INTO usage (org_id, method, path, status, at) VALUES (?, ?, ?, ?, ?)');
    for (let i = 0; i < 130; i++) insert.run('org_a', 'GET', `/p/${i}`, i < 5 ? 500 : 200, i < 30 ? DAY1 + i : DAY1 + DAY + i);
    insert.run('org_b', 'POST', '/q', 201, DAY1 + 1);
    old.close();
    const repo = openSqliteRepository(file);
    try {
      expect(repo.usagePerDay('org_a', 0)).toEqual([
        { date: '2025-11-23', requests: 30, errors: 5 },
        { date: '2025-11-24', requests: 100, errors: 0 },
      ]);
      expect(repo.usageRecent('org_a', 0, 100).map((r) => r.path)).toEqual(Array.from({ length: 100 }, (_, i) => `/p/${129 - i}`));
      repo.recordUsage([entry('org_a', 130, DAY1 + DAY + 500)]);
      expect(repo.usageRecent('org_a', 0, 2).map((r) => r.path)).toEqual(['/p/130', '/p/129']);
      expect(repo.usageRecent('org_b', 0, 100)).toEqual([{ method: 'POST', path: '/q', status: 201, at: DAY1 + 1 }]);
    } finally {
      repo.close();
    }
    const check = new Database(file, { readonly: true });
    expect(check.prepare("SELECT name FROM sqlite_master WHERE name = 'usage'").get()).toBeUndefined();
    check.close();
  });
});
