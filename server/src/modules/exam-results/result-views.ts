import { percent } from '../scoring/index.js';
import type { LoadedResult } from './results.read.js';
import { toExamResult } from './results.read.js';

/*
 * Other shapes of one result: the pre-professional exam's two parts, the preschool diagnostic's
 * qualitative levels, and the machine-readable JSON for integrations.
 */

/**
 * Theory and practice parts of a pre-professional exam. Rule: when any task of the variant says
 * `content.part` = 'theory' | 'practice', that decides (tasks without it count as theory); otherwise
 * the first half of the positions (rounded up) is theory and the rest practice.
 */
export function preprofView(loaded: LoadedResult) {
  const partOf = (t: LoadedResult['tasks'][number]) => t.content?.part;
  const byContent = loaded.tasks.some((t) => partOf(t) === 'theory' || partOf(t) === 'practice');
  const half = Math.ceil(loaded.tasks.length / 2);
  const isPractice = (t: LoadedResult['tasks'][number], i: number) =>
    byContent ? partOf(t) === 'practice' : i >= half;
  const part = (practice: boolean) => {
    const list = loaded.tasks.filter((t, i) => isPractice(t, i) === practice);
    const score = list.reduce((s, t) => s + (t.score ?? 0), 0);
    const maxScore = list.reduce((s, t) => s + t.maxScore, 0);
    return {
      score: Math.round(score * 100) / 100,
      maxScore: Math.round(maxScore * 100) / 100,
      percent: percent(score, maxScore),
      positions: list.map((t) => t.position),
    };
  };
  return {
    result: toExamResult(loaded),
    rule: byContent ? ('content_part' as const) : ('position_halves' as const),
    theory: part(false),
    practice: part(true),
  };
}

/** Preschool bands: the share of points reached, in words — never the points themselves. */
export function levelOfPercent(p: number): string {
  if (p >= 80) return 'высокий';
  if (p >= 50) return 'средний';
  return 'низкий';
}

export function preschoolView(loaded: LoadedResult) {
  const r = loaded.row;
  const awaiting = r.status !== 'scored';
  return {
    participantTestId: loaded.pt.id,
    subjectTestName: loaded.pt.subjectTestName,
    status: r.status as 'awaiting_experts' | 'scored',
    // The subject test's scale names the level when it has one; else the band of the percent.
    level: awaiting ? null : (r.level ?? levelOfPercent(r.percent)),
    elements: Object.entries(r.perElement ?? {}).map(([code, e]) => ({
      code,
      name: e.name,
      level: levelOfPercent(percent(e.score, e.max)),
    })),
    tasks: loaded.tasks.map((t) => ({
      position: t.position,
      level: t.score === null ? null : levelOfPercent(percent(t.score, t.maxScore)),
    })),
    published: loaded.pt.published,
  };
}

export function resultJsonView(loaded: LoadedResult) {
  const base = toExamResult(loaded);
  const pt = loaded.pt;
  return {
    participantTestId: pt.id,
    registrationCode: pt.registrationCode,
    studentId: pt.studentId,
    schoolId: pt.schoolId,
    diagnostic: { id: pt.diagnosticId, code: pt.diagnosticCode, name: pt.diagnosticName },
    subjectTest: { id: pt.subjectTestId, name: pt.subjectTestName },
    status: base.status,
    published: base.published,
    primaryScore: base.primaryScore,
    maxScore: base.maxScore,
    percent: base.percent,
    mark: base.mark,
    level: base.level,
    scaled: base.scaled ?? null,
    tasks: base.tasks,
    elements: base.elements,
    verificationCode: base.verificationCode,
    computedAt: base.computedAt,
  };
}
