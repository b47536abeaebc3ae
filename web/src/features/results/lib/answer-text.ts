/**
 * Answers and reference answers as lines a person reads: option texts instead of ids, "left → right"
 * pairs, gaps with their values. Works on unknown JSON (the shapes of TASK_SCHEMAS), never throws.
 */
import { htmlToText } from '../../../components/answers/rich-html';
import type { LooseT } from '../../../components/data-table/use-bundle-t';

type Content = Record<string, unknown>;
interface Labelled {
  id: string;
  html: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function labelled(content: Content, key: string): Labelled[] {
  const list = content[key];
  return Array.isArray(list)
    ? list.filter((x): x is Labelled => isRecord(x) && typeof x.id === 'string' && typeof x.html === 'string')
    : [];
}

function labelOf(items: Labelled[], id: unknown): string {
  const item = items.find((x) => x.id === id);
  return item ? htmlToText(item.html) : String(id);
}

function blankLabel(content: Content, blankId: string, value: string): string {
  const blanks = Array.isArray(content.blanks) ? content.blanks : [];
  const blank = blanks.find((b) => isRecord(b) && b.id === blankId);
  if (isRecord(blank) && blank.kind === 'choice' && Array.isArray(blank.options)) {
    const option = blank.options.find((o) => isRecord(o) && o.id === value);
    if (isRecord(option) && typeof option.text === 'string') return option.text;
  }
  return value;
}

function blankOrder(content: Content, ids: string[]): string[] {
  const blanks = Array.isArray(content.blanks) ? content.blanks : [];
  const ordered = blanks.flatMap((b) => (isRecord(b) && typeof b.id === 'string' ? [b.id] : []));
  return [...ordered.filter((id) => ids.includes(id)), ...ids.filter((id) => !ordered.includes(id))];
}

/** The participant's answer, one line per part; [] when nothing was answered. */
export function answerLines(type: string, content: Content, value: unknown): string[] {
  if (value === null || value === undefined) return [];
  switch (type) {
    case 'single_choice':
      return typeof value === 'string' && value ? [labelOf(labelled(content, 'options'), value)] : [];
    case 'multiple_choice':
      return Array.isArray(value) ? value.map((id) => labelOf(labelled(content, 'options'), id)) : [];
    case 'ordering':
      return Array.isArray(value)
        ? value.map((id, i) => `${i + 1}. ${labelOf(labelled(content, 'items'), id)}`)
        : [];
    case 'matching': {
      if (!isRecord(value)) return [];
      const left = labelled(content, 'left');
      const right = labelled(content, 'right');
      const ids = [...left.map((l) => l.id).filter((id) => id in value), ...Object.keys(value)];
      return [...new Set(ids)].map((id) => `${labelOf(left, id)} → ${labelOf(right, value[id])}`);
    }
    case 'cloze': {
      if (!isRecord(value)) return [];
      return blankOrder(content, Object.keys(value))
        .filter((id) => typeof value[id] === 'string' && (value[id] as string).trim() !== '')
        .map((id) => `${id}: ${blankLabel(content, id, value[id] as string)}`);
    }
    case 'file':
      return [];
    default:
      return typeof value === 'string' && value.trim() !== '' ? [value] : [];
  }
}

/** The reference answer of an auto-scored task; [] for expert-graded tasks (no key). */
export function referenceLines(type: string, content: Content, reference: unknown, t: LooseT): string[] {
  if (!isRecord(reference)) return [];
  switch (type) {
    case 'single_choice':
      return reference.correct !== undefined
        ? [labelOf(labelled(content, 'options'), reference.correct)]
        : [];
    case 'multiple_choice':
      return Array.isArray(reference.correct)
        ? reference.correct.map((id) => labelOf(labelled(content, 'options'), id))
        : [];
    case 'short_text':
      return Array.isArray(reference.accepted) ? [reference.accepted.map(String).join(' / ')] : [];
    case 'number':
      if (typeof reference.value === 'number') {
        const tolerance = typeof reference.tolerance === 'number' ? reference.tolerance : 0;
        return [
          tolerance
            ? t('results.answer.tolerance', { value: reference.value, tolerance })
            : String(reference.value),
        ];
      }
      return typeof reference.min === 'number'
        ? [t('results.answer.range', { min: reference.min, max: reference.max })]
        : [];
    case 'digit_sequence':
      return typeof reference.digits === 'string' ? [reference.digits] : [];
    case 'ordering':
      return Array.isArray(reference.order) ? answerLines(type, content, reference.order) : [];
    case 'matching':
      return isRecord(reference.pairs) ? answerLines(type, content, reference.pairs) : [];
    case 'cloze': {
      if (!isRecord(reference.blanks)) return [];
      const blanks = reference.blanks;
      return blankOrder(content, Object.keys(blanks)).map((id) => {
        const accepted = Array.isArray(blanks[id]) ? (blanks[id] as unknown[]).map(String) : [];
        return `${id}: ${accepted.map((v) => blankLabel(content, id, v)).join(' / ')}`;
      });
    }
    default:
      return [];
  }
}

/** Ids of the files attached to an answer (file answers keep them in the value too). */
export function answerFileIds(value: unknown, fileIds: readonly number[] = []): number[] {
  const inValue =
    isRecord(value) && Array.isArray(value.fileIds)
      ? value.fileIds.filter((x): x is number => typeof x === 'number')
      : [];
  return [...new Set([...fileIds, ...inValue])];
}
