/**
 * Start-up cost: printing JSON (or piped TSV) must never load string-width or ora; a TTY table
 * loads string-width only, and only then.
 */
import { describe, expect, it, vi } from 'vitest';
import { captureIO } from '../helpers/io.js';

const loaded = vi.hoisted(() => ({ table: 0, ora: 0 }));

vi.mock('string-width', async (importOriginal) => {
  loaded.table++;
  return importOriginal();
});
vi.mock('ora', async (importOriginal) => {
  loaded.ora++;
  return importOriginal();
});

describe('lazy loading', () => {
  it('json, ndjson, csv and TSV output load neither string-width nor ora', async () => {
    const { renderList, renderRecord, renderError } = await import('../../src/io/render.js');
    const { startSpinner } = await import('../../src/io/spinner.js');
    const c = captureIO();
    await renderRecord(c.io, { entry_id: 'x' }, { format: 'json', now: 0 });
    await renderList(c.io, [{ entry_id: 'x' }], { format: 'ndjson', now: 0 });
    await renderList(c.io, [{ entry_id: 'x' }], { format: 'csv', now: 0 });
    await renderList(c.io, [{ entry_id: 'x' }], { format: 'table', now: 0 });
    await renderError(c.io, { message: 'x', code: 'x', exitCode: 1 }, { format: 'table' });
    (await startSpinner(c.io, 'x')).stop();
    const t = captureIO({ tty: true });
    await renderRecord(t.io, { entry_id: 'x' }, { format: 'table', now: 0 });
    expect(loaded).toEqual({ table: 0, ora: 0 });

    await renderList(t.io, [{ entry_id: 'x' }], { format: 'table', now: 0 });
    expect(loaded.table).toBe(1);
    (await startSpinner(t.io, 'x')).stop();
    expect(loaded.ora).toBe(1);
  });
});
