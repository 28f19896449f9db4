import { describe, expect, it } from 'vitest';
import { renderError, renderHeading, renderLine, renderList, renderMessage, renderRecord } from '../../src/io/render.js';
import { sanitize } from '../../src/io/sanitize.js';
import { captureIO } from '../helpers/io.js';

const NOW = 1795377467;
/** Real sequences a hostile server could send: window title, OSC 8 hyperlink, clear screen (7-bit and C1 forms), bell. */
const TITLE = '\u001b]0;pwned\u0007';
const LINK = '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\';
const CLEAR = '\u001b[2J\u001b[H';
const C1_CLEAR = '\u009b2J';
const HOSTILE = `${TITLE}${LINK}${CLEAR}${C1_CLEAR}`;

/** No ESC, BEL or C1 control character: nothing a terminal would act on. */
function expectInert(text: string): void {
  // eslint-disable-next-line no-control-regex
  expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
}

const hostileItems = [
  { entry_id: `id-1${TITLE}`, [`col${CLEAR}`]: `v${LINK}`, status: 2, note: `n${C1_CLEAR}` },
  { entry_id: 'id-2', [`col${CLEAR}`]: 'plain', status: 0, note: HOSTILE },
];

describe('sanitize', () => {
  it('removes every control character (so no sequence can start) and turns line breaks into spaces', () => {
    expect(sanitize(TITLE)).toBe(']0;pwned');
    expect(sanitize(LINK)).toBe(']8;;https://evil.example\\click]8;;\\');
    expect(sanitize(CLEAR)).toBe('[2J[H');
    expect(sanitize(C1_CLEAR)).toBe('2J');
    expect(sanitize('a\r\nb\u2028c\td\u0085e')).toBe('a b c d e');
  });
});

describe('format characters (bidi, zero-width, tags) are shown, not obeyed', () => {
  it('each is named as <U+XXXX>; line breaks (VT, FF, NEL, U+2028) become spaces; BS and DEL go', () => {
    expect(sanitize('\u202eevil\u202c')).toBe('<U+202E>evil<U+202C>');
    expect(sanitize('a\u200bb\u2066c\u2069\ufeff\u{e0041}')).toBe('a<U+200B>b<U+2066>c<U+2069><U+FEFF><U+E0041>');
    expect(sanitize('a\u000bb\u000cc\u0085d\u2028e\r\nf')).toBe('a b c d e f');
    expect(sanitize('a\u0008b\u007fc')).toBe('abc');
    expect(sanitize('Åland – 12½ 🚲')).toBe('Åland – 12½ 🚲');
  });

  it('JSON escapes them, and parses back to the same value', async () => {
    const c = captureIO({ tty: true });
    const value = { note: '\u202eevil\u2028\u{e0041}' };
    await renderRecord(c.io, value, { format: 'json', now: NOW });
    expect(c.stdout()).toBe('{\n  "note": "\\u202eevil\\u2028\\udb40\\udc41"\n}\n');
    expect(JSON.parse(c.stdout())).toEqual(value);
  });

  it('CSV on a terminal goes through the sanitiser (formulas still neutralised); piped it keeps the text', async () => {
    const item = { a: `=1+1${TITLE}`, b: '\u202ex', c: 'line\nbreak' };
    const tty = captureIO({ tty: true });
    await renderList(tty.io, [item], { format: 'csv', now: NOW });
    expect(tty.stdout()).toBe(`a,b,c\n"'=1+1]0;pwned",<U+202E>x,line break\n`);
    const piped = captureIO({ tty: false });
    await renderList(piped.io, [item], { format: 'csv', now: NOW });
    expect(piped.stdout()).toBe(`a,b,c\n"'=1+1${TITLE}",\u202ex,"line\nbreak"\n`);
  });
});

