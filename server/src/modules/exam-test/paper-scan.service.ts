/*
 * Answers read off scanned paper forms (issue 25, item 2; docs/paper-forms.md) go into works
 * through the path staff keying a form take (PUT saveanswers?registrationCode=…): the same writer
 * (scope), batch, seq, staff source, answer mode blank, audit and rescoring. What the scan reader
 * needs besides: whether a work takes a keyed form now, and finishing a paper work whose form was
 * read whole.
 */
import { createHash } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { answers } from '../../db/schema/index.js';
import { publish } from '../../events/domain-events.js';
import { publishWorkEvent } from '../../events/work-bus.js';
import { audit } from '../../lib/audit.js';
import { metrics } from '../../lib/metrics.js';
import { isPastDeadline } from '../../lib/work-clock.js';
import * as repo from './exam-work.repo.js';
import { bufferFile } from '../../lib/multipart.js';
import { saveAnswers, saveAnswersWithFiles, writerFor } from './work-answers.service.js';
import { OPEN_TEST_STATUSES, type Actor } from './work-guards.js';

/** Most answers of one saveanswers batch (its body's limit). */
const BATCH = 200;

/**
 * How a work stands for a scanned form: `writable` takes keyed answers now (finished or past its
 * deadline), `open_paper` is a paper work (answer mode blank) not finished yet, `open_online` one
 * still written online, `gone` deleted or unknown.
 */
export async function paperScanState(
  ctx: AppContext,
  examWorkId: number,
): Promise<'writable' | 'open_paper' | 'open_online' | 'gone'> {
  const w = await repo.findWork(ctx.db, examWorkId);
  if (!w || w.deletedAt) return 'gone';
  if (w.finishedAt || isPastDeadline(w, new Date())) return 'writable';
  return w.answerMode === 'blank' ? 'open_paper' : 'open_online';
}

/** The stored answer values of tasks of a work (a cloze's typed gaps are kept beside its bubbles). */
export async function storedPaperAnswers(
  ctx: AppContext,
  examWorkId: number,
  variantTaskIds: number[],
): Promise<Map<number, { value: unknown; seq: number }>> {
  if (!variantTaskIds.length) return new Map();
  const rows = await ctx.db
    .select({ variantTaskId: answers.variantTaskId, value: answers.value, seq: answers.seq })
    .from(answers)
    .where(and(eq(answers.examWorkId, examWorkId), inArray(answers.variantTaskId, variantTaskIds)));
  return new Map(rows.map((r) => [r.variantTaskId, { value: r.value, seq: r.seq }]));
}

/**
 * Saves answers of a scanned form as staff keying it would: writerFor (the actor must reach the
 * sitting of the registration code), then saveAnswers with each task's next seq. Throws as the
 * keyed save does (409 `work_not_finished` for a work still open online, 400 for a bad value).
 */
export async function savePaperScan(
  ctx: AppContext,
  actor: Actor,
  body: {
    registrationCode: string;
    examWorkId: number;
    answers: { variantTaskId: number; value: unknown }[];
  },
) {
  const writer = await writerFor(ctx, actor, body.registrationCode);
  const results = [];
  for (let i = 0; i < body.answers.length; i += BATCH) {
    let part = body.answers.slice(i, i + BATCH);
    // A save of the same task that took the next seq meanwhile makes this one stale: it goes again
    // with the seq after that one (a few times at most), so a confirmed value is never dropped.
    for (let round = 0; part.length; round++) {
      const stored = await storedPaperAnswers(
        ctx,
        body.examWorkId,
        part.map((a) => a.variantTaskId),
      );
      const done = await saveAnswers(ctx, writer, {
        examWorkId: body.examWorkId,
        answers: part.map((a) => ({ ...a, seq: (stored.get(a.variantTaskId)?.seq ?? 0) + 1 })),
      });
      const stale = new Set(done.results.filter((r) => r.status === 'stale').map((r) => r.variantTaskId));
      results.push(...done.results.filter((r) => round >= 2 || !stale.has(r.variantTaskId)));
      part = round >= 2 ? [] : part.filter((a) => stale.has(a.variantTaskId));
    }
  }
  return { results };
}

/**
 * Attaches the scan of a file task's answer area (a PNG cut from the page) as that task's answer,
 * as keying a form with files does (saveanswers_with_files: the task's accepted types and size,
 * the uploader's quota, the same batch and audit). Only for a task with no answer yet.
 */
