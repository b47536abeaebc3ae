/*
 * Marks from primary scores (docs/design.md §4: "Marks come from the subject test's scale"). The scale
 * is subjectTests.markScale: [{ mark, minScore, level? }], authored from the highest mark down; it
 * is sorted here anyway, so the order in storage does not matter.
 */

export interface MarkStep {
  mark: string;
  minScore: number;
  level?: string | null;
}

export interface MarkResult {
  mark: string;
  /** Level of the step («базовый», «повышенный»...), null when the scale names none. */
  level: string | null;
}

/**
 * The mark of the highest step whose minScore the score reaches (inclusive, robust to floating
 * error). Null when the scale is empty, when the score is below every step (a scale that does not
 * start at 0), or when the score is not a finite number.
 */
export function markFor(score: number, markScale: readonly MarkStep[]): MarkResult | null {
  if (typeof score !== 'number' || !Number.isFinite(score) || !Array.isArray(markScale)) return null;
  const steps = markScale
    .filter((s) => s && typeof s.minScore === 'number' && Number.isFinite(s.minScore))
    .sort((a, b) => b.minScore - a.minScore);
  const step = steps.find((s) => score + 1e-9 >= s.minScore);
  return step ? { mark: step.mark, level: step.level ?? null } : null;
}

/** Score as a percentage of max, rounded to one decimal (half up); 0 when max is not positive. */
export function percent(score: number, max: number): number {
  if (!Number.isFinite(score) || !Number.isFinite(max) || max <= 0) return 0;
  const tenths = (score * 1000) / max;
  return Math.round(tenths + (tenths >= 0 ? 1e-9 : -1e-9)) / 10;
}
