import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderError, renderList, renderMessage, renderRecord } from '../../src/io/render.js';
import { captureIO } from '../helpers/io.js';

const NOW = 1795377467; // 2026-11-22T19:57:47Z
const parcel = {
  courier: 'DHL',
  status: 2,
  entry_id: 'u-1',
  created_at: NOW - 180,
  addition: null,
  delivered: { delivered_city: 'Utrecht, "Oost"', delivered_location_type: 1 },
};
const ESC = '\u001b';

describe('renderRecord', () => {
  it('json: exactly the data, pretty, nothing on stderr', async () => {
    const c = captureIO();
    await renderRecord(c.io, parcel, { format: 'json', now: NOW });
    expect(c.stdout()).toBe(JSON.stringify(parcel, null, 2) + '\n');
    expect(JSON.parse(c.stdout())).toEqual(parcel);
    expect(c.stderr()).toBe('');
  });
  it('json on a TTY with colour is still plain data', async () => {
    const c = captureIO({ tty: true, colour: true });
    await renderRecord(c.io, parcel, { format: 'json', now: NOW, title: 'Parcel' });
    expect(c.stdout()).toBe(JSON.stringify(parcel, null, 2) + '\n');
  });
  it('json with --fields incl. dotted and unknown fields', async () => {
    const c = captureIO();
    await renderRecord(c.io, parcel, { format: 'json', now: NOW, fields: ['entry_id', 'delivered.delivered_city', 'nope'] });
    expect(JSON.parse(c.stdout())).toEqual({ entry_id: 'u-1', delivered: { delivered_city: 'Utrecht, "Oost"' } });
  });
  it('ndjson: one compact line', async () => {
    const c = captureIO();
    await renderRecord(c.io, parcel, { format: 'ndjson', now: NOW, fields: ['entry_id', 'status'] });
    expect(c.stdout()).toBe('{"entry_id":"u-1","status":2}\n');
  });
  it('csv: header and one quoted row, raw values but times as ISO 8601 UTC (a spreadsheet reads them as times)', async () => {
    const c = captureIO();
    await renderRecord(c.io, parcel, { format: 'csv', now: NOW });
    expect(c.stdout()).toBe(
      'entry_id,status,courier,created_at,addition,delivered\n' +
        `u-1,2,DHL,${new Date((NOW - 180) * 1000).toISOString().replace('.000Z', 'Z')},,"{""delivered_city"":""Utrecht, \\""Oost\\"""",""delivered_location_type"":1}"\n`,
    );
  });
  it('a list of flat records inside a record reads as one line per item (validate-address issues), not a JSON blob', async () => {
    const answer = { valid: false, issues: [{ field: 'postal_code', message: 'must be a Dutch postcode' }, { field: 'number', message: 'is required' }] };
    const piped = captureIO();
    await renderRecord(piped.io, answer, { format: 'table', now: NOW });
    expect(piped.stdout()).toBe('valid\tno\nissues\tpostal_code: must be a Dutch postcode\nissues\tnumber: is required\n');
    const tty = captureIO({ tty: true });
    await renderRecord(tty.io, answer, { format: 'table', now: NOW });
    expect(tty.stdout()).toBe('valid   no\nissues  postal_code: must be a Dutch postcode\n        number: is required\n');
    // JSON keeps the list as it came.
    const json = captureIO();
    await renderRecord(json.io, answer, { format: 'json', now: NOW });
    expect(JSON.parse(json.stdout())).toEqual(answer);
  });
  it('table off a TTY: key<TAB>value lines, nested flattened, no title', async () => {
    const c = captureIO();
    await renderRecord(c.io, parcel, { format: 'table', now: NOW, title: 'Parcel u-1' });
    expect(c.stdout()).toBe(
      'courier\tDHL\n' +
        'status\t2 in_transit\n' +
        'entry_id\tu-1\n' +
        'created_at\t2026-11-22T19:54:47Z\n' +
        'addition\t\n' +
        'delivered.delivered_city\tUtrecht, "Oost"\n' +
        'delivered.delivered_location_type\t1\n',
    );
  });
  it('table on a TTY: title, aligned keys, relative times, "-" for null', async () => {
    const c = captureIO({ tty: true });
    await renderRecord(c.io, parcel, {
      format: 'table',
      now: NOW,
      title: 'Parcel u-1',
      names: { location_type: { 1: 'neighbour' } },
      fields: ['entry_id', 'status', 'created_at', 'addition', 'delivered.delivered_location_type', 'nope'],
    });
    expect(c.stdout()).toBe(
      'Parcel u-1\n' +
        'entry_id                           u-1\n' +
        'status                             in_transit\n' +
        'created_at                         2026-11-22T19:54:47Z (3m ago)\n' +
        'addition                           -\n' +
        'delivered.delivered_location_type  neighbour\n' +
        'nope                               -\n',
    );
  });
  it('table on a TTY with colour has escapes; with colour off none', async () => {
    const on = captureIO({ tty: true, colour: true });
    await renderRecord(on.io, parcel, { format: 'table', now: NOW });
    expect(on.stdout()).toContain(ESC);
    const off = captureIO({ tty: true, colour: false });
    await renderRecord(off.io, parcel, { format: 'table', now: NOW });
    expect(off.stdout()).not.toContain(ESC);
  });
  it('itemsKey: --fields narrows the items of a page and keeps next_cursor', async () => {
    const c = captureIO();
    const page = { parcels: [parcel, { ...parcel, entry_id: 'u-2' }], next_cursor: 'abc' };
    await renderRecord(c.io, page, { format: 'json', now: NOW, fields: ['entry_id'], itemsKey: 'parcels' });
    expect(JSON.parse(c.stdout())).toEqual({ parcels: [{ entry_id: 'u-1' }, { entry_id: 'u-2' }], next_cursor: 'abc' });
  });
  it('itemsKey in table view prints the items as a list with the cursor hint', async () => {
    const c = captureIO({ tty: true });
    const page = { parcels: [{ entry_id: 'u-1', status: 0 }], next_cursor: 'abc' };
    await renderRecord(c.io, page, { format: 'table', now: NOW, itemsKey: 'parcels', nextCommand: 'parcels list' });
    expect(c.stdout()).toBe('ENTRY_ID  STATUS\nu-1       registered\n');
    expect(c.stderr()).toBe('More results: parcels list --cursor abc  (or --all)\n');
  });
});

