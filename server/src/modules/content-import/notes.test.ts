import { describe, expect, it } from 'vitest';
import { IMPORT_NOTE_CODES, IMPORT_NOTE_PARAMS, type ImportNoteCode } from '@attesta/contract';
import { note, noteCode, recheckNote, uniqueNotes } from './notes.js';

const make = note as (
  code: ImportNoteCode,
  params?: Record<string, string | number>,
) => ReturnType<typeof note>;
/** Params the English text does not show as written (a mapped phrase). */
const NOT_IN_TEXT = new Set<string>([]);

describe('import notes', () => {
  it('every code has an English text showing each of its params', () => {
    for (const code of IMPORT_NOTE_CODES) {
      const names = IMPORT_NOTE_PARAMS[code] as readonly string[];
      const params = Object.fromEntries(names.map((n) => [n, `‹${n}›`]));
      const n = make(code, params);
      expect(n.code).toBe(code);
      expect(n.text.trim(), code).not.toBe('');
      expect(n.text, code).not.toMatch(/undefined|\[object/);
      for (const name of names)
        if (
          !NOT_IN_TEXT.has(`${code}.${name}`) &&
          !(code === 'qti_rp_variable_attribute' && name === 'attribute')
        )
          expect(n.text, `${code} {${name}}`).toContain(`‹${name}›`);
    }
  });

  it('a note is its code, its params and the text made of them', () => {
    expect(note('media_missing', { ref: 'img/a.png' })).toEqual({
      code: 'media_missing',
      params: { ref: 'img/a.png' },
      text: 'media left out: img/a.png: not found in the package',
    });
    expect(note('feedback_dropped')).toEqual({
      code: 'feedback_dropped',
      text: 'feedback to participants dropped (Attesta shows no answer feedback)',
    });
    expect(noteCode(note('cloze_gap_no_marks', { gap: 2 }))).toEqual({
      code: 'cloze_gap_no_marks',
      params: { gap: 2 },
    });
    expect(noteCode(note('hints_dropped'))).toEqual({ code: 'hints_dropped' });
  });

  it('a note from a parser is written again from its code: params cleaned, unknown ones dropped, text remade', () => {
    const clean = (s: string) => s.trim().slice(0, 10);
    expect(
      recheckNote(
        { code: 'duplicate_name', params: { name: '  a very long name  ', extra: 'x' }, text: 'lies' },
        clean,
      ),
    ).toEqual({
      code: 'duplicate_name',
      params: { name: 'a very lon' },
      text: 'another question of the file has the same name: identified as "a very lon"',
    });
    expect(recheckNote({ code: 'gaps_too_many', params: { count: Infinity } }, clean)).toEqual({
      code: 'gaps_too_many',
      params: {},
      text: 'the question has  gaps: a task may have at most 50',
    });
    expect(recheckNote('free text', clean)).toEqual({
      code: 'unclassified',
      params: { text: 'free text' },
      text: 'free text',
    });
    expect(recheckNote({ code: 'from_the_future', text: 'new note' }, clean)).toMatchObject({
      code: 'unclassified',
      text: 'new note',
    });
    expect(recheckNote('   ', clean)).toBeNull();
    expect(recheckNote(42, clean)).toBeNull();
  });

  it('repeats are dropped by their text', () => {
    expect(
      uniqueNotes([note('feedback_dropped'), note('hints_dropped'), note('feedback_dropped')]).map(
        (n) => n.code,
      ),
    ).toEqual(['feedback_dropped', 'hints_dropped']);
  });
});
