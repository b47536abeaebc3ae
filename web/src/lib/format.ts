/**
 * Locale formats of spec §3/§9: Russian by default, English available. Number formats come from
 * Intl but their separators are normalised, because browsers ship different ICU versions and the
 * spec fixes the exact characters (comma decimals, a no-break space between digit groups).
 */

export type Language = 'ru' | 'en';

/** U+00A0: groups of digits and the ruble sign never wrap onto another line. */
export const GROUP_SEPARATOR = '\u00a0';
export const RUBLE_SIGN = '₽';

const INTL_LOCALE: Record<Language, string> = { ru: 'ru-RU', en: 'en-GB' };

function normaliseRu(parts: Intl.NumberFormatPart[]): string {
  return parts
    .map((part) => {
      if (part.type === 'group' || part.type === 'literal') return GROUP_SEPARATOR;
      if (part.type === 'decimal') return ',';
      // Some ICU versions write U+2212 MINUS SIGN; keep the ASCII hyphen that users type and tests expect.
      if (part.type === 'minusSign') return '-';
      return part.value;
    })
    .join('');
}

export function formatNumber(value: number, lang: Language = 'ru', fractionDigits?: number): string {
  const format = new Intl.NumberFormat(INTL_LOCALE[lang], {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits ?? 3,
  });
  return lang === 'ru' ? normaliseRu(format.formatToParts(value)) : format.format(value);
}

/** `1 234 567,50 ₽` in Russian, `₽1,234,567.50` in English. */
export function formatMoney(value: number, lang: Language = 'ru'): string {
  if (lang === 'ru') {
    const digits = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return `${normaliseRu(digits.formatToParts(value))}${GROUP_SEPARATOR}${RUBLE_SIGN}`;
  }
  return new Intl.NumberFormat(INTL_LOCALE.en, {
    style: 'currency',
    currency: 'RUB',
    currencyDisplay: 'narrowSymbol',
  }).format(value);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Short date `dd.MM.yy` (local time). */
export function formatShortDate(date: Date): string {
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${pad(date.getFullYear() % 100)}`;
}

/** Display date `dd.mm.yyyy` (local time). */
export function formatDisplayDate(date: Date): string {
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${pad(date.getFullYear(), 4)}`;
}

/** Display date and time `dd.mm.yyyy HH:mm` (local time). */
export function formatDisplayDateTime(date: Date): string {
  return `${formatDisplayDate(date)} ${formatTime(date)}`;
}

export function formatTime(date: Date): string {
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Plain calendar date `yyyy-mm-dd` (local calendar day, as the API expects calendar dates). */
export function formatPlainDate(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** ISO local date-time without a zone: `yyyy-mm-ddTHH:mm:ss`. */
export function formatIsoLocal(date: Date): string {
  return `${formatPlainDate(date)}T${formatTime(date)}:${pad(date.getSeconds())}`;
}

/** `yyyy-mm-dd` → local midnight of that day; anything else → null. */
export function parsePlainDate(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  return date.getMonth() === month - 1 && date.getDate() === day ? date : null;
}

/**
 * Session time arrives as an ISO string. With a zone (`Z`, `+03:00`) it is an instant; without one
 * the ECMAScript rule already reads a date-time as local time. Invalid input gives null.
 */
export function parseSessionTime(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value.trim()))
    return null;
  const date = new Date(value.trim());
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Whole minutes and seconds: `2 мин 5 с` / `2 min 5 s`; abbreviations avoid Russian plural forms. */
export function formatDuration(totalSeconds: number, lang: Language = 'ru'): string {
  const seconds = Math.max(0, Math.ceil(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const units = lang === 'ru' ? { h: 'ч', m: 'мин', s: 'с' } : { h: 'h', m: 'min', s: 's' };
  const out: string[] = [];
  if (h) out.push(`${h}${GROUP_SEPARATOR}${units.h}`);
  if (m) out.push(`${m}${GROUP_SEPARATOR}${units.m}`);
  if (s || out.length === 0) out.push(`${s}${GROUP_SEPARATOR}${units.s}`);
  return out.join(' ');
}