describe('server text never reaches a terminal with its escape sequences', () => {
  it('TTY table: values, column keys, the left-out-columns note and the next-page cursor', async () => {
    const c = captureIO({ tty: true, columns: 30 });
    await renderList(c.io, hostileItems, { format: 'table', now: NOW, nextCursor: `cur${TITLE}`, nextCommand: 'parcels list' });
    expectInert(c.stdout());
    expectInert(c.stderr());
    expect(c.stdout().split('\n')[0]).toBe('ENTRY_ID      STATUS');
    expect(c.stderr()).toBe(
      'Not shown at 30 columns: col[2J[H, note (widen the terminal, or use -o wide or --json)\n' +
        "More results: parcels list --cursor 'cur]0;pwned'  (or --all)\n",
    );
  });

  it('TTY table with --fields naming hostile keys, and with colour on', async () => {
    const c = captureIO({ tty: true, colour: true, columns: 200 });
    await renderList(c.io, hostileItems, { format: 'table', now: NOW, fields: [`col${CLEAR}`, 'note'] });
    const out = c.stdout();
    expect(out).not.toContain('\u001b]');
    expect(out).not.toContain('\u001b[2J');
    expect(out).not.toContain('\u0007');
    expect(out).not.toContain('\u009b');
    expect(out).toContain('\u001b[1mCOL[2J[H\u001b[22m');
  });

  it('piped table (TSV): keys and values', async () => {
    const c = captureIO();
    await renderList(c.io, hostileItems, { format: 'table', now: NOW });
    expectInert(c.stdout().replace(/[\t\n]/g, ''));
    expect(c.stdout()).toBe(
      'entry_id\tstatus\tcol[2J[H\tnote\n' +
        'id-1]0;pwned\t2 in_transit\tv]8;;https://evil.example\\click]8;;\\\tn2J\n' +
        'id-2\t0 registered\tplain\t]0;pwned]8;;https://evil.example\\click]8;;\\[2J[H2J\n',
    );
  });

  it('key/value view of a record, on a TTY and piped', async () => {
    const record = { [`k${TITLE}`]: `v${CLEAR}`, nested: { [`x${LINK}`]: C1_CLEAR } };
    for (const tty of [true, false]) {
      const c = captureIO({ tty });
      await renderRecord(c.io, record, { format: 'table', now: NOW, title: `T${TITLE}` });
      expectInert(c.stdout().replace(/[\t\n]/g, ''));
    }
  });

  it('messages, headings and the bare id of `create --quiet`', async () => {
    const c = captureIO({ tty: true });
    await renderMessage(c.io, `Created parcel ${TITLE}abc`, 'success');
    await renderHeading(c.io, `couriers${CLEAR}`, true);
    await renderLine(c.io, `abc${LINK}`);
    expect(c.stderr()).toBe('✓ Created parcel ]0;pwnedabc\n');
    expect(c.stdout()).toBe('couriers[2J[H\nabc]8;;https://evil.example\\click]8;;\\\n');
  });

  it('human error output: message, field, details and hint', async () => {
    const c = captureIO({ tty: true });
    await renderError(
      c.io,
      { message: `bad ${TITLE}`, status: 400, code: 'x', exitCode: 6, field: `f${CLEAR}`, details: [{ field: `d${C1_CLEAR}`, message: LINK }], hint: `h${TITLE}` },
      { format: 'table' },
    );
    expectInert(c.stderr().replace(/\n/g, ''));
    expect(c.stderr()).toBe(
      'Error: f[2J[H: bad ]0;pwned\n' + '  - d2J: ]8;;https://evil.example\\click]8;;\\\n' + 'Hint: h]0;pwned\n',
    );
  });
});

describe('JSON output stays exact: control characters are escaped, never removed', () => {
  it('json and ndjson carry the values unchanged (DEL and C1, which JSON.stringify leaves raw, escaped too)', async () => {
    for (const format of ['json', 'ndjson'] as const) {
      const c = captureIO({ tty: true });
      await renderList(c.io, hostileItems, { format, now: NOW });
      const parsed = format === 'json' ? JSON.parse(c.stdout()) : c.stdout().trim().split('\n').map((l) => JSON.parse(l) as unknown);
      expect(parsed).toEqual(hostileItems);
      expectInert(c.stdout().replace(/\n/g, ''));
    }
    const r = captureIO({ tty: true });
    await renderRecord(r.io, hostileItems[0], { format: 'json', now: NOW });
    expect(r.stdout()).toBe(JSON.stringify(hostileItems[0], null, 2).replace('\u009b', '\\u009b') + '\n');
    expect(JSON.parse(r.stdout())).toEqual(hostileItems[0]);
  });

  it('a JSON error line keeps the message exact', async () => {
    const c = captureIO({ tty: true });
    await renderError(c.io, { message: `bad ${TITLE}`, status: 400, code: 'x', exitCode: 6 }, { format: 'json' });
    expect(c.stderr()).toBe(JSON.stringify({ error: { status: 400, code: 'x', message: `bad ${TITLE}`, exit_code: 6 } }) + '\n');
  });
});
