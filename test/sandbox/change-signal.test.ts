import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openChangeSignal } from '../../src/sandbox/store/change-signal.js';
import { openDatabase } from '../../src/sandbox/store/schema.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the change signal behind the parcel cache, the test clock and scenario runs', () => {
  it("on a WAL file it changes after every commit of another connection (checkpoints included), never after reads or this connection's commits", () => {
    const dir = mkdtempSync(join(tmpdir(), 'change-signal-'));
    dirs.push(dir);
    const file = join(dir, 'sandbox.db');
    const mine = openDatabase(file);
    const other = new Database(file);
    other.pragma('busy_timeout = 5000');
    const signal = openChangeSignal(mine, file);
    try {
      const write = other.prepare("INSERT OR REPLACE INTO meta (name, value) VALUES ('probe', ?)");
      const read = mine.prepare('SELECT COUNT(*) FROM meta').pluck();
      let seen = signal.version();
      let missed = 0;
      for (let i = 0; i < 2000; i++) {
        write.run(Buffer.from(String(i)));
        if (i % 500 === 499) other.pragma('wal_checkpoint(TRUNCATE)');
        const now = signal.version();
        if (now === seen) missed++;
        seen = now;
        read.get();
        expect(signal.version()).toBe(seen);
      }
      expect(missed).toBe(0);
      // As PRAGMA data_version: this connection's own commits are not a change.
      mine.prepare("INSERT OR REPLACE INTO meta (name, value) VALUES ('mine', x'00')").run();
      expect(signal.version()).toBe(seen);
      write.run(Buffer.from('after mine'));
      expect(signal.version()).not.toBe(seen);
    } finally {
      signal.close();
      other.close();
      mine.close();
    }
  });

  it('an in-memory database (no other connection can reach it) never signals a change after the first call', () => {
    const db = openDatabase(':memory:');
    const signal = openChangeSignal(db, ':memory:');
    const first = signal.version();
    db.prepare("INSERT INTO meta (name, value) VALUES ('x', x'00')").run();
    expect(signal.version()).toBe(first);
    signal.close();
    db.close();
  });
});
