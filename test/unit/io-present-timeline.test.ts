/** The presenter's timeline kind (`track`): one parcel, several, a watch, in every format, byte for byte. */
import { describe, it } from 'vitest';
import { assertPresentable } from '../../src/io/present/kinds.js';
import { TIMELINE, TIMELINE_WATCH, TimelinePresenter } from '../../src/io/present/timeline.js';
import { WatchUpdates, statesOf, timelineOf } from '../../src/track/results.js';
import { buildTimeline } from '../../src/schemas/timeline.js';
import type { Snapshot } from '../../src/track/watch.js';
import type { Ctx } from '../helpers/present.js';
import { PARCEL, PARCEL_KV, PARCEL_TSV, T, csv, expectEach, jq, json, line, ndjson, piped, pretty, terminal, wide } from '../helpers/present.js';

const EVENT = { occurred_at: T, status: 2 };
const ATTEMPT = { time_attempt: T + 3600, outcome: 1, reason: 1, attempt_no: 1 };
const SNAPSHOT: Snapshot = { parcel: PARCEL, timeline: buildTimeline([EVENT], [ATTEMPT]) };
const OTHER: Snapshot = { parcel: { entry_id: 'p-2' }, timeline: [] };
const EVENT_JSON = { kind: 'event', at: T, ...EVENT };
const ATTEMPT_JSON = { kind: 'attempt', at: T + 3600, ...ATTEMPT };

describe('a timeline', () => {
  // Piped, times stay absolute: no AGE column (scripts read `time`).
  const TIMELINE_TSV = 'time\tentry\tstate\treason\tdelivered\n2020-01-01T10:00:00Z\tevent\t2 in_transit\t\t\n2020-01-01T11:00:00Z\tattempt 1\t1 failed\t1 not_at_home\t\n';
  const record = { parcel: PARCEL, timeline: [EVENT_JSON, ATTEMPT_JSON] };

  it('one parcel: drawn for people (wide too), { parcel, timeline } for scripts, its entries as csv rows', async () => {
    await expectEach((ctx) => new TimelinePresenter(ctx).show(timelineOf(SNAPSHOT)), [
      [piped, { stdout: `${PARCEL_TSV}\nTimeline\n${TIMELINE_TSV}` }],
      [
        terminal,
        {
          stdout:
            `${PARCEL_KV}\nTimeline\n` +
            // Codes by name alone; no DELIVERED column over nothing.
            'TIME                  AGE      ENTRY      STATE       REASON\n' +
            '2020-01-01T10:00:00Z  1d ago   event      in_transit\n' +
            '2020-01-01T11:00:00Z  23h ago  attempt 1  failed      not_at_home\n',
        },
      ],
      [wide, { stdout: `${PARCEL_TSV}\nTimeline\n${TIMELINE_TSV}` }],
      [json, { stdout: pretty(record) }],
      // The record kind's rule: one NDJSON line would blur its lists.
      [ndjson, { stdout: '', error: '--output: --output ndjson prints a list, but this answer is a record holding several lists; use --json (or -o table)' }],
      [csv, { stdout: 'status,kind,at,occurred_at,time_attempt,outcome,reason,attempt_no\n2,event,2020-01-01T10:00:00Z,2020-01-01T10:00:00Z,,,,\n,attempt,2020-01-01T11:00:00Z,,2020-01-01T11:00:00Z,1,1,1\n' }],
      [{ format: 'table', jq: '.timeline[].kind' }, { stdout: 'event\nattempt\n' }],
    ]);
  });

  it('several parcels: a state row each for people and csv, a JSON line each for scripts', async () => {
    const states = [
      { entry_id: 'p-1', parcel: PARCEL, latest: ATTEMPT_JSON, delivered: false },
      { entry_id: 'p-2', parcel: OTHER.parcel, latest: null, delivered: false },
    ];
    await expectEach((ctx) => new TimelinePresenter(ctx).show(statesOf(['p-1', 'p-2'], [SNAPSHOT, OTHER])), [
      [piped, { stdout: 'entry_id\tstatus\tlatest_at\tlatest\tdelivered_to\tdelivered\np-1\t2 in_transit\t2020-01-01T11:00:00Z\tattempt 1: 1 failed (1 not_at_home)\t\tno\np-2\t\t\t\t\tno\n' }],
      [terminal, { stdout: 'ID   STATUS      LATEST                           AGE      DELIVERED\np-1  in_transit  attempt 1: failed (not_at_home)  23h ago  no\np-2  -           -                                         no\n' }],
      [json, { stdout: line(states[0]) + line(states[1]) }],
      [ndjson, { stdout: line(states[0]) + line(states[1]) }],
      [csv, { stdout: 'entry_id,status,latest_at,latest,delivered_to,delivered\np-1,2,2020-01-01T11:00:00Z,attempt 1: 1 failed (1 not_at_home),,false\np-2,,,,,false\n' }],
      [jq, { stdout: 'p-1\np-2\n' }],
    ]);
  });

  it("a watch: the first read and each update drawn for people, then how it ended; one JSON line per entry for scripts", async () => {
    const watched = async (ctx: Ctx): Promise<void> => {
      const out = new TimelinePresenter(ctx);
      const updates = new WatchUpdates(false);
      await out.update(updates.first(new Map([['p-1', { ...SNAPSHOT, timeline: SNAPSHOT.timeline.slice(0, 1) }]])));
      await out.update(updates.fresh([{ id: 'p-1', entries: SNAPSHOT.timeline.slice(1) }]));
      await out.end('delivered; stopped watching');
    };
    const lines = line({ entry_id: 'p-1', ...EVENT_JSON }) + line({ entry_id: 'p-1', ...ATTEMPT_JSON });
    await expectEach(watched, [
      [piped, { stdout: `${PARCEL_TSV}\nTimeline\n${TIMELINE_TSV}`, stderr: 'delivered; stopped watching\n' }],
      [
        terminal,
        {
          // Room is left for the rows to come.
          stdout:
            `${PARCEL_KV}\nTimeline\n` +
            'TIME                  AGE       ENTRY       STATE                REASON             DELIVERED\n' +
            '2020-01-01T10:00:00Z  1d ago    event       in_transit\n' +
            '2020-01-01T11:00:00Z  23h ago   attempt 1   failed               not_at_home\n',
          stderr: 'delivered; stopped watching\n',
        },
      ],
      [json, { stdout: lines }],
      [ndjson, { stdout: lines }],
      [{ format: 'table', jq: '.kind' }, { stdout: 'event\nattempt\n' }],
    ]);
  });

  it('declares what it cannot print: csv for a watch, --fields for either; exit 2 naming the flag', async () => {
    const check = (kind: typeof TIMELINE) => (ctx: Ctx) => assertPresentable(ctx, kind);
    const noFields = '--fields: --fields does not apply to track; use --json for the parcel and its timeline, or --jq to pick values';
    await expectEach(check(TIMELINE_WATCH), [
      [csv, { stdout: '', error: '--output: --watch prints a table or NDJSON lines, not csv' }],
      [{ format: 'json', fields: 'status' }, { stdout: '', error: noFields }],
      [json, { stdout: '' }],
      [piped, { stdout: '' }],
    ]);
    await expectEach(check(TIMELINE), [
      [csv, { stdout: '' }],
      [{ format: 'table', fields: 'status' }, { stdout: '', error: noFields }],
    ]);
  });
});
