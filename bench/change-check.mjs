// The sandbox's per-request change check (src/sandbox/store/change-signal.ts): a pread of the
// WAL-index header against PRAGMA data_version, on a WAL database file, same run.
//   node bench/change-check.mjs [iterations=200000]
import { mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const iterations = Number(process.argv[2] ?? 200_000);
const dir = mkdtempSync(join(tmpdir(), 'change-check-'));
const file = join(dir, 'bench.db');
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.exec('CREATE TABLE t (x)');
db.prepare('INSERT INTO t VALUES (1)').run();
const dataVersion = db.prepare('PRAGMA data_version').pluck();
const fd = openSync(`${file}-shm`, 'r');
const header = Buffer.alloc(48);

function perCall(fn) {
  for (let i = 0; i < 10_000; i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  return Number(process.hrtime.bigint() - start) / 1000 / iterations;
}
const rounds = [];
for (let r = 0; r < 3; r++) rounds.push([perCall(() => readSync(fd, header, 0, 48, 0)), perCall(() => dataVersion.get())]);
rounds.sort((a, b) => a[1] / a[0] - b[1] / b[0]);
const [pread, pragma] = rounds[1];
console.log(`Node ${process.version}, ${iterations} calls x 3 rounds (median round)`);
console.log(`pread of the 48-byte WAL-index header: ${pread.toFixed(2)} µs`);
console.log(`PRAGMA data_version:                    ${pragma.toFixed(2)} µs (${(pragma / pread).toFixed(1)}x)`);
db.close();
rmSync(dir, { recursive: true, force: true });
