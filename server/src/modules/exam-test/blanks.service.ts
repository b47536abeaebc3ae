import type { AnswerType } from '@attesta/contract';
import type { ScopeRule } from '../../auth/access.js';
import { canReachParticipantTest } from '../../auth/shared.access.js';
import { hasRole } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../lib/errors.js';
import * as repo from './blanks.repo.js';
import { renderBlankForm } from './blanks.pdf.js';

/** One numbered answer area of the form. `content` is the participant-visible part of the task. */
export interface BlankTask {
  /** The task's number in the variant (1-based), as the participant sees it on screen. */
  number: number;
  answerType: AnswerType;
  content: Record<string, unknown>;
}

/** What an answer form shows: header facts and the tasks to answer on paper. Nothing secret. */
export interface BlankForm {
  examWorkId: number;
  registrationCode: string;
  diagnosticName: string;
  subjectTestName: string;
  /** dd.mm.yyyy */
  date: string;
  schoolName: string | null;
  className: string | null;
  participantName: string;
  variantNumber: number;
  /** The large-print form: an accommodations profile with large text (docs/accommodations.md). */
  largePrint: boolean;
  tasks: BlankTask[];
}

const noSuchWork = () => notFound('No such exam work');

/**
 * Scope of GET examwork/{id}/blanks: a participant only the work of the participant test their
 * session is bound to; staff the works of participant tests they can reach. An unknown or deleted
 * work answers 404 for everyone.
 */
export const examWorkBlanksScope: ScopeRule = async (req, auth) => {
  const { id } = req.params as { id: number };
  const place = await repo.findWorkPlace(req.server.ctx.db, id);
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

export async function loadBlankForm(ctx: AppContext, examWorkId: number): Promise<BlankForm> {
  const header = await repo.findWorkHeader(ctx.db, examWorkId);
  if (!header) throw noSuchWork();
  const [all, blankIds] = await Promise.all([
    repo.variantTasksOf(ctx.db, header.variantId),
    repo.blankModeTaskIds(ctx.db, examWorkId),
  ]);
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
    tasks: tasksForBlank(numbered, header.answerMode, blankIds).map((t) => ({
      number: t.number,
      answerType: t.answerType as AnswerType,
      content: t.content,
    })),
  };
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
