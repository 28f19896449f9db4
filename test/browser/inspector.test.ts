/**
 * The web inspector in a real Chromium (Debian's, or PARCELS_CHROMIUM) against a real sandbox. No
 * fixed sleeps: every wait polls the page until what it waits for is there. Without Chromium these
 * tests fail (saying how to install it); they never skip.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { DEMO_API_KEY, manualTime, startSandbox } from '../../src/sandbox/index.js';

const db = join(mkdtempSync(join(tmpdir(), 'parcels-inspector-')), 'sandbox.db');
let sandbox: RunningSandbox;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ db, frozen: true, time: manualTime(Date.UTC(2026, 11, 1, 8, 0, 0)) });
  browser = await launchChromium();
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});

async function api(method: string, path: string, body?: unknown, idempotencyKey = `browser-${Math.random().toString(36).slice(2)}`): Promise<{ status: number; data: Record<string, unknown> }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${DEMO_API_KEY}` };
  if (body !== undefined) Object.assign(headers, { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey });
  const response = await fetch(sandbox.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const envelope = (await response.json()) as { data: Record<string, unknown> };
  return { status: response.status, data: envelope.data };
}

async function createParcel(fields: Record<string, unknown> = {}): Promise<string> {
  const created = await api('POST', '/deliveries/v1/parcels', { courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '10', ...fields });
  expect(created.status).toBe(201);
  return created.data.entry_id as string;
}

/** A fresh browser (no cookies) at `width` px, with every dialog recorded. */
async function newPage(width = 1440, colorScheme: 'light' | 'dark' = 'light'): Promise<{ page: Page; dialogs: string[] }> {
  context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { page, dialogs };
}

/** Opens a fresh login link and waits for the inspector's tabs. */
async function loggedIn(width = 1440): Promise<{ page: Page; dialogs: string[] }> {
  const opened = await newPage(width);
  await opened.page.goto(sandbox.inspectorLink() as string);
  await opened.page.getByRole('tab', { name: 'Parcels' }).waitFor();
  return opened;
}

const parcelRow = (page: Page, id: string) => page.locator(`tr[data-entry-id="${id}"]`);

