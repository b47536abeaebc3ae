/* Answers of a running work: saves (one, a batch, with files), answer modes and flags. */
import type { AnswerMode, PaperSaveAnswersBody, SaveAnswerBody, SaveAnswersBody } from '@attesta/contract';
import { hasRole } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { Db, Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { metrics } from '../../lib/metrics.js';
import { publish } from '../../events/domain-events.js';
import { publishWorkEvent } from '../../events/work-bus.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { sameJson } from '@attesta/contract';
import { checkAnswerValue, type AnswerTask } from './answer-value.js';
import { cachedSubjectTest, cachedTaskDef } from './content-cache.js';
import * as repo from './exam-work.repo.js';
import { saveBatcherOf } from './save-batcher.js';
import { checkUpload, taskFileLimit, taskFileTooLarge } from './upload.js';
import { quotaExceeded, uploadLimit, type ByteLimit, type IncomingFile } from '../../lib/multipart.js';
import { lockedUploadAllowance, uploadAllowance } from '../files/index.js';
import type { WorkRow } from './exam-work.repo.js';
import { isPastDeadline } from '../../lib/work-clock.js';

import {
  workDeleted,
  staleSequence,
  invalidAnswer,
  taskNotInVariant,
  STAFF_ROLES,
  boundTestId,
  ownWork,
  assertWritable,
  settleOverduePause,
  staffCanReach,
  blankNotAllowed,
  OPEN_TEST_STATUSES,
  type Actor,
} from './work-guards.js';

// ------------------------------------------------------------------ save answers

/**
 * PUT saveanswer. The common case — a valid answer to a running work — is one statement
 * (saveAnswersFast), shared with the other saves of the same moment (save-batcher.ts). Anything
 * else (file answers, invalid values, stale seq, finished, paused, someone else's work...) takes
 * the fully checked transaction below, which gives the exact error.
 */
export async function saveAnswer(ctx: AppContext, actor: Actor, body: SaveAnswerBody) {
  const participantTestId = actor.auth.participantTestId;
  const def = await cachedTaskDef(ctx.db, body.variantTaskId);
  if (participantTestId !== null && def && def.answerType !== 'file') {
    const checked = checkAnswerValue(def as AnswerTask, body.value, 'body.value');
    if (checked.ok) {
      // Anything the batched statement could not apply (or a failed statement) takes the checked path.
      const applied = await saveBatcherOf(ctx.db)
        .save({
          workId: body.examWorkId,
          participantTestId,
          variantTaskId: body.variantTaskId,
          value: checked.value,
          seq: body.seq,
          userId: actor.auth.userId,
          deviceId: actor.deviceId,
          now: new Date(),
        })
        .catch(() => null);
      if (applied) {
        metrics.answerSaved('batched');
        publishWorkEvent(ctx, participantTestId, body.examWorkId, 'answer_saved', {
          variantTaskId: body.variantTaskId,
        });
        return { seq: applied.seq, savedAt: applied.savedAt.toISOString() };
      }
    }
  }
  const saved = await saveAnswerChecked(ctx, actor, body);
  metrics.answerSaved('checked');
  publishWorkEvent(ctx, participantTestId, body.examWorkId, 'answer_saved', {
    variantTaskId: body.variantTaskId,
  });
  return saved;
}

async function saveAnswerChecked(ctx: AppContext, actor: Actor, body: SaveAnswerBody) {
  return ctx.db.transaction(async (tx) => {
    const row = await repo.lockWorkWithTask(tx, body.examWorkId, body.variantTaskId);
    // The clock is read after the lock: a save that waited for a finish sees it finished.
    const now = new Date();
    const w = ownWork(actor.auth, row?.work);
    assertWritable(w, now, actor.deviceId);
    const task = row!.task;
    if (!task?.answerType) throw taskNotInVariant('body.variantTaskId');
    const checked = checkAnswerValue(task as AnswerTask, body.value, 'body.value');
    if (!checked.ok) throw invalidAnswer(checked.errors);
    if (task.answerType === 'file')
      await assertAttached(tx, w.id, [{ variantTaskId: body.variantTaskId, value: checked.value }]);

    const write = { variantTaskId: body.variantTaskId, value: checked.value, seq: body.seq };
    const meta = {
      examWorkId: w.id,
      answerMode: w.answerMode,
      source: 'participant' as const,
      savedBy: actor.auth.userId,
      forceMode: false,
    };
    const [applied] = await repo.upsertAnswers(tx, meta, [write]);
    if (applied) return { seq: applied.seq, savedAt: applied.savedAt.toISOString() };
    const [stored] = await repo.storedAnswers(tx, w.id, [write]);
    // A retry of the very save already stored is acknowledged again, with the original time.
    if (stored && stored.seq === body.seq && sameJson(stored.value, checked.value))
      return { seq: stored.seq, savedAt: stored.savedAt.toISOString() };
    throw staleSequence(stored?.seq ?? 0);
  });
}

/** A file answer may only name files uploaded to this very answer (never someone else's). */
async function assertAttached(tx: Tx, workId: number, list: { variantTaskId: number; value: unknown }[]) {
  const attached = await repo.attachedFileIds(
    tx,
    workId,
    list.map((a) => a.variantTaskId),
  );
  for (const a of list) {
    const own = new Set(attached.filter((x) => x.variantTaskId === a.variantTaskId).map((x) => x.fileId));
    const ids = (a.value as { fileIds: number[] }).fileIds;
    if (ids.some((id) => !own.has(id)))
      throw invalidAnswer([{ path: 'value.fileIds', message: 'not a file uploaded for this answer' }]);
  }
}

/** Who writes a batch: the participant online, or staff keying in a paper form. */
type Writer =
  | { kind: 'participant'; actor: Actor }
  | { kind: 'staff'; actor: Actor; participantTestId: number; registrationCode: string };

/** Resolves `registrationCode`: staff only, a live participant test within their scope. */
export async function writerFor(
  ctx: AppContext,
  actor: Actor,
  registrationCode: string | undefined,
): Promise<Writer> {
  if (registrationCode === undefined) {
    boundTestId(actor.auth);
    return { kind: 'participant', actor };
  }
  if (!hasRole(actor.auth, ...STAFF_ROLES))
    throw forbidden('Only staff may key in a paper form by registration code');
  const pt = await repo.findParticipantTest(ctx.db, { registrationCode });
  if (!pt) throw notFound('No participant test has this registration code');
  if (!(await staffCanReach(ctx.db, actor.auth, pt)))
    throw forbidden('This participant test is outside your scope');
  return { kind: 'staff', actor, participantTestId: pt.id, registrationCode };
}

/** The work a batch writes to, locked FOR SHARE and checked for the writer. */
async function lockForWriter(tx: Tx, writer: Writer, workId: number): Promise<WorkRow> {
  const found = await repo.lockWorkShared(tx, workId);
  if (writer.kind === 'participant') {
    // Saves hold a share lock and never write the work: an own pause past its end counts as over
    // (isPaused) though its row still says paused until the next write or the sweeper settles it.
    const w = ownWork(writer.actor.auth, found);
    assertWritable(w, new Date(), writer.actor.deviceId);
    return w;
  }
  // Paper forms arrive after the test: allowed after the deadline and after finish, never into a
  // deleted work, nor into a work still open online (its participant may still be writing).
  if (!found || found.participantTestId !== writer.participantTestId)
    throw notFound('This exam work does not belong to the participant test of the registration code');
  if (found.deletedAt) throw workDeleted();
  if (!found.finishedAt && !isPastDeadline(found, new Date())) throw workStillOpen();
  return found;
}

const workStillOpen = () =>
  conflict('work_not_finished', 'The work is still open online: key the paper form in after it ends');

/** Answer types and content of the batch's tasks; every task must be in the work's variant. */
async function tasksForBatch(tx: Tx, w: WorkRow, ids: number[]) {
  const found = await repo.answerTasksOf(tx, w.variantId, ids);
  const byId = new Map(found.map((t) => [t.variantTaskId, t]));
  ids.forEach((id, i) => {
    if (!byId.has(id)) throw taskNotInVariant(`body.answers.${i}.variantTaskId`);
  });
  return byId;
}

function validateBatch(list: SaveAnswersBody['answers'], tasks: Map<number, AnswerTask>) {
  const seen = new Set<number>();
  return list.map((a, i) => {
    if (seen.has(a.variantTaskId))
      throw badRequest('validation_failed', 'A task appears twice in one batch', [
        { path: `body.answers.${i}.variantTaskId`, message: 'duplicate task' },
      ]);
    seen.add(a.variantTaskId);
    const checked = checkAnswerValue(tasks.get(a.variantTaskId)!, a.value, `body.answers.${i}.value`);
    if (!checked.ok) throw invalidAnswer(checked.errors);
    return { variantTaskId: a.variantTaskId, value: checked.value, seq: a.seq };
  });
}

type BatchResult = {
  variantTaskId: number;
  status: 'saved' | 'duplicate' | 'stale';
  seq: number;
  savedAt: string;
};

/** Writes validated answers in one statement; the ones that did not apply are read back and classified. */
async function writeBatch(
  tx: Tx,
  writer: Writer,
  w: WorkRow,
  list: repo.AnswerWrite[],
): Promise<BatchResult[]> {
  const staff = writer.kind === 'staff';
  const meta = {
    examWorkId: w.id,
    answerMode: staff ? 'blank' : w.answerMode,
    source: staff ? ('staff' as const) : ('participant' as const),
    savedBy: writer.actor.auth.userId,
    forceMode: staff,
  };
  const applied = new Map((await repo.upsertAnswers(tx, meta, list)).map((r) => [r.variantTaskId, r]));
  const stored = new Map(
    (
      await repo.storedAnswers(
        tx,
        w.id,
        list.filter((a) => !applied.has(a.variantTaskId)),
      )
    ).map((r) => [r.variantTaskId, r]),
  );
  return list.map((a) => {
    const done = applied.get(a.variantTaskId);
    if (done)
      return {
        variantTaskId: a.variantTaskId,
        status: 'saved',
        seq: done.seq,
        savedAt: done.savedAt.toISOString(),
      };
    const s = stored.get(a.variantTaskId)!;
    const duplicate = s.seq === a.seq && sameJson(s.value, a.value);
    return {
      variantTaskId: a.variantTaskId,
      status: duplicate ? 'duplicate' : 'stale',
      seq: s.seq,
      savedAt: s.savedAt.toISOString(),
    };
  });
}

/**
 * What a paper form keyed in by staff leaves behind: the audit record and, when it changed answers
 * of a finished work, the event that has its result computed again from them.
 */
async function afterStaffBatch(tx: Tx, writer: Writer, w: WorkRow, results: BatchResult[], fileCount = 0) {
  if (writer.kind !== 'staff') return;
  if (w.finishedAt && results.some((r) => r.status === 'saved'))
    await publish('answersKeyedIn', { db: tx, examWorkIds: [w.id] });
  await audit(tx, {
    userId: writer.actor.auth.userId,
    action: 'exam_work.answers_keyed_in',
    entity: 'exam_work',
    entityId: w.id,
    details: {
      participantTestId: writer.participantTestId,
      saved: results.filter((r) => r.status === 'saved').map((r) => r.variantTaskId),
      files: fileCount,
    },
    ip: writer.actor.ip,
  });
}

export async function saveAnswers(ctx: AppContext, writer: Writer, body: SaveAnswersBody) {
  const done = await ctx.db.transaction(async (tx) => {
    const w = await lockForWriter(tx, writer, body.examWorkId);
    const tasks = await tasksForBatch(
      tx,
      w,
      body.answers.map((a) => a.variantTaskId),
    );
    const list = validateBatch(body.answers, tasks);
    const fileAnswers = list.filter((a) => tasks.get(a.variantTaskId)!.answerType === 'file');
    if (fileAnswers.length) await assertAttached(tx, w.id, fileAnswers);
    const results = await writeBatch(tx, writer, w, list);
    await afterStaffBatch(tx, writer, w, results);
    return { results };
  });
  publishBatch(ctx, writer, body.examWorkId, done.results);
  return done;
}

/**
 * A paper form of a participant who never opened the work online (docs/design.md §5): creates the
 * work with the variant of the booklet — answer mode blank, finished at once as `paper` — writes the
 * form's answers through the same batch as any keyed form (seq, staff source, audit) and queues its
 * scoring (worksFinished). Refused while the participant test has a live work: one still open
 * online is 409 `work_not_finished`, a finished one 409 `has_exam_work` (its own form takes the keying).
 */
export async function savePaperOnly(ctx: AppContext, writer: Writer, body: PaperSaveAnswersBody) {
  if (writer.kind !== 'staff') throw forbidden('Only staff key in a paper form, by its registration code');
  const st = await ctx.db.transaction(async (tx) => {
    if (!(await repo.lockParticipantTest(tx, writer.participantTestId)))
      throw notFound('No participant test has this registration code');
    const pt = await repo.findParticipantTest(tx, { id: writer.participantTestId });
    if (!pt) throw notFound('No participant test has this registration code');
    const now = new Date();
    if (pt.status === 'annulled')
      throw conflict('participant_test_annulled', 'This participant test has been annulled');
    if (now < pt.startsAt)
      throw conflict('window_not_open', 'The test has not started yet: there is no paper form to key in');
    const live = await repo.findLiveWork(tx, pt.id);
    if (live) throw live.finishedAt ? hasWork() : workStillOpen();
    const variant = await repo.findVariant(tx, body.paper.variantId);
    const current = await repo.currentVariantsOf(tx, pt.subjectTestId);
    if (!variant || !current.some((v) => v.id === variant.id))
      throw badRequest('validation_failed', 'Not a current variant of the subject test', [
        { path: 'body.paper.variantId', message: 'not a current variant of this test' },
      ]);
    const test = await repo.findSubjectTest(tx, pt.subjectTestId);
    if (!test) throw notFound('No such subject test');
    const w = await repo.insertPaperWork(tx, {
      participantTestId: pt.id,
      variantId: variant.id,
      status: 'finished',
      answerMode: 'blank',
      startedAt: now,
      timeLimitSeconds: test.durationMinutes * 60,
      windowEndsAt: pt.endsAt,
      deadlineAt: now,
      finishedAt: now,
      finishReason: 'paper',
      deviceId: null,
    });
    // A start of the participant won the live-work index meanwhile: that work is open online.
    if (!w) throw workStillOpen();
    const tasks = await tasksForBatch(
      tx,
      w,
      body.answers.map((a) => a.variantTaskId),
    );
    const list = validateBatch(body.answers, tasks);
    const fileAnswers = list.filter((a) => tasks.get(a.variantTaskId)!.answerType === 'file');
    if (fileAnswers.length) await assertAttached(tx, w.id, fileAnswers);
    const results = list.length ? await writeBatch(tx, writer, w, list) : [];
    await repo.setParticipantTestStatus(tx, pt.id, 'finished', [...OPEN_TEST_STATUSES, 'absent']);
    await audit(tx, {
      userId: writer.actor.auth.userId,
      action: 'exam_work.paper_created',
      entity: 'exam_work',
      entityId: w.id,
      details: { participantTestId: pt.id, variantId: variant.id },
      ip: writer.actor.ip,
    });
    await audit(tx, {
      userId: writer.actor.auth.userId,
      action: 'exam_work.answers_keyed_in',
      entity: 'exam_work',
      entityId: w.id,
      details: {
        participantTestId: pt.id,
        saved: results.filter((r) => r.status === 'saved').map((r) => r.variantTaskId),
        files: 0,
      },
      ip: writer.actor.ip,
    });
    await publish('worksFinished', { db: tx, examWorkIds: [w.id] });
    return { examWorkId: w.id, results };
  });
  metrics.worksFinished('paper');
  publishWorkEvent(ctx, writer.participantTestId, st.examWorkId, 'finished', { reason: 'paper' });
  return st;
}

const hasWork = () =>
  conflict('has_exam_work', 'The participant already has a finished work: key the form into that work');

/** One event for a batch (online or keyed in from a paper form), with what the batch knows. */
function publishBatch(ctx: AppContext, writer: Writer, workId: number, results: BatchResult[]) {
  const saved = results.filter((r) => r.status === 'saved').length;
  if (!saved) return;
  const ptId = writer.kind === 'staff' ? writer.participantTestId : writer.actor.auth.participantTestId;
  publishWorkEvent(ctx, ptId, workId, 'answer_saved', { saved, source: writer.kind });
}

// ------------------------------------------------------------------ answers with files

export interface UploadedFile {
  variantTaskId: number;
  file: IncomingFile;
}

/** What a request's files may be, settled from its `answers` before any file byte is read. */
export interface FileUploadPlan {
  /** The byte limit of the next file of a task (400 not a file task of the batch, 413 too many files). */
  limitOf(variantTaskId: number, spooledBytes: number): ByteLimit;
}

/**
 * The checks of saveanswers_with_files that need no file: the writer may write this work (404,
 * 403, 409 as the save would answer), every file's task is a file task of the batch, the number
 * of files and each file's size fit the task, and the uploader's storage quota holds them. Run
 * before the files are read, so a refused request costs nothing; the save checks all of it again.
 */
export async function planFileUploads(
  ctx: AppContext,
  writer: Writer,
  body: SaveAnswersBody,
): Promise<FileUploadPlan> {
  const { tasks, allowance, kept } = await ctx.db.transaction(async (tx) => {
    const w = await lockForWriter(tx, writer, body.examWorkId);
    const tasks = await tasksForBatch(
      tx,
      w,
      body.answers.map((a) => a.variantTaskId),
    );
    const allowance = await uploadAllowance(tx, writer.actor.auth, ctx.config.uploadQuotaBytes);
    const kept = new Map(
      body.answers.map((a) => [a.variantTaskId, (a.value as { fileIds?: unknown[] })?.fileIds?.length ?? 0]),
    );
    return { tasks, allowance, kept };
  });
  const counts = new Map<number, number>();
  return {
    limitOf(variantTaskId, spooledBytes) {
      const task = tasks.get(variantTaskId);
      if (!task)
        throw badRequest('validation_failed', 'Files need an answer entry for their task', [
          { path: `file:${variantTaskId}`, message: 'no answer with this variantTaskId in `answers`' },
        ]);
      if (task.answerType !== 'file') throw badRequest('validation_failed', 'This task does not take files');
      const n = (counts.get(variantTaskId) ?? 0) + 1;
      counts.set(variantTaskId, n);
      const max = typeof task.content.maxFiles === 'number' ? task.content.maxFiles : 1;
      if ((kept.get(variantTaskId) ?? 0) + n > max)
        throw new AppError(413, 'too_many_files', `At most ${max} files for this task`);
      const perFile = taskFileLimit(task);
      const limit = uploadLimit(allowance, spooledBytes, perFile);
      return limit.bytes === perFile ? { bytes: perFile, error: () => taskFileTooLarge(perFile) } : limit;
    },
  };
}

/**
 * Answers plus their files in one transaction: the files rows, the answer_files links and the
 * answers commit together or not at all. A file answer's value lists the already attached files
 * it keeps; the new uploads are appended to it. Files are read from their spool one at a time.
 */
export async function saveAnswersWithFiles(
  ctx: AppContext,
  writer: Writer,
  body: SaveAnswersBody,
  uploads: UploadedFile[],
) {
  // The files' bytes go to the file storage as they are stored, and are removed if this fails.
  const done = await ctx.files.staged((put) =>
    ctx.db.transaction(async (tx) => {
      const w = await lockForWriter(tx, writer, body.examWorkId);
      const tasks = await tasksForBatch(
        tx,
        w,
        body.answers.map((a) => a.variantTaskId),
      );
      for (const f of uploads) {
        const task = tasks.get(f.variantTaskId);
        if (task?.answerType !== 'file')
          throw badRequest('validation_failed', 'Files need an answer entry of a file task', [
            { path: `file:${f.variantTaskId}`, message: 'no file task with this variantTaskId in `answers`' },
          ]);
      }
      const list = validateBatch(body.answers, tasks);
      const fileAnswers = list.filter((a) => tasks.get(a.variantTaskId)!.answerType === 'file');
      if (fileAnswers.length) await assertAttached(tx, w.id, fileAnswers);
      // Under the uploader's storage lock, which general uploads take too: one quota, counted in turn.
      const allowance = await lockedUploadAllowance(tx, writer.actor.auth, ctx.config.uploadQuotaBytes);
      const total = uploads.reduce((sum, f) => sum + f.file.size, 0);
      if (allowance.quotaBytes !== null && total > allowance.quotaBytes) throw quotaExceeded();

      const stored: { variantTaskId: number; id: number; name: string; mime: string; size: number }[] = [];
      for (const f of uploads) {
        const checked = await checkUpload(tasks.get(f.variantTaskId)!, f.file);
        const id = await repo.insertAnswerFile(tx, w.id, f.variantTaskId, {
          name: checked.name,
          mime: checked.mime,
          size: checked.data.length,
          sha256: f.file.sha256,
          bytes: await put(checked.data),
          createdBy: writer.actor.auth.userId,
        });
        stored.push({
          variantTaskId: f.variantTaskId,
          id,
          name: checked.name,
          mime: checked.mime,
          size: f.file.size,
        });
      }
      const merged = list.map((a) => mergeFileIds(a, stored, tasks.get(a.variantTaskId)!));
      const results = await writeBatch(tx, writer, w, merged);
      // Files ride on their answer: if that answer did not apply, nothing of the request may stay.
      const lost = results.find(
        (r) => r.status !== 'saved' && stored.some((f) => f.variantTaskId === r.variantTaskId),
      );
      if (lost) throw staleSequence(lost.seq);
      await afterStaffBatch(tx, writer, w, results, stored.length);
      return { results, files: stored };
    }),
  );
  publishBatch(ctx, writer, body.examWorkId, done.results);
  return done;
}

function mergeFileIds(
  a: repo.AnswerWrite,
  stored: { variantTaskId: number; id: number }[],
  task: AnswerTask,
) {
  if (task.answerType !== 'file') return a;
  const kept = (a.value as { fileIds: number[] }).fileIds;
  const fileIds = [...kept, ...stored.filter((f) => f.variantTaskId === a.variantTaskId).map((f) => f.id)];
  const max = typeof task.content.maxFiles === 'number' ? task.content.maxFiles : 1;
  if (fileIds.length > max) throw new AppError(413, 'too_many_files', `At most ${max} files for this task`);
  return { ...a, value: { fileIds } };
}

// ------------------------------------------------------------------ answer mode

async function writableOwnWork(tx: Tx, actor: Actor, id: number) {
  const now = new Date();
  const w = await settleOverduePause(tx, ownWork(actor.auth, await repo.lockWorkForUpdate(tx, id)), now);
  assertWritable(w, now, actor.deviceId);
  return w;
}

async function assertModeAllowed(db: Db | Tx, w: WorkRow, mode: AnswerMode) {
  if (mode !== 'blank') return;
  const pt = await repo.findParticipantTest(db, { id: w.participantTestId });
  const st = pt && (await cachedSubjectTest(db, pt.subjectTestId));
  if (!st?.allowBlank) throw blankNotAllowed();
}

/** The whole work switches mode: its default and every task's mode follow. */
export async function setWorkMode(ctx: AppContext, actor: Actor, id: number, mode: AnswerMode) {
  return ctx.db.transaction(async (tx) => {
    const w = await writableOwnWork(tx, actor, id);
    await assertModeAllowed(tx, w, mode);
    await repo.updateWork(tx, w.id, { answerMode: mode });
    await repo.setAllAnswerModes(tx, w.id, mode);
    return { examWorkId: w.id, variantTaskId: null, answerMode: mode };
  });
}

/** A participant's own writable work and one task of its variant; `missing()` is the refusal otherwise. */
async function writableWorkWithTask(
  tx: Tx,
  actor: Actor,
  id: number,
  variantTaskId: number,
  missing: () => Error,
) {
  const w = await writableOwnWork(tx, actor, id);
  const [task] = await repo.answerTasksOf(tx, w.variantId, [variantTaskId]);
  if (!task) throw missing();
  return w;
}

/** One task's mode, stored on its answer row (created empty with seq 0 when there is none yet). */
export async function setTaskMode(
  ctx: AppContext,
  actor: Actor,
  id: number,
  variantTaskId: number,
  mode: AnswerMode,
) {
  return ctx.db.transaction(async (tx) => {
    const w = await writableWorkWithTask(tx, actor, id, variantTaskId, () =>
      notFound('This task is not part of the variant of the work'),
    );
    await assertModeAllowed(tx, w, mode);
    await repo.setAnswerMode(tx, w.id, variantTaskId, mode);
    return { examWorkId: w.id, variantTaskId, answerMode: mode };
  });
}

// ------------------------------------------------------------------ flags

/** Flags or unflags a task of one's own running work; the flags follow the work to any device. */
export async function setFlag(
  ctx: AppContext,
  actor: Actor,
  id: number,
  variantTaskId: number,
  flagged: boolean,
) {
  return ctx.db.transaction(async (tx) => {
    const w = await writableWorkWithTask(tx, actor, id, variantTaskId, () =>
      taskNotInVariant('params.variantTaskId'),
    );
    const others = (w.flags ?? []).filter((f) => f !== variantTaskId);
    const flags = flagged ? [...others, variantTaskId].sort((a, b) => a - b) : others;
    const after = await repo.updateWork(tx, w.id, { flags });
    return { examWorkId: w.id, flags: after.flags };
  });
}
