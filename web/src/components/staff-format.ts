import {
  formatDisplayDate,
  formatDisplayDateTime,
  formatNumber,
  parsePlainDate,
  type Language,
} from '../lib/format';
import type { LooseT } from './data-table/use-bundle-t';

export function parallelLabel(n: number | null | undefined, t: LooseT): string {
  if (n === null || n === undefined) return '—';
  return n === 0 ? t('staff.preschool') : t('staff.parallel', { n });
}

/** `yyyy-mm-dd` → `dd.mm.yyyy`; anything else as is. */
export function plainDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = parsePlainDate(value);
  return date ? formatDisplayDate(date) : value;
}

export function instant(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : formatDisplayDateTime(date);
}

/**
 * A number of a staff table in the interface language, «—» where there is none: one source for the
 * report screens and the ugnik's tables (issue 23, item 6: the same formats everywhere).
 */
export function num(value: number | null | undefined, lang: Language, digits?: number): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '—';
  return formatNumber(value, lang, digits);
}

/** A percent of 0–100: `72,5 %`. */
export function percent(value: number | null | undefined, lang: Language): string {
  if (value === null || value === undefined) return '—';
  return `${formatNumber(value, lang)}\u00a0%`;
}

/** A person's name as every staff table and file writes it: surname, name, patronymic. */
export function fullName(p: { surname: string | null; name: string | null; patronymic: string | null }) {
  return [p.surname, p.name, p.patronymic].filter(Boolean).join(' ');
}

export const GRADES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] as const;

/** Badge colours of participant-test statuses (the staff lists and the admin's). */
export const PARTICIPANT_STATUS_COLOR: Record<string, string> = {
  planned: 'gray',
  active: 'cyan',
  in_progress: 'blue',
  finished: 'teal',
  scored: 'green',
  published: 'green',
  absent: 'orange',
  annulled: 'red',
};

const numberOf = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * A finished queue item's result as a sentence in the reader's language, from the fields each job
 * reports (planning, scoring, regrade, report file, content import); never the raw object.
 */
export function queueResultText(result: Record<string, unknown> | null, t: LooseT): string | null {
  if (!result) return null;
  const has = (...keys: string[]) => keys.every((k) => k in result);
  if (has('created', 'existing'))
    return t('staff.queueResult.planning', {
      created: numberOf(result.created),
      existing: numberOf(result.existing),
      schools: Array.isArray(result.schools) ? result.schools.length : numberOf(result.schools),
    });
  if (has('works', 'scored'))
    return t('staff.queueResult.scoring', {
      works: numberOf(result.works),
      scored: numberOf(result.scored),
      awaitingExperts: numberOf(result.awaitingExperts),
      failed: numberOf(result.failed),
    });
  if (has('works', 'changed'))
    return t('staff.queueResult.regrade', {
      works: numberOf(result.works),
      changed: numberOf(result.changed),
    });
  if (has('rows')) return t('staff.queueResult.report', { rows: numberOf(result.rows) });
  if (Array.isArray(result.items)) {
    const items = result.items as { outcome?: unknown }[];
    const count = (outcome: string) => items.filter((i) => i.outcome === outcome).length;
    return t('staff.queueResult.import', {
      imported: count('imported'),
      converted: count('converted'),
      refused: count('refused'),
    });
  }
  return t('staff.queueResult.done');
}

/** A job's progress note: the known step words translated, a server sentence as it is. */
export function queueProgressText(text: string | null, t: LooseT, lang = 'ru'): string | null {
  if (!text) return null;
  // A report job's `rows:<done>:<total>`: numbers in the reader's format.
  const rows = /^rows:(\d+):(\d+)$/.exec(text);
  if (rows) {
    const language = lang === 'en' ? 'en' : 'ru';
    return t('staff.queueResult.progress.rows', {
      done: formatNumber(Number(rows[1]), language),
      total: formatNumber(Number(rows[2]), language),
    });
  }
  return /^[a-z_]+$/.test(text) ? t(`staff.queueResult.progress.${text}`, { defaultValue: text }) : text;
}
