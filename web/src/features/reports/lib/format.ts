/** Numbers of the report screens in the interface language: "—" where there is no value. */
import { num, percent } from '../../../components/staff-format';
import type { Language } from '../../../lib/format';

export const DASH = '—';

// The numbers and percents of every staff table come from one place (the ugnik's tables use them too).
export { num, percent };

/** A share of 0–1 with two decimals: `0,72`. */
export function share(value: number | null | undefined, lang: Language): string {
  return num(value, lang, 2);
}

/** Background of a mastery cell: red (0 %) through yellow to green (100 %). */
export function heatColor(value: number | null): string | undefined {
  if (value === null) return undefined;
  const hue = Math.round(Math.max(0, Math.min(100, value)) * 1.2);
  return `hsl(${hue} 70% 84%)`;
}

/** Colours of marks in the charts: a 2 red, a 5 green; other marks of a scale grey. */
export const MARK_COLORS: Record<string, string> = {
  '2': 'red.6',
  '3': 'orange.5',
  '4': 'lime.6',
  '5': 'teal.7',
};
export const markColor = (mark: string) => MARK_COLORS[mark] ?? 'gray.5';
/** The mark's colour for text: the theme's text shade of it, which reads at 4.5:1 (bars need only 3:1). */
export const markTextColor = (mark: string) => `var(--mantine-color-${markColor(mark).split('.')[0]}-text)`;
