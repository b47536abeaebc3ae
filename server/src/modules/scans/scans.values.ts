import type { AnswerType } from '@attesta/contract';
import { htmlToText } from '../../lib/sanitize.js';
import { oneMarkGroups } from './recognize.js';

/*
 * Layout values (the marked bubbles of a task, docs/paper-forms.md) → the answer value of the
 * task's answer type, as a participant's save or a keyed form sends it (exam-test answer-value.ts
 * checks it again on the save path), and the label the sheet prints inside each bubble.
 */

export type Converted = { ok: true; value: unknown } | { ok: false; problem: string };

const DIGIT = /^(\d+):(\d)$/;
const headOf = (v: string) => v.slice(0, v.lastIndexOf(':'));
const tailOf = (v: string) => v.slice(v.lastIndexOf(':') + 1);

/** Digits by column, the sign and the comma of a digit grid: "-12,5". */
function gridNumber(values: string[], withSignAndComma: boolean): string {
  const digits = values
    .map((v) => DIGIT.exec(v))
    .filter((m) => m !== null)
    .map((m) => ({ column: Number(m[1]), digit: m[2]! }))
    .sort((a, b) => a.column - b.column);
  if (!withSignAndComma) return digits.map((d) => d.digit).join('');
  const comma = values.find((v) => v.startsWith('comma:'));
  const after = comma ? Number(tailOf(comma)) : Infinity;
  const whole = digits
    .filter((d) => d.column <= after)
    .map((d) => d.digit)
    .join('');
  const fraction = digits
    .filter((d) => d.column > after)
    .map((d) => d.digit)
    .join('');
  if (!whole && !fraction) return '';
  const sign = values.includes('sign:-') ? '-' : '';
  return `${sign}${whole || '0'}${fraction ? `,${fraction}` : ''}`;
}

/**
 * The answer value the marked bubbles `values` make for a task of `type`. `stored` is the task's
 * answer now: a cloze keeps its typed gaps (they come from text boxes, not bubbles). A broken
 * one-mark rule (two options of a single choice, two digits in a column) is no value.
 */
export function answerValueOf(type: AnswerType, values: string[], stored?: unknown): Converted {
  const chosen = new Set(values);
  if (oneMarkGroups(type, values).some((group) => group.filter((v) => chosen.has(v)).length > 1))
    return { ok: false, problem: 'two marks where the task takes one' };
  switch (type) {
    case 'single_choice':
      return { ok: true, value: values[0] ?? '' };
    case 'multiple_choice':
      return { ok: true, value: [...values] };
    case 'number':
      return { ok: true, value: gridNumber(values, true) };
    case 'digit_sequence':
      return { ok: true, value: gridNumber(values, false) };
    case 'ordering':
      return {
        ok: true,
        value: [...values].sort((a, b) => Number(tailOf(a)) - Number(tailOf(b))).map(headOf),
      };
    case 'matching':
      return { ok: true, value: Object.fromEntries(values.map((v) => [headOf(v), tailOf(v)])) };
    case 'cloze': {
      const kept =
        stored && typeof stored === 'object' && !Array.isArray(stored)
          ? (stored as Record<string, string>)
          : {};
      return {
        ok: true,
        value: { ...kept, ...Object.fromEntries(values.map((v) => [headOf(v), tailOf(v)])) },
      };
    }
    default:
      return { ok: false, problem: 'this task has no bubbles' };
  }
}

/** The answer value of text typed from a text box: a short text, or one gap of a cloze. */
export function keyedValueOf(
  type: AnswerType,
  text: string,
  part: string | null,
  stored?: unknown,
): Converted {
  if (type === 'short_text' && part === null) return { ok: true, value: text };
  if (type === 'cloze' && part !== null) {
    const kept =
      stored && typeof stored === 'object' && !Array.isArray(stored)
        ? (stored as Record<string, string>)
        : {};
    return { ok: true, value: { ...kept, [part]: text } };
  }
  return { ok: false, problem: 'this text box takes no typed answer' };
}

const LETTERS = 'АБВГДЕЖИКЛМНОПРСТУФХЦЧШЩЭЮ';
const letterOf = (i: number) => LETTERS[i] ?? String(i + 1);

const indexIn = (list: unknown, id: string) =>
  Array.isArray(list) ? list.findIndex((x) => String((x as { id?: unknown }).id) === id) : -1;

/** What the sheet prints in the bubble of `value` (blanks.pdf.ts): «Б», «3», «А–2», «−», «,». */
export function bubbleLabel(type: AnswerType, content: Record<string, unknown>, value: string): string {
  if (value === 'sign:-') return '−';
  if (value.startsWith('comma:')) return ',';
  const digit = DIGIT.exec(value);
  if ((type === 'number' || type === 'digit_sequence') && digit) return digit[2]!;
  const head = headOf(value);
  const tail = tailOf(value);
  switch (type) {
    case 'single_choice':
    case 'multiple_choice':
      return letterOf(indexIn(content.options, value));
    case 'ordering':
      return `${indexIn(content.items, head) + 1}–${tail}`;
    case 'matching':
      return `${letterOf(indexIn(content.left, head))}–${indexIn(content.right, tail) + 1}`;
    case 'cloze': {
      const blanks = Array.isArray(content.blanks)
        ? (content.blanks as { id: string; options?: unknown }[])
        : [];
      const gap = blanks.findIndex((b) => b.id === head);
      return `${gap + 1}–${letterOf(indexIn(blanks[gap]?.options, tail))}`;
    }
    default:
      return value;
  }
}

export interface GridLegend {
  rows: { label: string; text: string }[];
  columns: { label: string; text: string }[];
}

/** Plain text of an item's html, on one line and shortened as the form prints it (blanks.pdf.ts plain). */
function plainOf(html: unknown, max = 160): string {
  const text = htmlToText(typeof html === 'string' ? html : '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const listOf = (list: unknown): { html?: unknown }[] =>
  Array.isArray(list) ? (list as { html?: unknown }[]) : [];

/**
 * What a grid's rows and columns are, as the form lists them above the grid (blanks.pdf.ts legend):
 * matching — rows the left items by letter, columns the right items by number; ordering — rows the
 * items by number, columns the positions 1…n. Null for other types (their crop shows their texts).
 */
export function gridLegendOf(
  type: string | null,
  content: Record<string, unknown> | null,
): GridLegend | null {
  if (!content) return null;
  if (type === 'matching')
    return {
      rows: listOf(content.left).map((l, i) => ({ label: letterOf(i), text: plainOf(l.html) })),
      columns: listOf(content.right).map((r, i) => ({ label: String(i + 1), text: plainOf(r.html) })),
    };
  if (type === 'ordering') {
    const items = listOf(content.items);
    return {
      rows: items.map((item, i) => ({ label: String(i + 1), text: plainOf(item.html) })),
      columns: items.map((_, i) => ({ label: String(i + 1), text: '' })),
    };
  }
  return null;
}