const items = [
  { entry_id: 'u-1', courier: 'DHL', status: 2, created_at: NOW - 180 },
  { entry_id: 'u-2', courier: 'PostNL', status: 4, created_at: NOW - 7200 },
];

describe('renderList: one page', () => {
  it('TTY table with the next-page hint on stderr', async () => {
    const c = captureIO({ tty: true });
    const { count } = await renderList(c.io, items, { format: 'table', now: NOW, nextCursor: 'c2', nextCommand: 'parcels list' });
    expect(count).toBe(2);
    expect(c.stdout()).toBe(
      'ENTRY_ID  STATUS      COURIER  CREATED_AT\n' +
        'u-1       in_transit  DHL      2026-11-22T19:54:47Z (3m ago)\n' +
        'u-2       4           PostNL   2026-11-22T17:57:47Z (2h ago)\n',
    );
    expect(c.stderr()).toBe('More results: parcels list --cursor c2  (or --all)\n');
  });
  it('TTY table with learned names and --fields', async () => {
    const c = captureIO({ tty: true });
    await renderList(c.io, items, { format: 'table', now: NOW, fields: ['status', 'courier'], names: { status: { 4: 'delivered' } } });
    expect(c.stdout()).toBe('STATUS      COURIER\nin_transit  DHL\ndelivered   PostNL\n');
  });
  it('non-TTY: TSV with header, ISO times; a page that stops says so on stderr', async () => {
    const c = captureIO();
    await renderList(c.io, items, { format: 'table', now: NOW, nextCursor: 'c2' });
    expect(c.stdout()).toBe(
      'entry_id\tstatus\tcourier\tcreated_at\n' +
        'u-1\t2 in_transit\tDHL\t2026-11-22T19:54:47Z\n' +
        'u-2\t4\tPostNL\t2026-11-22T17:57:47Z\n',
    );
    expect(c.stderr()).toBe('More results: parcels list --cursor c2  (or --all)\n');
  });
  it('quotes an unusual cursor in the hint', async () => {
    const c = captureIO({ tty: true });
    await renderList(c.io, items, { format: 'table', now: NOW, nextCursor: "a b'c", nextCommand: 'parcels list --status 2' });
    expect(c.stderr()).toBe(`More results: parcels list --status 2 --cursor 'a b'\\''c'  (or --all)\n`);
  });
  it('empty table: message on stderr, nothing on stdout', async () => {
    const c = captureIO({ tty: true });
    const { count } = await renderList(c.io, [], { format: 'table', now: NOW, emptyMessage: 'No parcels found.', nextCursor: 'x' });
    expect(count).toBe(0);
    expect(c.stdout()).toBe('');
    expect(c.stderr()).toBe('No parcels found.\n');
  });
  it('csv with quoting of commas, quotes and newlines', async () => {
    const c = captureIO();
    await renderList(c.io, [{ a: 'x,y', b: 'say "hi"', c: 'l1\nl2', d: null, e: true }, { a: 'plain' }], { format: 'csv', now: NOW });
    expect(c.stdout()).toBe('a,b,c,d,e\n"x,y","say ""hi""","l1\nl2",,true\nplain,,,,\n');
  });
  it('csv empty with --fields prints the header only', async () => {
    const c = captureIO();
    await renderList(c.io, [], { format: 'csv', now: NOW, fields: ['entry_id', 'status'] });
    expect(c.stdout()).toBe('entry_id,status\n');
  });
  it('ndjson: one compact item per line, narrowed', async () => {
    const c = captureIO();
    await renderList(c.io, items, { format: 'ndjson', now: NOW, fields: ['entry_id', 'nope'] });
    expect(c.stdout()).toBe('{"entry_id":"u-1"}\n{"entry_id":"u-2"}\n');
  });
  it('json: a valid array; empty → []', async () => {
    const c = captureIO();
    await renderList(c.io, items, { format: 'json', now: NOW });
    expect(JSON.parse(c.stdout())).toEqual(items);
    expect(c.stdout()).toBe('[\n' + items.map((i) => JSON.stringify(i)).join(',\n') + '\n]\n');
    const e = captureIO();
    await renderList(e.io, [], { format: 'json', now: NOW, stream: true });
    expect(e.stdout()).toBe('[]\n');
  });
  it('colour off means no escape bytes anywhere', async () => {
    const c = captureIO({ tty: true, colour: false });
    await renderList(c.io, items, { format: 'table', now: NOW, nextCursor: 'c' });
    expect(c.stdout() + c.stderr()).not.toContain(ESC);
  });
});

