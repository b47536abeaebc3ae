/** Rubric scores as typed by the expert: parsing ("1,5" or "1.5"), checks and the total. */
import type { ExpertCriterion, ExpertMark } from '@attesta/contract';

export type ScoreError = 'required' | 'range' | 'step';

export function parseScore(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return null;
  return Number(trimmed);
}

/** `step`: the criterion's grain (1 whole points, 0.5 half points). */
export function scoreError(text: string, max: number, step = 1): ScoreError | null {
  if (text.trim() === '') return 'required';
  const value = parseScore(text);
  if (value === null || value < 0 || value > max) return 'range';
  if (Math.abs(value / step - Math.round(value / step)) > 1e-9) return 'step';
  return null;
}

/** The marks body, or null while any criterion is missing or invalid. */
export function marksOf(
  criteria: readonly ExpertCriterion[],
  scores: Record<string, string>,
): ExpertMark[] | null {
  if (criteria.some((c) => scoreError(scores[c.code] ?? '', c.maxScore, c.step))) return null;
  return criteria.map((c) => ({ criterionCode: c.code, score: parseScore(scores[c.code] ?? '')! }));
}

/** Sum of the valid scores typed so far. */
export function totalOf(criteria: readonly ExpertCriterion[], scores: Record<string, string>): number {
  return criteria.reduce((sum, c) => {
    const value = parseScore(scores[c.code] ?? '');
    return value !== null && value <= c.maxScore ? sum + value : sum;
  }, 0);
}

/** Every score a criterion allows (0, step, 2·step … max) when few enough for a button each; else null. */
export function scoreOptions(max: number, step = 1, most = 11): number[] | null {
  if (!(step > 0) || !(max >= 0)) return null;
  const count = Math.floor(max / step + 1e-9) + 1;
  if (count > most) return null;
  return Array.from({ length: count }, (_, i) => Math.round(i * step * 1000) / 1000);
}
