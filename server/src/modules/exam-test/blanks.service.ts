import type { AnswerType, BlankLayout } from '@attesta/contract';
import type { ScopeRule } from '../../auth/access.js';
import { canReachParticipantTest, findExamWorkPlace } from '../../auth/shared.access.js';
import { hasRole } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../lib/errors.js';
import * as repo from './blanks.repo.js';
import { blankFormLayout, renderBlankForm, type BlankForm } from './blanks.pdf.js';

export type { BlankForm, BlankTask } from './blanks.pdf.js';

const noSuchWork = () => notFound('No such exam work');

/**
 * Scope of GET examwork/{id}/blanks: a participant only the work of the participant test their
 * session is bound to; staff the works of participant tests they can reach. An unknown or deleted
 * work answers 404 for everyone.
 */
export const examWorkBlanksScope: ScopeRule = async (req, auth) => {
  const { id } = req.params as { id: number };
  const place = await findExamWorkPlace(req.server.ctx.db, id, { live: true });
  if (!place) throw noSuchWork();
  if (auth.participantTestId !== null && auth.participantTestId === place.participantTestId) return true;
  if (!hasRole(auth, 'organizator', 'coordinator', 'admin')) return false;
  return canReachParticipantTest(req.server.ctx.db, auth, place);
};

/**
 * Which tasks get an answer area: the whole variant when the work is on paper; otherwise the tasks
 * switched to paper one by one; and when there are none (a form printed ahead, just in case), all.
 */
export function tasksForBlank<T extends { variantTaskId: number }>(
  all: T[],
  workMode: string,
  blankIds: Set<number>,
): T[] {
  if (workMode === 'blank') return all;
  const chosen = all.filter((t) => blankIds.has(t.variantTaskId));
  return chosen.length ? chosen : all;
}

const personName = (p: { surname: string | null; name: string | null; patronymic: string | null } | null) =>
  p?.surname ? [p.surname, p.name, p.patronymic].filter(Boolean).join(' ') : null;

/** yyyy-mm-dd → dd.mm.yyyy, the way dates are written on Russian school forms. */
export const russianDate = (iso: string) => iso.split('-').reverse().join('.');

/**
 * The form of a work. `whole`: the form of the whole variant, as it printed before any task of an
 * online work was on paper (a form printed ahead, then read back while its scans' answers — mode
 * blank — narrow the form today to the tasks they saved).
 */
export async function loadBlankForm(
  ctx: AppContext,
  examWorkId: number,
  { whole = false }: { whole?: boolean } = {},
): Promise<BlankForm> {
  const header = await repo.findWorkHeader(ctx.db, examWorkId);
  if (!header) throw noSuchWork();
  const [all, blankIds, gridKeys] = await Promise.all([
    repo.variantTasksOf(ctx.db, header.variantId),
    repo.blankModeTaskIds(ctx.db, examWorkId),
    repo.digitGridKeysOf(ctx.db, header.variantId),
  ]);
  // The keys are read for their length only and go no further than this map.
  const columns = new Map(
    gridKeys.map((k) => [k.variantTaskId, digitColumns(k.answerType, k.content, k.reference)]),
  );
  // Numbers follow the variant's order even when only some tasks are on paper.
  const numbered = all.map((t, i) => ({ ...t, number: i + 1 }));
  const participantName = header.isImpersonal
    ? null
    : (personName(header.student) ?? personName(header.worker));
  return {
    examWorkId: header.examWorkId,
    registrationCode: header.registrationCode,
    diagnosticName: header.diagnosticName,
    subjectTestName: header.subjectTestName,
    date: russianDate(header.testDate),
    schoolName: header.schoolName,
    className: header.className,
    participantName: participantName ?? 'Участник',
    variantNumber: header.variantNumber,
    largePrint: header.largeText,
    tasks: (whole ? numbered : tasksForBlank(numbered, header.answerMode, blankIds)).map((t) => ({
      number: t.number,
      variantTaskId: t.variantTaskId,
      answerType: t.answerType as AnswerType,
      content: t.content,
      ...(columns.has(t.variantTaskId) ? { digitColumns: columns.get(t.variantTaskId)! } : {}),
    })),
  };
}

/** Most columns of a number's digit grid; a digit sequence has up to 50 (its content's limit). */
export const MAX_NUMBER_COLUMNS = 12;
const MIN_NUMBER_COLUMNS = 4;
const MAX_DIGIT_SEQUENCE = 50;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Numbers a number key accepts at its edges: the value and its tolerance band, a range's ends. */
function keyNumbers(key: Record<string, unknown>): number[] {
  if (finite(key.value)) {
    const tolerance = finite(key.tolerance) ? Math.abs(key.tolerance) : 0;
    const spread = key.toleranceMode === 'relative' ? tolerance * Math.abs(key.value) : tolerance;
    return [key.value, key.value - spread, key.value + spread];
  }
  return [key.min, key.max].filter(finite);
}

