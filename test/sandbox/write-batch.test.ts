import { describe, expect, it } from 'vitest';
import { GroupAbortedError, WriteBatcher } from '../../src/sandbox/write-batch.js';
import { openSqliteRepository } from '../../src/sandbox/store/sqlite.js';
import type { ParcelFields, Repository } from '../../src/sandbox/store/types.js';
import { DEFAULT_SEED } from '../../src/sandbox/seed.js';

const FIELDS: ParcelFields = {
  courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '1', addition: null, parcel_length: null, parcel_width: null,
  parcel_height: null, parcel_weight: null, time_slot_period_start: null, time_slot_period_end: null, service_type: null,
};
const ORG = 'org_demo';

/** Queued flushes, run when the test says so. */
function manualSchedule(): { schedule: (flush: () => void) => void; run(): void; pending(): number } {
  const queue: Array<() => void> = [];
  return { schedule: (flush) => queue.push(flush), run: () => queue.splice(0).forEach((f) => f()), pending: () => queue.length };
}

function repoWithSeed(): Repository {
  const repo = openSqliteRepository(':memory:');
  repo.applySeed(DEFAULT_SEED);
  return repo;
}

const settle = <T>(p: Promise<T>) => p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));

describe('group commit of write requests', () => {
  it('one flush per turn runs every queued write in arrival order; a failed one rolls back alone', async () => {
    const repo = repoWithSeed();
    const turn = manualSchedule();
    const writes = new WriteBatcher<string>(repo, turn.schedule);
    const create = (id: string) => () => repo.createParcel(ORG, id, FIELDS, 1000).entry_id;
    // Writes, then fails: its own write must not survive the group's commit.
    const failing = () => {
      repo.createParcel(ORG, 'b0000000-0000-4000-8000-000000000000', FIELDS, 1000);
      throw new Error('refused after writing');
    };
    const results = [
      settle(writes.run(create('a0000000-0000-4000-8000-000000000000'))),
      settle(writes.run(failing)),
      settle(writes.run(create('c0000000-0000-4000-8000-000000000000'))),
    ];
    expect(turn.pending()).toBe(1);
    expect(repo.maxParcelSeq(ORG)).toBe(0);
    turn.run();
    const [a, b, c] = await Promise.all(results);
    expect(a).toEqual({ ok: true, value: 'a0000000-0000-4000-8000-000000000000' });
    expect(b?.ok).toBe(false);
    expect(c).toEqual({ ok: true, value: 'c0000000-0000-4000-8000-000000000000' });
    expect(repo.getParcel(ORG, 'b0000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(repo.listParcels(ORG, { after: 0, upTo: 1e9, limit: 10 }).map((p) => p.entry_id)).toEqual([
      'a0000000-0000-4000-8000-000000000000',
      'c0000000-0000-4000-8000-000000000000',
    ]);
    expect(repo.inTransaction()).toBe(false);
    repo.close();
  });

  it('if the commit fails, every write of the group fails', async () => {
    const turn = manualSchedule();
    const repo = {
      transaction<T>(fn: () => T): T {
        fn();
        throw new Error('disk I/O error');
      },
      inTransaction: () => true,
    };
    const writes = new WriteBatcher<number>(repo, turn.schedule);
    const results = [settle(writes.run(() => 1)), settle(writes.run(() => 2))];
    turn.run();
    const settled = await Promise.all(results);
    expect(settled.map((r) => (r.ok ? r.value : (r.error as Error).message))).toEqual(['disk I/O error', 'disk I/O error']);
  });

  it('a write whose error undid the whole transaction fails the group, even the writes that ran before it', async () => {
    const turn = manualSchedule();
    // A transaction that nests (as savepoints do) and that a failing statement can roll back whole.
    let depth = 0;
    let rolledBack = false;
    const repo = {
      transaction<T>(fn: () => T): T {
        if (depth === 0) rolledBack = false;
        depth++;
        try {
          return fn();
        } finally {
          depth--;
        }
      },
      inTransaction: () => depth > 0 && !rolledBack,
    };
    const writes = new WriteBatcher<number>(repo, turn.schedule);
    const results = [
      settle(writes.run(() => 1)),
      settle(
        writes.run(() => {
          rolledBack = true; // as SQLite does on SQLITE_FULL
          throw new Error('database or disk is full');
        }),
      ),
      settle(writes.run(() => 3)),
    ];
    turn.run();
    const settled = await Promise.all(results);
    expect(settled.every((r) => !r.ok && r.error instanceof GroupAbortedError)).toBe(true);
    expect(((settled[0] as { error: GroupAbortedError }).error.cause as Error).message).toBe('database or disk is full');
  });

  it('flush() commits what is queued at once (the sandbox closing) and leaves nothing for the scheduled turn', async () => {
    const repo = repoWithSeed();
    const turn = manualSchedule();
    const writes = new WriteBatcher<number>(repo, turn.schedule);
    const done = writes.run(() => repo.createParcel(ORG, 'd0000000-0000-4000-8000-000000000000', FIELDS, 1000).seq);
    writes.flush();
    expect(await done).toBe(1);
    turn.run();
    expect(repo.maxParcelSeq(ORG)).toBe(1);
    repo.close();
  });
});