/** A source that yields its first item, then waits until the test allows more (no clock involved). */
function gatedSource(n: number, log: string[]) {
  let allowed = 1;
  let wake: (() => void) | undefined;
  const source = (async function* () {
    for (let i = 1; i <= n; i++) {
      while (i > allowed) await new Promise<void>((resolve) => (wake = resolve));
      log.push(`yield ${i}`);
      yield { entry_id: `u-${i}`, status: 1 };
    }
    log.push('done');
  })();
  return {
    source,
    allowAll: (): void => {
      allowed = n;
      wake?.();
    },
  };
}

describe('renderList: stream (--all)', () => {
  const FLUSH_AFTER_MS = 10;
  afterEach(() => {
    vi.useRealTimers();
  });

  for (const format of ['json', 'ndjson', 'csv', 'table'] as const) {
    for (const tty of [false, true]) {
      it(`${format}${tty ? ' on a TTY' : ''}: the first item is written while the source is still waiting for the second`, async () => {
        // Virtual time for the idle flush; the stream's own write callbacks stay real.
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        const c = captureIO({ tty });
        const log: string[] = [];
        const original = c.io.stdout.write.bind(c.io.stdout) as (chunk: string, cb?: () => void) => boolean;
        (c.io.stdout as unknown as { write: typeof original }).write = (chunk, cb) => {
          log.push('write');
          return original(chunk, cb);
        };
        const { source, allowAll } = gatedSource(3, log);
        const rendering = renderList(c.io, source, { format, now: NOW, stream: true, flushAfterMs: FLUSH_AFTER_MS });
        // Rows (csv, table) wait for the batch to fill or the source to stay idle FLUSH_AFTER_MS; json
        // and ndjson write each item as it comes.
        const batched = format === 'csv' || format === 'table';
        await vi.advanceTimersByTimeAsync(FLUSH_AFTER_MS - 1);
        expect(c.stdout().includes('u-1')).toBe(!batched);
        await vi.advanceTimersByTimeAsync(1);
        expect(c.stdout()).toContain('u-1');
        expect(log[0]).toBe('yield 1');
        expect(log).toContain('write');
        expect(log).not.toContain('yield 2');

        allowAll();
        const { count } = await rendering;
        expect(count).toBe(3);
        expect(log.filter((entry) => entry !== 'write')).toEqual(['yield 1', 'yield 2', 'yield 3', 'done']);
        if (format === 'json') expect(JSON.parse(c.stdout())).toHaveLength(3);
        if (format === 'ndjson') expect(c.stdout()).toBe('{"entry_id":"u-1","status":1}\n{"entry_id":"u-2","status":1}\n{"entry_id":"u-3","status":1}\n');
        if (format === 'csv') expect(c.stdout()).toBe('entry_id,status\nu-1,1\nu-2,1\nu-3,1\n');
        if (format === 'table' && !tty) expect(c.stdout()).toBe('entry_id\tstatus\nu-1\t1 picked_up\nu-2\t1 picked_up\nu-3\t1 picked_up\n');
        if (format === 'table' && tty) {
          expect(c.stdout()).toBe('ENTRY_ID  STATUS\nu-1       picked_up\nu-2       picked_up\nu-3       picked_up\n');
        }
      });
    }
  }

  it('TTY table: later batches keep the first batch widths', async () => {
    const c = captureIO({ tty: true });
    const source = [{ id: 'a', name: 'short' }, { id: 'b', name: 'much longer name' }];
    await renderList(c.io, source, { format: 'table', now: NOW, stream: true, batchSize: 1 });
    expect(c.stdout()).toBe('ID  NAME\na   short\nb   much…\n');
  });

  it('stops pulling from the source once the pipe is closed', async () => {
    const c = captureIO();
    let pulled = 0;
    let cleanedUp = false;
    const source = (async function* () {
      try {
        for (let i = 0; i < 1000; i++) {
          pulled++;
          yield { n: i };
        }
      } finally {
        cleanedUp = true;
      }
    })();
    let writes = 0;
    (c.io.stdout as unknown as { write: (chunk: string, cb?: (err?: Error) => void) => boolean }).write = (_chunk, cb) => {
      writes++;
      c.io.stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      cb?.(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      return false;
    };
    await renderList(c.io, source, { format: 'ndjson', now: NOW, stream: true });
    expect(writes).toBe(1);
    expect(pulled).toBeLessThan(5);
    expect(cleanedUp).toBe(true);
  });
});

describe('renderError', () => {
  it('json: one line on stderr, nothing on stdout', async () => {
    const c = captureIO();
    await renderError(c.io, { message: 'Parcel not found', status: 404, code: 'not_found', exitCode: 4 }, { format: 'json' });
    expect(c.stdout()).toBe('');
    expect(c.stderr()).toBe('{"error":{"status":404,"code":"not_found","message":"Parcel not found","exit_code":4}}\n');
  });
  it('json: null status for a non-HTTP error; field, details and hint when given', async () => {
    const c = captureIO();
    await renderError(
      c.io,
      {
        message: 'invalid input',
        code: 'invalid_usage',
        exitCode: 2,
        field: '--postal-code',
        details: [{ field: 'postal_code', message: 'four digits and two letters' }],
        hint: 'e.g. 1234AB',
      },
      { format: 'ndjson' },
    );
    expect(JSON.parse(c.stderr())).toEqual({
      error: {
        status: null,
        code: 'invalid_usage',
        message: 'invalid input',
        exit_code: 2,
        field: '--postal-code',
        details: [{ field: 'postal_code', message: 'four digits and two letters' }],
        hint: 'e.g. 1234AB',
      },
    });
    expect(c.stderr().split('\n')).toHaveLength(2);
  });
  it('human: Error line, details, hint; no colour without stderrColour', async () => {
    const c = captureIO({ tty: true });
    await renderError(
      c.io,
      {
        message: 'Validation failed',
        status: 422,
        code: 'validation_failed',
        exitCode: 6,
        details: [{ field: 'delivered.delivered_postal_code', message: 'must be 4 digits + 2 letters' }],
        hint: 'Check the address with `parcels address validate`.',
      },
      { format: 'table' },
    );
    expect(c.stdout()).toBe('');
    expect(c.stderr()).toBe(
      'Error: Validation failed\n' +
        '  - delivered.delivered_postal_code: must be 4 digits + 2 letters\n' +
        'Hint: Check the address with `parcels address validate`.\n',
    );
  });
  it('human: names the field when the message does not', async () => {
    const c = captureIO();
    await renderError(c.io, { message: 'must be a number', code: 'invalid_usage', exitCode: 2, field: '--limit' }, { format: 'csv' });
    expect(c.stderr()).toBe('Error: --limit: must be a number\n');
  });
  it('human with stderr colour: red Error, dim hint', async () => {
    const c = captureIO({ tty: true, colour: true });
    await renderError(c.io, { message: 'boom', code: 'unexpected', exitCode: 1, hint: 'retry' }, { format: 'table' });
    expect(c.stderr()).toBe(`${ESC}[31m${ESC}[1mError:${ESC}[22m${ESC}[39m boom\n${ESC}[2mHint: retry${ESC}[22m\n`);
  });
});

describe('renderMessage', () => {
  it('goes to stderr with a prefix per kind', async () => {
    const c = captureIO();
    await renderMessage(c.io, 'Created parcel u-1', 'success');
    await renderMessage(c.io, 'Rate limited, retrying in 2s', 'warn');
    await renderMessage(c.io, 'Using profile dev', 'info');
    expect(c.stdout()).toBe('');
    expect(c.stderr()).toBe('✓ Created parcel u-1\n! Rate limited, retrying in 2s\nUsing profile dev\n');
  });
  it('colours only with stderrColour', async () => {
    const c = captureIO({ colour: true });
    await renderMessage(c.io, 'ok', 'success');
    expect(c.stderr()).toBe(`${ESC}[32m✓${ESC}[39m ok\n`);
  });
});