/** Integer and fraction digits of a number as a person writes it (at most 6 decimals). */
function digitsOf(x: number): { whole: number; fraction: number } {
  const [whole = '0', fraction = ''] = Math.abs(x)
    .toFixed(6)
    .replace(/\.?0+$/, '')
    .split('.');
  return { whole: whole.length, fraction: fraction.length };
}

/**
 * Columns of the digit grid of a number or digit-sequence task, from its limits and key: a digit
 * sequence has its `length` (or the key's); a number as many columns as the longest accepted
 * number needs (whole and fraction digits, answers of `per_answer` keys too) plus one spare, at
 * least 4 and at most 12, so the grid tells little about the key. Only this count leaves here.
 */
export function digitColumns(type: string, content: unknown, reference: unknown): number {
  if (type === 'digit_sequence') {
    const length = isRecord(content) && finite(content.length) ? content.length : undefined;
    const digits = isRecord(reference) && typeof reference.digits === 'string' ? reference.digits.length : 12;
    return Math.min(MAX_DIGIT_SEQUENCE, Math.max(1, Math.trunc(length ?? digits)));
  }
  const keys = isRecord(reference)
    ? [reference, ...(Array.isArray(reference.answers) ? reference.answers : [])].filter(isRecord)
    : [];
  const numbers = keys.flatMap(keyNumbers);
  if (!numbers.length) return 8;
  const need = numbers.map(digitsOf);
  const whole = Math.max(...need.map((d) => d.whole));
  const fraction = Math.max(...need.map((d) => d.fraction));
  return Math.min(MAX_NUMBER_COLUMNS, Math.max(MIN_NUMBER_COLUMNS, whole + fraction + 1));
}

/** The layout of a work's answer forms as data (GET …/blanks?format=layout): the PDF's own numbers. */
export async function examWorkBlanksLayout(ctx: AppContext, examWorkId: number): Promise<BlankLayout> {
  return blankFormLayout(await loadBlankForm(ctx, examWorkId)).layout;
}

/** The answer forms of a work as a PDF, with the file name to offer for download. */
export async function examWorkBlanks(
  ctx: AppContext,
  examWorkId: number,
): Promise<{ filename: string; pdf: Buffer }> {
  const form = await loadBlankForm(ctx, examWorkId);
  const safeCode = form.registrationCode.replace(/[^0-9A-Za-z-]/g, '');
  return { filename: `blank-${safeCode}.pdf`, pdf: await renderBlankForm(form) };
}

/** What reading a scanned page of a work's form needs: who it is, where it sits, its layout now. */
export interface BlankFormForScan {
  registrationCode: string;
  place: NonNullable<Awaited<ReturnType<typeof findExamWorkPlace>>>;
  layout: BlankLayout;
  layoutVersion: string;
  /**
   * Every layout a form of the work could have been printed with and still be read, by version:
   * the layout now and, when that holds only some tasks, the whole variant's (a form printed before
   * any task was on paper, whose own scans put the tasks they saved on paper). A sheet names its
   * version in its code, so a match is the very layout it was printed with.
   */
  layouts: ReadonlyMap<string, BlankLayout>;
  answerTypes: Map<number, AnswerType>;
}

/** The form of a live work as the scan reader needs it; null for an unknown or deleted work. */
export async function blankFormForScan(
  ctx: AppContext,
  examWorkId: number,
): Promise<BlankFormForScan | null> {
  const place = await findExamWorkPlace(ctx.db, examWorkId, { live: true });
  if (!place) return null;
  const [form, whole] = await Promise.all([
    loadBlankForm(ctx, examWorkId),
    loadBlankForm(ctx, examWorkId, { whole: true }),
  ]);
  const { layout, layoutVersion } = blankFormLayout(form);
  const layouts = new Map([[layoutVersion, layout]]);
  if (whole.tasks.length !== form.tasks.length) {
    const all = blankFormLayout(whole);
    layouts.set(all.layoutVersion, all.layout);
  }
  return {
    registrationCode: form.registrationCode,
    place,
    layout,
    layoutVersion,
    layouts,
    answerTypes: new Map(whole.tasks.map((t) => [t.variantTaskId, t.answerType])),
  };
}
