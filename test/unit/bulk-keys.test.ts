/**
 * Issue 19, "keys that survive edits": a line's key comes from its batch and the request it builds
 * (normalised), never from its position or the rest of the file.
 */
import { hash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../src/bulk/build.js';
import { buildLine, lineRequest } from '../../src/bulk/build.js';
import type { InputLine } from '../../src/bulk/input.js';
import { readInput } from '../../src/bulk/input.js';
import { ContentDigest } from '../../src/bulk/items.js';
import { canonicalJson, legacyLineKey, requestDigest, requestKey } from '../../src/bulk/keys.js';
import { Occurrences } from '../../src/bulk/occurrences.js';

const dir = mkdtempSync(join(tmpdir(), 'bulk-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ID = '0b0c4e1a-2f3d-4c5b-8a9e-1f2e3d4c5b6a';
const NOW = 1_763_884_800;

const line = (record: Record<string, unknown> | undefined, n = 1): InputLine => ({ line: n, bytes: Buffer.from(JSON.stringify(record)), record, json: true });
const ctx = (kind: BuildContext['kind'], more: Partial<BuildContext> = {}): BuildContext => ({ kind, overrides: {}, now: () => NOW, ...more });

function built(input: InputLine, context: BuildContext) {
  const request = lineRequest(input, context);
  return request.ok ? buildLine(request, context) : request;
}

/** Keys of a file's lines as a run derives them. */
async function keysOf(name: string, text: string, format: 'csv' | 'ndjson', context: BuildContext = ctx('create')): Promise<string[]> {
  const path = join(dir, name);
  writeFileSync(path, text);
  const occurrences = new Occurrences();
  const keys: string[] = [];
  for await (const chunk of readInput(path, format, { bareIds: context.kind !== 'create' })) {
    for (const input of chunk) {
      const request = lineRequest(input, context);
      if (request.ok) keys.push(requestKey(context.kind, 'B', request.digest, occurrences.next(request.digest)));
    }
  }
  return keys;
}

describe('line → request', () => {
  it('create: the body is the line as canonical JSON (keys sorted), unknown fields kept', () => {
    const text = '{ "number":"10", "courier":"DEMO-BIKE","country":"NL","postal_code":"1234AB","colour":"red" }';
    const result = built(line(JSON.parse(text) as Record<string, unknown>, 7), ctx('create'));
    expect(result.ok && Buffer.from(result.request.body).toString()).toBe('{"colour":"red","country":"NL","courier":"DEMO-BIKE","number":"10","postal_code":"1234AB"}');
    expect(result).toMatchObject({ ok: true, line: 7, parcel: undefined, request: { method: 'POST', path: '/deliveries/v1/parcels' } });
  });

  it('create: an invalid line names the field and the rule', () => {
    expect(built(line({ courier: 'X', country: 'NL', postal_code: '1', number: 10 }), ctx('create'))).toEqual({ ok: false, line: 1, field: 'number', message: 'must be a string (house number as text)' });
  });

  it('events: only entry_id and the body fields are taken (others counted), command-line values win, a default fills', () => {
    const record = { entry_id: ID, status: 5, courier: 'DEMO-BIKE', name: 'x' };
    const result = built(line(record), ctx('events', { overrides: { status: 2 }, defaults: { occurred_at: NOW - 10 } }));
    expect(result.ok && Buffer.from(result.request.body).toString()).toBe(`{"occurred_at":${NOW - 10},"status":2}`);
    expect(result).toMatchObject({ ok: true, parcel: ID, ignored: 2, request: { path: `/deliveries/v1/parcels/${ID}/events` } });
  });

  it('events: a missing id, a bad id, a time too far ahead, each reported with its field', () => {
    expect(built(line({ status: 1 }), ctx('events'))).toEqual({ ok: false, line: 1, field: 'entry_id', message: "is required (the parcel's id)" });
    expect(built(line({ entry_id: 'nope' }), ctx('events'))).toEqual({ ok: false, line: 1, field: 'entry_id', message: "must be a UUID (the parcel's entry_id)" });
    expect(built(line({ entry_id: ID, occurred_at: NOW + 301 }), ctx('events'))).toEqual({ ok: false, line: 1, field: 'occurred_at', message: 'must not be more than five minutes in the future' });
  });

  it('attempts: CSV delivered_* columns go into the delivered group', () => {
    const record = { entry_id: ID, time_attempt: NOW, outcome: 2, delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '12' };
    const result = built({ ...line(record), json: false }, ctx('attempts'));
    expect(result.ok && JSON.parse(Buffer.from(result.request.body).toString())).toEqual({ time_attempt: NOW, outcome: 2, delivered: { delivered_country: 'NL', delivered_postal_code: '1234AB', delivered_number: '12' } });
  });

  it('a line that did not parse is reported with its problem', () => {
    expect(built({ line: 3, bytes: Buffer.from('x'), record: undefined, json: false, problem: 'is not valid JSON' }, ctx('create'))).toEqual({ ok: false, line: 3, field: '', message: 'is not valid JSON' });
  });
});

describe('keys', () => {
  const csv = 'courier,country,postal_code,number\nA-BIKE,NL,1234AB,1\nA-BIKE,NL,1234AB,2\nA-BIKE,NL,1234AB,3\n';

  it('are valid Idempotency-Keys of the batch, the kind, the request and its occurrence', () => {
    const k = requestKey('create', 'B', 'digest', 0);
    expect(k).toMatch(/^bulk-[A-Za-z0-9_-]{41}$/);
    expect(new Set([k, requestKey('events', 'B', 'digest', 0), requestKey('create', 'C', 'digest', 0), requestKey('create', 'B', 'other', 0), requestKey('create', 'B', 'digest', 1)]).size).toBe(5);
  });

  it('a CSV re-saved with CRLF, other quoting, a byte-order mark and reordered columns gives the same keys', async () => {
    const resaved = '\uFEFF"number","postal_code","country","courier"\r\n"1",1234AB,NL,"A-BIKE"\r\n2,"1234AB",NL,A-BIKE\r\n3,1234AB,"NL",A-BIKE\r\n';
    expect(await keysOf('resaved.csv', resaved, 'csv')).toEqual(await keysOf('plain.csv', csv, 'csv'));
  });

  it('NDJSON with other spacing and field order gives the same keys', async () => {
    const a = '{"courier":"A-BIKE","country":"NL","postal_code":"1234AB","number":"1"}\n';
    const b = '{ "number": "1",  "postal_code":"1234AB", "country":"NL", "courier":"A-BIKE" }\r\n';
    expect(await keysOf('b.ndjson', b, 'ndjson')).toEqual(await keysOf('a.ndjson', a, 'ndjson'));
  });

  it('editing, inserting or appending lines changes the keys of the changed lines only', async () => {
    const before = await keysOf('before.csv', csv, 'csv');
    const after = await keysOf('after.csv', 'courier,country,postal_code,number\nA-BIKE,NL,1234AB,0\nA-BIKE,NL,1234AB,1\nA-BIKE,NL,1234AB,2b\nA-BIKE,NL,1234AB,3\nA-BIKE,NL,1234AB,4\n', 'csv');
    expect(after).toHaveLength(5);
    expect(after.filter((key) => before.includes(key))).toEqual([before[0], before[2]]);
  });

  it('two identical lines are two requests; the flags that fill or override a line are part of its key', async () => {
    const twice = await keysOf('twice.csv', 'courier,country,postal_code,number\nA-BIKE,NL,1234AB,1\nA-BIKE,NL,1234AB,1\n', 'csv');
    expect(new Set(twice).size).toBe(2);
    const ids = `${ID}\n`;
    const pickedUp = await keysOf('ids1.txt', ids, 'ndjson', ctx('events', { overrides: { status: 1 } }));
    const inTransit = await keysOf('ids2.txt', ids, 'ndjson', ctx('events', { overrides: { status: 2 } }));
    expect(pickedUp[0]).not.toBe(inTransit[0]);
    // A defaulted time (now) is not: a re-run at another time finds the same key.
    expect(await keysOf('ids3.txt', ids, 'ndjson', ctx('events', { overrides: { status: 1 }, defaults: { occurred_at: NOW + 60 } }))).toEqual(pickedUp);
  });

  it('a service type name and its number are one identity; a status name keeps the identity earlier builds gave it (the text as written)', () => {
    const names = { service_type: { 2: 'next_day' }, location_type: {} };
    const address = { courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '10' };
    const named = lineRequest(line({ ...address, service_type: 'next_day' }), ctx('create', { codeNames: names }));
    const coded = lineRequest(line({ ...address, service_type: 2 }), ctx('create'));
    expect(named.ok && coded.ok && named.digest === coded.digest).toBe(true);
    const status = lineRequest(line({ entry_id: ID, status: 'in_transit' }), ctx('events'));
    expect(status.ok && status.digest).toBe(requestDigest('POST', `/deliveries/v1/parcels/${ID}/events`, { status: 'in_transit' }));
    const sent = built(line({ entry_id: ID, status: 'in_transit' }), ctx('events', { defaults: { occurred_at: NOW - 10 } }));
    expect(sent.ok && Buffer.from(sent.request.body).toString()).toBe(`{"occurred_at":${NOW - 10},"status":2}`);
  });

  it('the released derivation (line number and bytes) is kept to resume its journals, pinned', () => {
    expect(legacyLineKey('batch', 1, Buffer.from('{}'))).toBe('bulk-BEGaWlZowIwyR7Dsc75C8NjndqsZPVufwPF4rPkOS');
  });

  it('canonical JSON sorts keys at every depth and leaves arrays in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
  });
});

describe('content digest', () => {
  async function digestOf(name: string, text: string): Promise<string> {
    const path = join(dir, name);
    writeFileSync(path, text);
    const digest = new ContentDigest();
    for await (const chunk of readInput(path, 'csv', { bareIds: false })) for (const input of chunk) digest.add(input);
    return digest.digest();
  }

  it('is the same for a re-saved file and another for an edited one', async () => {
    const plain = await digestOf('d1.csv', 'courier,number\nA,1\nA,2\n');
    expect(await digestOf('d2.csv', '"number","courier"\r\n"1",A\r\n2,"A"\r\n')).toBe(plain);
    expect(await digestOf('d3.csv', 'courier,number\nA,1\nA,3\n')).not.toBe(plain);
    expect(await digestOf('d4.csv', 'courier,number\nA,2\nA,1\n')).not.toBe(plain);
  });
});

describe('occurrences', () => {
  it.each([undefined, 100, 5000])('counts each digest, sized for %s (grown past it when fewer)', (expected) => {
    const occurrences = new Occurrences(expected);
    const digests = Array.from({ length: 5000 }, (_, i) => hash('sha256', `${i}`, 'base64url'));
    expect(digests.map((d) => occurrences.next(d)).every((n) => n === 0)).toBe(true);
    expect(occurrences.next(digests[1234] as string)).toBe(1);
    expect(occurrences.next(digests[1234] as string)).toBe(2);
    expect(occurrences.next(digests[0] as string)).toBe(1);
  });
});
