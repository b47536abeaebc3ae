import { formatDisplayDate, formatDisplayDateTime, parsePlainDate } from '../lib/format';
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
