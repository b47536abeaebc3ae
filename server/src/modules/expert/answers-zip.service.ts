import { PassThrough, type Readable } from 'node:stream';
import archiver from 'archiver';
import { and, asc, eq, gte, lte, type SQL } from 'drizzle-orm';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { Db, DbOrTx } from '../../db/client.js';
import {
  answers,
  examWorks,
  expertAssignments,
  participantTests,
  subjectTests,
  taskScores,
  tasks,
  variantTasks,
} from '../../db/schema/index.js';
import { badRequest } from '../../lib/errors.js';
import { htmlToText, sanitizeHtml } from '../../lib/sanitize.js';
import { openFile } from '../files/index.js';
import { rubricOf } from './grading.service.js';
import { answerFilesOf, workDay } from './workspace.service.js';

/*
 * The contract calls ParticipantTest/getExpertAnswersDates and getExpertAnswersFileForDownloader:
 * which school days have answers to grade, and a zip of them for offline grading. Nothing in
 * either identifies a participant: answers are named by their anonymous code.
 */

/** An expert: days with own open assignments. An admin: days with answers awaiting experts. */
export async function expertAnswerDates(db: DbOrTx, auth: AuthContext): Promise<{ dates: string[] }> {
  const rows = hasRole(auth, 'expert')
    ? await db
        .selectDistinct({ date: workDay })
        .from(expertAssignments)
        .innerJoin(examWorks, eq(examWorks.id, expertAssignments.examWorkId))
        .where(and(eq(expertAssignments.expertId, auth.userId), eq(expertAssignments.status, 'assigned')))
    : await db
        .selectDistinct({ date: workDay })
        .from(taskScores)
        .innerJoin(examWorks, eq(examWorks.id, taskScores.examWorkId))
        .where(eq(taskScores.status, 'awaiting_experts'));
  return { dates: rows.map((r) => r.date).sort() };
}

interface ZipItem {
  examWorkId: number;
  variantTaskId: number;
  anonCode: string;
  round: number;
  position: number;
  subjectTestName: string;
  answerType: string;
  html: string;
  criteria: { code: string; text: string; maxScore: number; step?: number }[] | null;
  maxScore: number;
}

/** Open assignments in the range: the caller's own (expert) or everyone's, one per answer (admin). */
async function zipItems(db: DbOrTx, auth: AuthContext, from: string, till: string): Promise<ZipItem[]> {
  const inRange = and(gte(workDay, from), lte(workDay, till));
  const own: SQL | undefined = hasRole(auth, 'expert')
    ? eq(expertAssignments.expertId, auth.userId)
    : undefined;
  const rows = await db
    .selectDistinctOn([expertAssignments.examWorkId, expertAssignments.variantTaskId], {
      examWorkId: expertAssignments.examWorkId,
      variantTaskId: expertAssignments.variantTaskId,
      anonCode: expertAssignments.anonCode,
      round: expertAssignments.round,
      position: variantTasks.position,
      subjectTestName: subjectTests.name,
      answerType: tasks.answerType,
      html: tasks.html,
      criteria: tasks.criteria,
      maxScore: variantTasks.maxScore,
    })
    .from(expertAssignments)
    .innerJoin(examWorks, eq(examWorks.id, expertAssignments.examWorkId))
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .innerJoin(variantTasks, eq(variantTasks.id, expertAssignments.variantTaskId))
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(and(eq(expertAssignments.status, 'assigned'), own, inRange))
    .orderBy(
      asc(expertAssignments.examWorkId),
      asc(expertAssignments.variantTaskId),
      asc(expertAssignments.round),
    );
  return rows.sort((a, b) => a.anonCode.localeCompare(b.anonCode) || a.position - b.position);
}

/** A CSV cell that no spreadsheet reads as a formula (docs/design.md §6). */
const csvCell = (v: string | number) => {
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",;\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

function taskHtml(item: ZipItem): string {
  const rubric = rubricOf(item.criteria, item.maxScore);
  const rows = rubric
    .map(
      (c) =>
        `<tr><td>${escapeHtml(c.code)}</td><td>${escapeHtml(htmlToText(c.text))}</td><td>${c.maxScore}</td></tr>`,
    )
    .join('');
  return (
    `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>${escapeHtml(item.anonCode)} — задание ${item.position}</title></head><body>` +
    `<h1>${escapeHtml(item.anonCode)} — задание ${item.position}</h1><p>${escapeHtml(item.subjectTestName)}</p>` +
    `<section>${sanitizeHtml(item.html)}</section>` +
    `<h2>Критерии оценивания</h2><table border="1"><tr><th>Критерий</th><th>Описание</th><th>Макс. балл</th></tr>${rows}</table>` +
    `<p>Максимальный балл: ${item.maxScore}</p></body></html>`
  );
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function answerText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2);
}

export function checkRange(date: string, dateTill: string | undefined): { from: string; till: string } {
  const till = dateTill ?? date;
  const valid = (d: string) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`));
  if (!valid(date) || !valid(till)) throw badRequest('invalid_date', 'Dates are yyyy-mm-dd calendar days');
  if (till < date) throw badRequest('invalid_date_range', 'dateTill is before date');
  if (Date.parse(till) - Date.parse(date) > 366 * 86_400_000)
    throw badRequest('invalid_date_range', 'At most a year at once');
  return { from: date, till };
}

/**
 * The zip, streamed: per answer a folder `<anonCode>-<position>/` with answer.txt, the attached
 * files (neutral names), task.html (sanitized text and criteria), and manifest.csv at the root.
 * File bytes are read one at a time, as the archive drains.
 */
export async function expertAnswersZip(
  db: Db,
  auth: AuthContext,
  range: { from: string; till: string },
): Promise<{ stream: Readable; fileName: string }> {
  const items = await zipItems(db, auth, range.from, range.till);
  const fileName =
    range.from === range.till
      ? `expert-answers-${range.from}.zip`
      : `expert-answers-${range.from}_${range.till}.zip`;
  const archive = archiver('zip', { zlib: { level: 6 } });
  const out = new PassThrough();
  archive.on('error', (err) => out.destroy(err));
  archive.pipe(out);

  const fill = async () => {
    const manifest = [
      ['anonCode', 'task', 'round', 'subjectTest', 'criteria', 'maxScore', 'folder'].join(';'),
    ];
    for (const item of items) {
      const folder = `${item.anonCode}-${item.position}`;
      const [answer] = await db
        .select({ value: answers.value })
        .from(answers)
        .where(and(eq(answers.examWorkId, item.examWorkId), eq(answers.variantTaskId, item.variantTaskId)));
      archive.append(answerText(answer?.value), { name: `${folder}/answer.txt` });
      archive.append(taskHtml(item), { name: `${folder}/task.html` });
      for (const f of await answerFilesOf(db, item.examWorkId, item.variantTaskId)) {
        const bytes = await openFile(db, f.id);
        if (!bytes) continue;
        const written = new Promise((resolve) => archive.once('entry', resolve));
        archive.append(bytes, { name: `${folder}/${f.name}` });
        await written;
      }
      const rubric = rubricOf(item.criteria, item.maxScore);
      manifest.push(
        [
          item.anonCode,
          item.position,
          item.round,
          item.subjectTestName,
          rubric.map((c) => `${c.code}:${c.maxScore}`).join(' '),
          item.maxScore,
          folder,
        ]
          .map(csvCell)
          .join(';'),
      );
    }
    archive.append(`\ufeff${manifest.join('\r\n')}\r\n`, { name: 'manifest.csv' });
    await archive.finalize();
  };
  fill().catch((err: unknown) => {
    archive.abort();
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return { stream: out, fileName };
}