export async function attachPaperScanFile(
  ctx: AppContext,
  actor: Actor,
  body: { registrationCode: string; examWorkId: number; variantTaskId: number; png: Buffer },
) {
  const writer = await writerFor(ctx, actor, body.registrationCode);
  const stored = await storedPaperAnswers(ctx, body.examWorkId, [body.variantTaskId]);
  if (stored.has(body.variantTaskId)) return null;
  return saveAnswersWithFiles(
    ctx,
    writer,
    {
      examWorkId: body.examWorkId,
      answers: [{ variantTaskId: body.variantTaskId, value: { fileIds: [] }, seq: 1 }],
    },
    [{ variantTaskId: body.variantTaskId, file: bufferFile('scan.png', body.png, 'image/png') }],
  );
}

/**
 * What an extended-text answer written on the paper form holds as its text: the answer itself is
 * the scan of its answer area, attached to it (an empty text would be scored as no answer, and the
 * experts would never see it).
 */
export const PAPER_TEXT_PLACEHOLDER = 'Ответ написан на бланке: см. скан';

/**
 * Attaches the scan of an extended-text task's answer area (a PNG cut from the page) to that
 * task's answer, which is saved through the keyed path (saveAnswers: seq, staff source, audit,
 * rescoring) with PAPER_TEXT_PLACEHOLDER as its text. Experts see the files of any answer
 * (answer_files), so they grade the scan. Only for a task with no answer yet, or one holding the
 * placeholder without its scan (an earlier attempt stopped between the two steps); null otherwise.
 */
export async function attachPaperScanText(
  ctx: AppContext,
  actor: Actor,
  body: { registrationCode: string; examWorkId: number; variantTaskId: number; png: Buffer },
): Promise<number | null> {
  const writer = await writerFor(ctx, actor, body.registrationCode);
  const before = (await storedPaperAnswers(ctx, body.examWorkId, [body.variantTaskId])).get(
    body.variantTaskId,
  );
  if (before && before.value !== PAPER_TEXT_PLACEHOLDER) return null;
  if (!before) {
    const { results } = await saveAnswers(ctx, writer, {
      examWorkId: body.examWorkId,
      answers: [{ variantTaskId: body.variantTaskId, value: PAPER_TEXT_PLACEHOLDER, seq: 1 }],
    });
    if (results[0]?.status !== 'saved') return null;
  }
  const sha256 = createHash('sha256').update(body.png).digest('hex');
  return ctx.files.staged((put) =>
    ctx.db.transaction(async (tx) => {
      await repo.lockWorkForUpdate(tx, body.examWorkId);
      if ((await repo.attachedFileIds(tx, body.examWorkId, [body.variantTaskId])).length) return null;
      return repo.insertAnswerFile(tx, body.examWorkId, body.variantTaskId, {
        name: 'scan.png',
        mime: 'image/png',
        size: body.png.length,
        sha256,
        bytes: await put(body.png),
        createdBy: actor.auth.userId,
      });
    }),
  );
}

/**
 * Finishes a paper work (answer mode blank) whose whole form was scanned, as a paper-only form's
 * work is created finished: reason `paper`, the sitting finished, scoring queued, audited. A work
 * already finished, deleted or written online is left as it is (false).
 */
export async function finishPaperWork(ctx: AppContext, actor: Actor, examWorkId: number): Promise<boolean> {
  const done = await ctx.db.transaction(async (tx) => {
    const w = await repo.lockWorkForUpdate(tx, examWorkId);
    if (!w || w.deletedAt || w.finishedAt || w.answerMode !== 'blank') return null;
    const now = new Date();
    const finishedAt = isPastDeadline(w, now) && !w.pausedAt ? w.deadlineAt : now;
    await repo.updateWork(tx, w.id, {
      status: 'finished',
      finishedAt,
      finishReason: 'paper',
      pausedAt: null,
      pausedUntil: null,
    });
    await repo.setParticipantTestStatus(tx, w.participantTestId, 'finished', [
      ...OPEN_TEST_STATUSES,
      'absent',
    ]);
    await publish('worksFinished', { db: tx, examWorkIds: [w.id] });
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'exam_work.finish',
      entity: 'exam_work',
      entityId: w.id,
      reason: 'paper',
      details: { requested: 'scan' },
      ip: actor.ip,
    });
    return w;
  });
  if (!done) return false;
  metrics.worksFinished('scan');
  publishWorkEvent(ctx, done.participantTestId, done.id, 'finished', { reason: 'paper' });
  return true;
}
