/**
 * Issue 29 finding 3: a hostile server sends the API key back escaped (`\u` escapes every 4th
 * character, or `%XX`), so no 8 characters of it appear in a row in the raw answer. Redaction runs
 * over every decoded string too: nothing printed, and no file the CLI keeps, holds the key.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import type { HostileServer } from '../helpers/hostile-server.js';
import { startHostileServer } from '../helpers/hostile-server.js';

const KEY = 'sk_live_Q7mZ4pX9wL2vK8nR5tY1';
const ID = '0b0c6a52-1d7e-4f0e-9a4b-8c2d3e4f5a61';
const MISSING = '1b0c6a52-1d7e-4f0e-9a4b-8c2d3e4f5a62';

/** The key with every 4th character written as `escape` makes it: never 4 raw characters in a row. */
function escapedKey(escape: (char: string) => string): string {
  return [...KEY].map((char, i) => (i % 4 === 3 ? escape(char) : char)).join('');
}
const hex = (char: string, width: number): string => char.charCodeAt(0).toString(16).toUpperCase().padStart(width, '0');
/** As JSON text: `\u0051` (inside a JSON string this is the character itself). */
const U_KEY = escapedKey((c) => `\\u${hex(c, 4)}`);
/** Percent-encoded: `%51`, which a reader decodes (and a URL carries). */
const PCT_KEY = escapedKey((c) => `%${hex(c, 2)}`);

/** `text` with every escape undone, however often nested (a JSON file of an escaped string doubles the backslashes). */
function unescaped(text: string): string {
  let out = text;
  for (let previous = ''; previous !== out; ) {
    previous = out;
    out = out.replaceAll('\\\\', '\\').replace(/%([0-9A-Fa-f]{2})|\\u([0-9A-Fa-f]{4})/g, (_m, p: string | undefined, u: string | undefined) => String.fromCharCode(Number.parseInt(p ?? u ?? '', 16)));
  }
  return out;
}

/** Runs of 8 characters of the key's secret part. */
const GRAMS = Array.from({ length: KEY.length - 8 - 7 }, (_, i) => KEY.slice(8 + i, 16 + i));
function leaks(text: string): string[] {
  const plain = unescaped(text);
  return GRAMS.filter((gram) => plain.includes(gram));
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer(({ method, url }) => {
    if (url.startsWith(`/deliveries/v1/parcels/${ID}`)) {
      return {
        status: 200,
        headers: { etag: `"${PCT_KEY}"` },
        body: undefined,
        raw: `{"data":{"entry_id":"${ID}","courier":"${U_KEY}","street":"${PCT_KEY}","status":1,"country":"NL","postal_code":"1234AB","number":"1"}}`,
      };
    }
    if (url.startsWith(`/deliveries/v1/parcels/${MISSING}`)) {
      return { status: 404, body: undefined, raw: `{"error":{"code":"not_found","message":"no parcel for ${U_KEY}"}}` };
    }
    if (method === 'POST' && url.startsWith('/deliveries/v1/parcels')) {
      return { status: 201, body: undefined, raw: `{"data":{"entry_id":"${U_KEY}","courier":"DEMO-BIKE"}}` };
    }
    if (url.startsWith('/account/v1/couriers')) {
      return { status: 200, body: undefined, raw: `{"data":{"couriers":[{"code":"${U_KEY}","name":"${PCT_KEY}"}]}}` };
    }
    if (url.startsWith('/deliveries/v1/reference')) {
      return { status: 200, body: undefined, raw: `{"data":{"parcel_statuses":[{"code":1,"name":"${U_KEY}"}]}}` };
    }
    return { status: 404, body: { error: { code: 'not_found', message: 'no such route' } } };
  });
});
afterAll(() => server.close());

describe('the key escaped by a hostile server never comes out decoded', () => {
  it('the attack is real: the raw answers hold no 8 characters of the key in a row', () => {
    for (const text of [U_KEY, PCT_KEY]) expect(GRAMS.filter((gram) => text.includes(gram))).toEqual([]);
    expect(leaks(U_KEY)).not.toEqual([]);
    expect(leaks(PCT_KEY)).not.toEqual([]);
  });

  it('get, get --json, an error body, create -q and couriers print no key, and no file under PARCELS_CONFIG_DIR holds it', async () => {
    const dir = tempConfigDir();
    const env = { PARCELS_CONFIG_DIR: dir, PARCELS_BASE_URL: server.url, PARCELS_API_KEY: KEY };
    const runs = [
      await runCli(['get', ID], { env }),
      await runCli(['get', ID, '--json'], { env }),
      await runCli(['get', MISSING], { env }),
      await runCli(['get', MISSING, '--json'], { env }),
      await runCli(['create', '--courier', 'DEMO-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '-q'], { env }),
      await runCli(['create', '--courier', 'DEMO-BIKE', '--country', 'NL', '--postal-code', '1234AB', '--number', '1', '--json'], { env }),
      await runCli(['couriers'], { env }),
      await runCli(['couriers', '--json'], { env }),
    ];
    expect(runs.map((r) => r.code)).toEqual([0, 0, 4, 4, 0, 0, 0, 0]);
    for (const r of runs) {
      expect(leaks(r.stdout)).toEqual([]);
      expect(leaks(r.stderr)).toEqual([]);
    }
    // The answers did reach the caches (so the check below looks at real files).
    const files = filesUnder(dir);
    expect(files.some((f) => f.includes('known-ids'))).toBe(true);
    expect(files.some((f) => /etag/i.test(f))).toBe(true);
    for (const file of files) expect({ file, leaks: leaks(readFileSync(file, 'utf8')) }).toEqual({ file, leaks: [] });
    // The masked values are what the CLI shows in their place.
    expect(runs[1]?.stdout).toContain('***REDACTED***');
  });
});
