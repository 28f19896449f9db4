/** What completion may say beside a parcel id: checked status and postcode only. */
import { describe, expect, it } from 'vitest';
import { noteOf, noteText, readNote } from '../../src/schemas/parcel-note.js';

const ID = '0b0c6a52-8f1e-4c3d-9a7b-2e5f6d4c3b21';

describe('parcel notes', () => {
  it('keeps a status code of the spec and a postcode of letters and digits; says them by name', () => {
    const note = noteOf(ID, { entry_id: ID, status: 2, postal_code: '1234AB', addition: 'x' });
    expect(note).toEqual([ID, 2, '1234AB']);
    expect(noteText(note)).toBe('in_transit 1234AB');
  });

  it("leaves out what a service could make say anything: free text, codes out of range, escapes", () => {
    expect(noteOf(ID, { status: 9, postal_code: '1234 AB; rm -rf ~' })).toEqual([ID, null, null]);
    expect(noteOf(ID, { status: '2', postal_code: '\u001b]0;pwned\u0007' })).toEqual([ID, null, null]);
    expect(noteText([ID, null, null])).toBeUndefined();
    expect(noteOf(ID, 'not a parcel')).toEqual([ID, null, null]);
  });

  it('reads the file back, both forms, checked again', () => {
    expect(readNote(ID)).toEqual([ID, null, null]);
    expect(readNote([ID, 4, '1234AB'])).toEqual([ID, 4, '1234AB']);
    expect(readNote([ID, 99, 'a b'])).toEqual([ID, null, null]);
    expect(readNote({ id: ID })).toBeUndefined();
  });
});