describe('the sandbox inspector in Chromium', () => {
  it('the login link opens the page (and leaves the address bar); a bare URL shows how to get in', async () => {
    const { page } = await newPage();
    await page.goto(`${sandbox.url}/_sandbox/ui/`);
    await page.getByText('Open the login link that').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(
      'the inspector needs a session: open the login link `parcels sandbox serve` printed, or get a new one with `parcels sandbox ui`',
    );
    expect(await page.getByRole('tab').count()).toBe(0);

    const link = sandbox.inspectorLink() as string;
    await page.goto(link);
    await page.getByRole('tab', { name: 'Parcels' }).waitFor();
    expect(page.url()).toBe(`${sandbox.url}/_sandbox/ui/`);
    // The code was spent: the same link again is refused.
    const { page: second } = await newPage();
    await second.goto(link);
    await second.getByText('This login link cannot be used').waitFor();
    expect(await second.getByRole('tab').count()).toBe(0);
  });

  it('a used login link opened again (from the browser\'s history) in a browser with a live session shows the inspector', async () => {
    const { page } = await newPage();
    const link = sandbox.inspectorLink() as string;
    await page.goto(link);
    await page.getByRole('tab', { name: 'Parcels' }).waitFor();
    // Another tab of the same browser shares the session (its cookie and the origin's page key).
    const other = await (context as BrowserContext).newPage();
    await other.goto(`${sandbox.url}/_sandbox/ui/`);
    await other.getByRole('tab', { name: 'Parcels' }).waitFor();
    // What choosing the link in the history does: open that URL again.
    await other.goto('about:blank');
    await other.goto(link);
    await other.getByRole('tab', { name: 'Parcels' }).waitFor();
    expect(await other.locator('.status-line').textContent()).toBe('This login link was used already; this browser is still logged in, so the inspector opened with its session.');
    expect(other.url()).toBe(`${sandbox.url}/_sandbox/ui/`);
  });

  it('another port of the host receives the session cookie, but replayed from Node it opens nothing', async () => {
    const caught: string[] = [];
    // Any other local server (another user's dev server): the browser sends it the cookies of its host, whatever their port.
    const elsewhere = createServer((req, res) => {
      if (req.url === '/_sandbox/ui/x') caught.push(req.headers.cookie ?? '');
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>elsewhere</title><p>another app</p>');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    try {
      const { page } = await loggedIn();
      const other = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
      await page.goto(`${other}/_sandbox/ui/x`);
      await page.getByText('another app').waitFor();
      const cookie = caught.at(-1) as string;
      expect(cookie).toMatch(new RegExp(`^parcels_inspector_${new URL(sandbox.url).port}=[A-Za-z0-9_-]{32}$`));
      // That page cannot read the inspector's storage: its own origin's is empty.
      expect(await page.evaluate<number>('localStorage.length')).toBe(0);
      const before = sandbox.clock.now();
      const forged = { Cookie: cookie, Origin: sandbox.url, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };
      expect((await fetch(`${sandbox.url}/_sandbox/ui/api/parcels`, { headers: forged })).status).toBe(401);
      const moved = await fetch(`${sandbox.url}/_sandbox/ui/api/clock/advance`, { method: 'POST', headers: forged, body: JSON.stringify({ by: '30d' }) });
      expect(moved.status).toBe(401);
      expect(sandbox.clock.now()).toBe(before);
    } finally {
      await new Promise((resolve) => (elsewhere.close(resolve), elsewhere.closeAllConnections()));
    }
  });

  it('a parcel created through the API after the page loaded appears in the list', async () => {
    const { page } = await loggedIn();
    await page.getByText(/parcels, newest first|No parcels match/).waitFor();
    const id = await createParcel({ number: '77' });
    await parcelRow(page, id).waitFor();
    expect(await parcelRow(page, id).locator('td').nth(4).textContent()).toBe('NL 1234AB 77');
  });

  it('a request made after the page loaded shows up in the live request log', async () => {
    const { page } = await loggedIn();
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByText(/requests so far/).waitFor();
    const missing = '00000000-0000-4000-8000-00000000beef';
    expect((await api('GET', `/deliveries/v1/parcels/${missing}`)).status).toBe(404);
    const row = page.locator('tr', { hasText: `/deliveries/v1/parcels/${missing}` });
    await row.waitFor();
    expect(await row.locator('td').nth(5).textContent()).toBe('404 error');
    expect(await row.locator('td').nth(6).textContent()).toBe('parcel_not_found');
    await row.getByRole('button').click();
    await page.getByRole('heading', { name: `GET /deliveries/v1/parcels/${missing} → 404 error` }).waitFor();
    expect(await page.locator('.bodies pre').nth(1).textContent()).toContain('"code": "parcel_not_found"');
  });

  it('advancing the test clock by 6 h makes a 9999HA parcel’s timeline end delivered, without a reload', async () => {
    const id = await createParcel({ postal_code: '9999HA', number: '6' });
    const { page } = await loggedIn();
    await parcelRow(page, id).getByRole('button').click();
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await page.getByText('No events or attempts yet.').waitFor();
    await page.getByLabel('Advance by').fill('6h');
    await page.getByRole('button', { name: 'Advance', exact: true }).click();
    await timeline.locator('li', { hasText: 'attempt 1: delivered (no_reason)' }).waitFor();
    const entries = await timeline.locator('li .what').allTextContents();
    expect(entries).toEqual(['event: picked_up', 'event: in_transit', 'event: in_delivery', 'attempt 1: delivered (no_reason)']);
    expect(await page.locator('.parcel-status').textContent()).toBe('delivered');
    expect(await page.getByRole('list', { name: 'Scenario steps' }).locator('li.past').count()).toBe(4);
  });

  it('a parcel whose addition is markup shows it as text and runs nothing', async () => {
    const markup = '<img src=x onerror=alert(1)>';
    const id = await createParcel({ addition: 'A' });
    // The API caps an addition at 16 bytes; the database (another process, an old file) may hold anything.
    const direct = new Database(db);
    direct.pragma('busy_timeout = 5000');
    direct.prepare('UPDATE parcels SET addition = ? WHERE entry_id = ?').run(markup, id);
    direct.close();
    const { page, dialogs } = await loggedIn();
    await parcelRow(page, id).waitFor();
    expect(await parcelRow(page, id).locator('td').nth(4).textContent()).toBe(`NL 1234AB 10 ${markup}`);
    await parcelRow(page, id).getByRole('button').click();
    await page.locator('.fields dd', { hasText: markup }).waitFor();
    expect(await page.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('keeps up with a burst of requests: every one counted, at most 200 rows drawn, the newest on top', async () => {
    const { page } = await loggedIn();
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByText(/requests so far/).waitFor();
    // 1 500 requests, 50 at a time, as fast as this process sends them (bench/inspector-log.mjs holds 1 000 a second).
    for (let batch = 0; batch < 30; batch++) {
      await Promise.all(Array.from({ length: 50 }, () => fetch(`${sandbox.url}/account/v1/couriers`, { headers: { Authorization: `Bearer ${DEMO_API_KEY}` } }).then((r) => r.arrayBuffer())));
    }
    const latest = (sandbox.logs().at(-1) as { seq: number }).seq;
    await page.getByText(`${latest} requests so far; the newest 1000 kept, 200 shown.`).waitFor();
    expect(await page.locator('tr[data-seq]').count()).toBe(200);
    expect(await page.locator('tr[data-seq]').first().getAttribute('data-seq')).toBe(String(latest));
  });

  it('pages through more parcels than one page holds, newest first', async () => {
    const first = await createParcel({ number: '1001' });
    for (let batch = 0; batch < 10; batch++) await Promise.all(Array.from({ length: 10 }, (_, n) => createParcel({ number: String(2000 + batch * 10 + n) })));
    const { page } = await loggedIn();
    await page.getByText('100 parcels, newest first; older ones on the next page.').waitFor();
    expect(await parcelRow(page, first).count()).toBe(0);
    await page.getByRole('button', { name: 'Older parcels' }).click();
    await parcelRow(page, first).waitFor();
    await page.getByRole('button', { name: 'Newest parcels' }).click();
    await page.locator('tr[data-entry-id]', { hasText: 'NL 1234AB 2099' }).waitFor();
  });

  it('works at 390 px: no horizontal scroll on the parcels, an open parcel or the request log', async () => {
    const id = await createParcel({ postal_code: '9999TF', number: '390' });
    const { page } = await loggedIn(390);
    // Evaluated in the page (a string: this file is not compiled with the DOM's types).
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    await parcelRow(page, id).waitFor();
    expect(await overflow()).toBe(0);
    await parcelRow(page, id).getByRole('button').click();
    await page.getByRole('list', { name: 'Scenario steps' }).waitFor();
    expect(await overflow()).toBe(0);
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.locator('tr[data-seq]').first().waitFor();
    expect(await overflow()).toBe(0);
  });

  it('assigns a scenario to a parcel; its coming steps show when they will happen on the test clock', async () => {
    const id = await createParcel({ number: '5' });
    const { page } = await loggedIn();
    await parcelRow(page, id).getByRole('button').click();
    await page.getByText('No scenario.').waitFor();
    await page.locator('select[name="scenario"]').selectOption('refused');
    await page.getByRole('button', { name: 'Assign' }).click();
    await page.getByRole('status').getByText(`Scenario refused assigned to ${id}.`).waitFor();
    const steps = page.getByRole('list', { name: 'Scenario steps' }).locator('li');
    await steps.first().waitFor();
    expect(await steps.count()).toBe(4);
    expect(await steps.first().textContent()).toMatch(/^○ coming .+ \(in 15 m\) event: picked_up$/);
    expect(await steps.last().textContent()).toMatch(/^○ coming .+ \(in 5 h 15 m\) attempt: refused \(refused\)$/);
    expect(await parcelRow(page, id).locator('td').nth(5).textContent()).toBe('refused');
  });

  it('follows the system: light and dark colours', async () => {
    const background = async (scheme: 'light' | 'dark') => {
      const { page } = await newPage(1440, scheme);
      await page.goto(`${sandbox.url}/_sandbox/ui/`);
      await page.getByRole('alert').waitFor();
      const colour = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
      await context?.close();
      context = undefined;
      return colour;
    };
    expect(await background('light')).toBe('rgb(255, 255, 255)');
    expect(await background('dark')).toBe('rgb(13, 17, 23)');
  });

  it('is usable by keyboard: arrow keys move between tabs, Enter opens a parcel', async () => {
    const id = await createParcel({ number: '42' });
    const { page } = await loggedIn();
    await page.getByRole('tab', { name: 'Parcels' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Requests');
    expect(await page.getByRole('tab', { name: 'Requests' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    await parcelRow(page, id).getByRole('button').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Parcel ${id}` }).waitFor();
  });
  it('a request shows its headers, its query as sent and decoded, pretty JSON; a replay and a 409 link to the first request with their key', async () => {
    const parcel = { courier: 'DEMO-BIKE', country: 'NL', postal_code: '1234AB', number: '31' };
    const first = await api('POST', '/deliveries/v1/parcels', parcel, 'browser-replay-0001');
    expect((await api('POST', '/deliveries/v1/parcels', parcel, 'browser-replay-0001')).status).toBe(201);
    expect((await api('POST', '/deliveries/v1/parcels', { ...parcel, number: '32' }, 'browser-replay-0001')).status).toBe(409);
    expect((await api('GET', '/deliveries/v1/parcels?limit=1&courier=DEMO-BIKE')).status).toBe(200);
    const [firstSeq, replaySeq, conflictSeq, listSeq] = sandbox.logs({ after: (sandbox.logs().at(-1)?.seq ?? 0) - 4 }).map((e) => e.seq) as [number, number, number, number];
    const { page } = await loggedIn();
    await page.getByRole('tab', { name: 'Requests' }).click();
    const open = async (seq: number, heading: string) => {
      await page.locator(`tr[data-seq="${seq}"]`).getByRole('button').click();
      await page.getByRole('heading', { name: `Request ${seq}: ${heading}` }).waitFor();
    };
    await open(listSeq, 'GET /deliveries/v1/parcels?limit=1&courier=DEMO-BIKE → 200');
    expect(await page.getByLabel('Query parameters').locator('dt, dd').allTextContents()).toEqual(['limit', '1', 'courier', 'DEMO-BIKE']);
    const listHeaders = await page.getByLabel('Request headers').locator('dt').allTextContents();
    expect(listHeaders).toContain('host');
    expect(listHeaders).not.toContain('authorization');

    await open(replaySeq, 'POST /deliveries/v1/parcels → 201');
    const headers = page.getByLabel('Request headers');
    expect(await headers.locator('dt:text-is("idempotency-key") + dd').textContent()).toBe('browser-replay-0001');
    expect(await headers.locator('dt:text-is("content-type") + dd').textContent()).toBe('application/json');
    expect(await page.locator('.bodies .request-body').textContent()).toBe(JSON.stringify(parcel, null, 2));
    expect(await page.locator('.bodies .response-body').textContent()).toContain(`\n    "entry_id": "${first.data.entry_id as string}",\n`);
    await page.getByRole('button', { name: `Request ${firstSeq}: POST /deliveries/v1/parcels → 201` }).click();
    await page.getByRole('heading', { name: `Request ${firstSeq}: POST /deliveries/v1/parcels → 201` }).waitFor();
    expect(await page.locator('.first-request').count()).toBe(0);

    await open(conflictSeq, 'POST /deliveries/v1/parcels → 409 error');
    await page.getByRole('button', { name: `Request ${firstSeq}: POST /deliveries/v1/parcels → 201` }).click();
    await page.getByRole('heading', { name: `Request ${firstSeq}: POST /deliveries/v1/parcels → 201` }).waitFor();
  });

  it('a parcel lists its requests (the create, its reads and writes); one opens in the request log', async () => {
    const id = await createParcel({ number: '88' });
    expect((await api('GET', `/deliveries/v1/parcels/${id}`)).status).toBe(200);
    expect((await api('GET', `/deliveries/v1/parcels/${id}/events`)).status).toBe(200);
    const { page } = await loggedIn();
    await parcelRow(page, id).getByRole('button').click();
    const list = page.getByRole('list', { name: 'Requests for this parcel' });
    await list.waitFor();
    const lines = (await list.locator('li').allTextContents()).map((line) => line.replace(/^(Request \d+) .+? (GET|POST)/, '$1 $2'));
    const [create, get, events] = sandbox.logs({ parcel: id }).map((e) => e.seq);
    expect(lines).toEqual([`Request ${events} GET /deliveries/v1/parcels/${id}/events → 200`, `Request ${get} GET /deliveries/v1/parcels/${id} → 200`, `Request ${create} POST /deliveries/v1/parcels → 201`]);
    await list.getByRole('button', { name: `Request ${create}` }).click();
    expect(await page.getByRole('tab', { name: 'Requests' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('heading', { name: `Request ${create}: POST /deliveries/v1/parcels → 201` }).waitFor();
  });

  it("the browser's /favicon.ico and the inspector's own files never show in the API's request log", async () => {
    const { page } = await loggedIn();
    // What the browser asks of every origin it shows (the page's own fetch: the same request, made now).
    expect(await page.evaluate<number>("fetch('/favicon.ico').then((r) => r.status)")).toBe(204);
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByText(/requests so far/).waitFor();
    const missing = '00000000-0000-4000-8000-00000000f00d';
    expect((await api('GET', `/deliveries/v1/parcels/${missing}`)).status).toBe(404);
    await page.locator('tr', { hasText: missing }).waitFor();
    expect(sandbox.logs().filter((e) => !/^\/(account|deliveries)\/v1\//.test(e.path))).toEqual([]);
  });

  it('at 1440 px an open request covers no column of the log: every header cell ends left of the detail', async () => {
    const id = await createParcel({ number: '1440' });
    expect((await api('POST', `/deliveries/v1/parcels/${id}/events?note=${'n'.repeat(60)}`, { status: 99 })).status).toBe(400);
    const { page } = await loggedIn(1440);
    await page.getByRole('tab', { name: 'Requests' }).click();
    const row = page.locator('tr', { hasText: `/deliveries/v1/parcels/${id}/events` }).first();
    await row.getByRole('button').click();
    await page.getByRole('heading', { name: new RegExp(`POST /deliveries/v1/parcels/${id}/events\\?note=n+ → 400 error`) }).waitFor();
    const detail = await page.locator('.bodies').boundingBox();
    const heads = page.locator('.requests-table th');
    expect(await heads.count()).toBe(9);
    for (const [n, box] of (await Promise.all((await heads.all()).map((th) => th.boundingBox()))).entries()) {
      expect(box, `column ${n}`).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0), `column ${n} ends before the detail`).toBeLessThanOrEqual(detail?.x ?? 0);
    }
    // Nothing hidden in a sideways scroll either.
    expect(await page.evaluate<number>("(() => { const box = document.querySelector('.requests .table-box'); return box.scrollWidth - box.clientWidth; })()")).toBe(0);
  });
});
