import type { ItemAnalysis, ItemAnalysisQuery } from '@attesta/contract';
import { hasRole, type AuthContext } from '../../../auth/types.js';
import { ugnikOwnsDiagnostic } from '../../../auth/ugnik.access.js';
import type { Db } from '../../../db/client.js';
import { forbidden, notFound } from '../../../lib/errors.js';
import { analyseItems, type ItemAnalysisFigures } from './analyse.js';
import { analyseDif, difResponse } from './dif.js';
import { loadGroupings } from './dif.repo.js';
import {
  countAnalysed,
  diagnosticCoversSchool,
  findDiagnostic,
  gradingOf,
  loadMatrix,
  subjectTestExists,
} from './item-analysis.repo.js';

/*
 * GET /api/reports/itemAnalysis (docs/item-analysis.md). Who: admin any diagnostic; an ugnik the
 * diagnostics of its supervision body (every school); a coordinator a diagnostic that covers
 * their school, over their school's participants only. 404 for an unknown diagnostic or subject
 * test, 403 outside the scope.
 *
 * Withheld (200 with `withheld: true`, no figures) while the figures would be provisional or
 * would tell keys early: while expert grading of the subject test in the diagnostic is unfinished
 * in any school (`awaiting_grading`), and while the diagnostic's window is open and its results
 * unpublished (`diagnostic_running`: a distractor table of a running test names its keys).
 */

const MESSAGES = {
  awaiting_grading:
    'Экспертная проверка работ по этому тесту не завершена: показатели были бы предварительными',
  diagnostic_running: 'Диагностика ещё идёт: анализ заданий будет доступен после её окончания',
} as const;

/** The caller's school filter: null = every participant; 403 outside the scope. */
async function scopeOf(db: Db, auth: AuthContext, diagnosticId: number): Promise<number | null> {
  if (hasRole(auth, 'admin')) return null;
  if (hasRole(auth, 'ugnik') && (await ugnikOwnsDiagnostic(db, auth, diagnosticId)) === true) return null;
  if (
    hasRole(auth, 'coordinator') &&
    auth.schoolId !== null &&
    (await diagnosticCoversSchool(db, diagnosticId, auth.schoolId))
  )
    return auth.schoolId;
  throw forbidden('This diagnostic is outside your scope');
}

/** Statistics to 4 decimals (logits, shares, correlations); counts and scores stay as they are. */
function rounded<T>(value: T): T {
  if (typeof value === 'number')
    return (Number.isInteger(value) ? value : Math.round(value * 1e4) / 1e4) as T;
  if (Array.isArray(value)) return value.map(rounded) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v)])) as T;
  return value;
}

/** Only the variants the analysed participants took, and the tasks of those. */
function used(f: ItemAnalysisFigures): ItemAnalysisFigures {
  const tasks = f.tasks.filter((t) => t.n > 0);
  const kept = new Set(tasks.map((t) => t.taskId));
  return {
    ...f,
    variants: f.variants.filter((v) => v.participants > 0),
    tasks,
    rasch: f.rasch && {
      ...f.rasch,
      excludedTaskIds: f.rasch.excludedTaskIds.filter((id) => kept.has(id)),
    },
  };
}

export async function itemAnalysis(
  db: Db,
  auth: AuthContext,
  query: ItemAnalysisQuery,
  now = new Date(),
): Promise<ItemAnalysis> {
  const { diagnosticId, subjectTestId } = query;
  const diagnostic = await findDiagnostic(db, diagnosticId);
  if (!diagnostic) throw notFound('No such diagnostic');
  if (!(await subjectTestExists(db, subjectTestId))) throw notFound('No such subject test');
  const schoolId = await scopeOf(db, auth, diagnosticId);

  const grading = await gradingOf(db, diagnosticId, subjectTestId);
  const reason =
    grading.awaiting > 0 || grading.unscored > 0
      ? 'awaiting_grading'
      : !diagnostic.published && diagnostic.endsAt > now
        ? 'diagnostic_running'
        : null;
  if (reason) {
    return {
      subjectTestId,
      diagnosticId,
      withheld: true,
      reason,
      message: MESSAGES[reason],
      participants: await countAnalysed(db, diagnosticId, subjectTestId, schoolId),
      alpha: null,
      variants: [],
      tasks: [],
      rasch: null,
      dif: null,
    };
  }
  const matrix = await loadMatrix(db, diagnosticId, subjectTestId, schoolId);
  const figures = used(analyseItems(matrix));
  // bias checks (dif.ts): per task the comparisons that flag it, and every comparison's counts
  const groupings = await loadGroupings(
    db,
    diagnosticId,
    subjectTestId,
    schoolId,
    matrix.workIds ?? new Float64Array(0),
  );
  const { dif, byTask } = difResponse(analyseDif(matrix, groupings));
  const tasks = figures.tasks.map((t) => ({ ...t, dif: byTask.get(t.taskId) ?? [] }));
  return { subjectTestId, diagnosticId, withheld: false, ...rounded({ ...figures, tasks, dif }) };
}
