/**
 * Answers and reference answers as lines a person reads: option texts instead of ids, "left → right"
 * pairs, gaps with their values, areas and points of a picture, the parts of a composite task.
 * Works on unknown JSON (the shapes of TASK_SCHEMAS), never throws.
 */
import { htmlLabel } from '../../../components/answers/rich-html';
import type { LooseT } from '../../../components/data-table/use-bundle-t';
import { formatNumber, type Language } from '../../../lib/format';

const PLAIN_NUMBER = /^(-?)(\d+)(?:[.,](\d+))?$/;

/**
 * A number as the reader's language writes it (`2,5` in Russian, `2.5` in English), keeping every
 * digit the participant or the key gave (`2.50` stays `2,50`); text that is no plain number as is.
 */
export function numberText(raw: unknown, lang: Language = 'ru'): string {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw : '';
  const match = PLAIN_NUMBER.exec(text.replace(/[\s\u00a0]/g, ''));
  if (!match || (match[3]?.length ?? 0) > 15) return typeof raw === 'number' ? formatNumber(raw, lang) : text;
  const value = Number(`${match[1]}${match[2]}.${match[3] ?? '0'}`);
  return Number.isFinite(value) ? formatNumber(value, lang, match[3]?.length ?? 0) : text;
}

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
  return item ? htmlLabel(item.html, String(id)) : String(id);
}

/** Ids of a content list (gaps, areas, parts) in display order. */
function idsOf(content: Content, key: string): string[] {
  const list = content[key];
  return Array.isArray(list)
    ? list.flatMap((x) => (isRecord(x) && typeof x.id === 'string' ? [x.id] : []))
    : [];
}

/** Labels of numbered places: «Пропуск 2», «Область 1», «Часть 3» (bare numbers without a `t`). */
const numbered = (t: LooseT | undefined, key: string, n: number) => (t ? t(key, { n }) : String(n));

const POINT = /^(-?\d+) (-?\d+)$/;

function hotspotLabel(content: Content, raw: unknown, t: LooseT | undefined): string {
  const text = String(raw);
  const point = POINT.exec(text);
  if (point)
    return t ? t('results.answer.point', { x: point[1], y: point[2] }) : `(${point[1]}; ${point[2]})`;
  const index = idsOf(content, 'areas').indexOf(text);
  return index < 0 ? text : numbered(t, 'results.answer.area', index + 1);
}

interface Part {
  id: string;
  answerType: string;
  content: Content;
}
function partsOf(content: Content): Part[] {
  const list = Array.isArray(content.parts) ? content.parts : [];
  return list.flatMap((p) =>
    isRecord(p) && typeof p.id === 'string' && typeof p.answerType === 'string'
      ? [{ id: p.id, answerType: p.answerType, content: isRecord(p.content) ? p.content : {} }]
      : [],
  );
}

/** «Часть 2: …» for each part that has lines, in the order of the parts. */
function partLines(
  content: Content,
  values: Record<string, unknown>,
  lines: (part: Part, value: unknown) => string[],
  t: LooseT | undefined,
): string[] {
  return partsOf(content).flatMap((part, i) => {
    if (!(part.id in values)) return [];
    const text = lines(part, values[part.id]);
    return text.length ? [`${numbered(t, 'results.answer.part', i + 1)}: ${text.join('; ')}`] : [];
  });
}

/** What a gap holds, as read: a drop-down's option text, a number gap's number in the reader's format. */
export function blankLabel(content: Content, blankId: string, value: string, lang?: Language): string {
  const blanks = Array.isArray(content.blanks) ? content.blanks : [];
  const blank = blanks.find((b) => isRecord(b) && b.id === blankId);
  if (isRecord(blank) && blank.kind === 'choice' && Array.isArray(blank.options)) {
    const option = blank.options.find((o) => isRecord(o) && o.id === value);
    if (isRecord(option) && typeof option.text === 'string') return option.text;
  }
  if (isRecord(blank) && blank.kind === 'number' && lang) return numberText(value, lang);
  return value;
}

function blankOrder(content: Content, ids: string[]): string[] {
  const blanks = Array.isArray(content.blanks) ? content.blanks : [];
  const ordered = blanks.flatMap((b) => (isRecord(b) && typeof b.id === 'string' ? [b.id] : []));
  return [...ordered.filter((id) => ids.includes(id)), ...ids.filter((id) => !ordered.includes(id))];
}

/** The participant's answer, one line per part; [] when nothing was answered. */
export function answerLines(
  type: string,
  content: Content,
  value: unknown,
  t?: LooseT,
  lang?: Language,
): string[] {
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
        .map((id) => `${id}: ${blankLabel(content, id, value[id] as string, lang)}`);
    }
    case 'gap_match': {
      if (!isRecord(value)) return [];
      const gaps = idsOf(content, 'gaps');
      const words = labelled(content, 'words');
      const ids = [
        ...gaps.filter((id) => id in value),
        ...Object.keys(value).filter((id) => !gaps.includes(id)),
      ];
      return ids.map((id) => {
        const n = gaps.indexOf(id);
        return `${n < 0 ? id : numbered(t, 'results.answer.gap', n + 1)}: ${labelOf(words, value[id])}`;
      });
    }
    case 'associate': {
      if (!Array.isArray(value)) return [];
      const items = labelled(content, 'items');
      return value
        .filter((pair): pair is unknown[] => Array.isArray(pair) && pair.length === 2)
        .map(([a, b]) => `${labelOf(items, a)} — ${labelOf(items, b)}`);
    }
    case 'hottext':
      return Array.isArray(value) ? value.map((id) => labelOf(labelled(content, 'choices'), id)) : [];
    case 'hotspot':
      return Array.isArray(value) ? value.map((raw) => hotspotLabel(content, raw, t)) : [];
    case 'composite':
      return isRecord(value)
        ? partLines(content, value, (part, v) => answerLines(part.answerType, part.content, v, t, lang), t)
        : [];
    case 'file':
      return [];
    case 'number':
      return typeof value === 'string' && value.trim() !== '' ? [lang ? numberText(value, lang) : value] : [];
    default:
      return typeof value === 'string' && value.trim() !== '' ? [value] : [];
  }
}

/** The reference answer of an auto-scored task; [] for expert-graded tasks (no key). */
export function referenceLines(
  type: string,
  content: Content,
  reference: unknown,
  t: LooseT,
  lang: Language = 'ru',
): string[] {
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
        const value = numberText(reference.value, lang);
        return [
          tolerance
            ? t('results.answer.tolerance', { value, tolerance: numberText(tolerance, lang) })
            : value,
        ];
      }
      return typeof reference.min === 'number'
        ? [
            t('results.answer.range', {
              min: numberText(reference.min, lang),
              max: numberText(reference.max, lang),
            }),
          ]
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
        return `${id}: ${accepted.map((v) => blankLabel(content, id, v, lang)).join(' / ')}`;
      });
    }
    case 'gap_match':
    case 'associate':
      return reference.pairs !== undefined ? answerLines(type, content, reference.pairs, t) : [];
    case 'hottext':
    case 'hotspot':
      return Array.isArray(reference.correct) ? answerLines(type, content, reference.correct, t) : [];
    case 'composite':
      return isRecord(reference.parts)
        ? partLines(
            content,
            reference.parts,
            (part, ref) => referenceLines(part.answerType, part.content, ref, t, lang),
            t,
          )
        : [];
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
