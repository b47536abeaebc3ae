import { sameJson, type AnswerType, type BlankLayoutPage } from '@attesta/contract';
import { canReachParticipantTest } from '../../auth/shared.access.js';
import type { AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import { eq } from 'drizzle-orm';
import { files } from '../../db/schema/index.js';
import { AppError, notFound } from '../../lib/errors.js';
import {
  attachPaperScanFile,
  attachPaperScanText,
  blankFormForScan,
  findWork,
  finishPaperWork,
  paperScanState,
  savePaperScan,
  storedPaperAnswers,
  variantTasksOf,
  type BlankFormForScan,
  type WorkActor,
} from '../exam-test/index.js';
import { REVIEW_BELOW, type PageRecognition } from './recognize.js';
import type { Homography } from './recognize.geometry.js';
import { boxRegion, cropPng, inkShare, inset, taskRegion } from './scans.crop.js';
import * as review from './scans.review.repo.js';
import { answerValueOf, bubbleLabel } from './scans.values.js';

/*
 * What a read page leaves behind (issue 25, items 2 and 3): its clear answers saved into the work
 * through the keyed-form path (exam-test savePaperScan), everything else a review item — a doubtful
 * or double mark, a text box to key in, a page not identified or not read, and a newer scan that
 * reads an answer a scan already saved otherwise. Nothing doubtful is saved before a person says so.
 */

/** A form as saving and review need it: the reader's form, the sitting, the tasks' numbers and content. */
export interface ScanForm extends BlankFormForScan {
  examWorkId: number;
  participantTestId: number;
  tasks: Map<number, { number: number; content: Record<string, unknown> }>;
}

/**
 * The forms a caller reaches, by work (cached for a batch): a live work within the caller's reach
 * (an organizator's classes, a coordinator's school, an admin any); anything else is null.
 */
export function formLoader(ctx: AppContext, auth: AuthContext) {
  const cache = new Map<number, Promise<ScanForm | null>>();
  return (examWorkId: number, { fresh = false }: { fresh?: boolean } = {}): Promise<ScanForm | null> => {
    let loading = fresh ? undefined : cache.get(examWorkId);
    if (!loading) {
      loading = (async () => {
        const form = await blankFormForScan(ctx, examWorkId);
        if (!form || !(await canReachParticipantTest(ctx.db, auth, form.place))) return null;
        const work = await findWork(ctx.db, examWorkId);
        if (!work) return null;
        // Numbers follow the variant's order (blanks.service.ts loadBlankForm); only content is used.
        const all = await variantTasksOf(ctx.db, work.variantId);
        const tasks = new Map(
          all.map((t, i) => [
            t.variantTaskId,
            { number: i + 1, content: t.content as Record<string, unknown> },
          ]),
        );
        return { ...form, examWorkId, participantTestId: form.place.participantTestId, tasks };
      })();
      cache.set(examWorkId, loading);
    }
    return loading;
  };
}

/**
 * The layout page a scanned page was read with: its layout version's (the form as printed), or the
 * form's layout now for a page read before versions were kept.
 */
export function layoutPageOf(
  form: ScanForm,
  layoutVersion: string | null,
  formPage: number | null,
): BlankLayoutPage | undefined {
  const layout = (layoutVersion && form.layouts.get(layoutVersion)) || form.layout;
  return layout.pages[(formPage ?? 0) - 1];
}

const DIGIT = /^(\d+):\d$/;

/** The review fields of a task of a form: its number, type, bubbles with labels, digit columns. */
function taskFields(form: ScanForm, page: BlankLayoutPage | undefined, variantTaskId: number) {
  const type = form.answerTypes.get(variantTaskId) ?? null;
  const task = form.tasks.get(variantTaskId);
  const bubbles = page?.bubbles.filter((b) => b.variantTaskId === variantTaskId) ?? [];
  const columns = new Set(bubbles.map((b) => DIGIT.exec(b.value)?.[1]).filter((c) => c !== undefined));
  return {
    examWorkId: form.examWorkId,
    participantTestId: form.participantTestId,
    variantTaskId,
    taskNumber: task?.number ?? null,
    answerType: type,
    choices: bubbles.map((b) => ({
      value: b.value,
      label: type && task ? bubbleLabel(type, task.content, b.value) : b.value,
    })),
    digitColumns: (type === 'number' || type === 'digit_sequence') && columns.size ? columns.size : null,
    region: page ? taskRegion(page, variantTaskId, type) : null,
  };
}

export interface ReadPage {
  id: number;
  read: PageRecognition;
  form: ScanForm | null;
}

/**
 * The review items of a page just read: the page itself when it was not identified or not read;
 * else its doubtful tasks and its text boxes. Then the clear answers of the work's pages are saved
 * when the work takes them (applyWork).
 */
export async function afterRead(ctx: AppContext, actor: WorkActor, page: ReadPage): Promise<void> {
  const { read, form } = page;
  if (read.status === 'unidentified' || !form || !read.code) {
    await review.insertItems(ctx.db, [{ kind: 'unidentified', pageId: page.id }]);
    return;
  }
  const layoutPage = layoutPageOf(form, read.code.layoutVersion ?? form.layoutVersion, read.code.page);
  if (!read.transform) {
    await review.insertItems(ctx.db, [
      {
        kind: 'unreadable',
        pageId: page.id,
        examWorkId: form.examWorkId,
        participantTestId: form.participantTestId,
      },
    ]);
    return;
  }
  const doubtful = read.tasks
    .filter((t) => t.confidence < REVIEW_BELOW || t.doubleMark)
    .map((t) => ({
      kind: 'doubtful',
      pageId: page.id,
      ...taskFields(form, layoutPage, t.variantTaskId),
      recognized: t.value,
      confidence: t.confidence,
      doubleMark: t.doubleMark,
    }));
  const texts = (layoutPage?.boxes ?? [])
    .filter((b) => b.kind === 'text')
    .map((b) => ({
      kind: 'key_text',
      pageId: page.id,
      ...taskFields(form, layoutPage, b.variantTaskId),
      part: b.part ?? null,
      choices: [],
      region: boxRegion(b),
    }));
  await review.insertItems(ctx.db, [...doubtful, ...texts]);
  await applyWork(ctx, actor, form);
}

type Reading = { variantTaskId: number; value: string[]; confidence: number };

/**
 * Saves what the work's scanned pages read clearly, once the work takes keyed answers: a finished
 * work (or one past its deadline) at once; a paper work still open when every page of its form has
 * been read — it is finished then, as a paper-only form's work is; a work still written online
 * waits (its pages stay unapplied until it finishes: scans.apply.ts). A task a scan saved before is
 * not overwritten: a differing reading becomes a `replace` item.
 */
export async function applyWork(ctx: AppContext, actor: WorkActor, form: ScanForm): Promise<void> {
  const state = await paperScanState(ctx, form.examWorkId);
  if (state === 'gone' || state === 'open_online') return;
  const pages = await review.readPagesOf(ctx.db, form.examWorkId);
  if (state === 'open_paper') {
    const read = new Set(pages.map((p) => p.formPage));
    if (!form.layout.pages.every((p) => read.has(p.page))) return;
    await finishPaperWork(ctx, actor, form.examWorkId);
  }
  const saved = await review.scanSavedOf(ctx.db, form.examWorkId);
  for (const page of pages.filter((p) => !p.applied)) {
    const layoutPage = layoutPageOf(form, page.layoutVersion, page.formPage);
    const toSave: Reading[] = [];
    const replaces: Reading[] = [];
    for (const a of page.answers as Reading[]) {
      if (a.confidence < REVIEW_BELOW) continue;
      const before = saved.get(a.variantTaskId);
      if (before) {
        if (!sameJson(before, a.value)) replaces.push(a);
      } else if (a.value.length) toSave.push(a);
    }
    await review.insertItems(
      ctx.db,
      replaces.map((a) => ({
        kind: 'replace',
        pageId: page.id,
        ...taskFields(form, layoutPage, a.variantTaskId),
        recognized: a.value,
        confidence: a.confidence,
        savedValue: saved.get(a.variantTaskId)!,
      })),
    );
    try {
      const done = await saveReadings(ctx, actor, form, page.id, layoutPage, toSave);
      for (const a of done) saved.set(a.variantTaskId, a.value);
      // What this newer scan read clearly settles an older scan's doubt about the same task.
      await review.closeOlderDoubtful(
        ctx.db,
        { id: page.id, examWorkId: form.examWorkId, formPage: page.formPage },
        [...done, ...replaces].map((a) => a.variantTaskId),
        actor.auth.userId,
      );
      for (const a of await attachAnswerAreas(ctx, actor, form, page, layoutPage, saved))
        saved.set(a.variantTaskId, a.value);
    } catch (error) {
      // The work stopped taking keyed answers meanwhile (deleted, reopened): its pages wait.
      if (error instanceof AppError) return;
      throw error;
    }
    await review.markApplied(ctx.db, page.id);
  }
}

/** The stored page image (grey PNG) a page was read from. */
export async function pageImage(ctx: AppContext, fileId: number | null): Promise<Buffer> {
  if (fileId === null) throw notFound('The page image is not kept');
  const [file] = await ctx.db
    .select({ id: files.id, storageKey: files.storageKey, size: files.size })
    .from(files)
    .where(eq(files.id, fileId));
  const bytes = file && (await ctx.files.read(ctx.db, file));
  if (!bytes) throw notFound('The page image is not kept');
  return bytes;
}

/** Dark pixels inside an answer area that mean something was written there (not scanner noise). */
const WRITTEN = 0.002;

/** Answer types whose answer area (`essay` box) is the answer: its scan goes to the experts. */
const AREA_TYPES = new Set<string>(['file', 'extended_text']);

/**
 * The answer areas of file and extended-text tasks on a page (`essay` boxes): one written in is
 * cut out and attached to the task's answer, so experts grade the scan as they grade an uploaded
 * photo — a file task's as its answer file (saveanswers_with_files), an extended-text task's beside
 * a placeholder text (exam-test attachPaperScanText; the experts' view shows the files of any
 * answer). An empty area, or a task answered already, is left alone.
 */
async function attachAnswerAreas(
  ctx: AppContext,
  actor: WorkActor,
  form: ScanForm,
  page: { id: number; imageFileId: number | null; transform: number[] | null },
  layoutPage: BlankLayoutPage | undefined,
  saved: ReadonlyMap<number, string[]>,
): Promise<{ variantTaskId: number; value: string[] }[]> {
  const areas = (layoutPage?.boxes ?? []).filter(
    (b) =>
      b.kind === 'essay' &&
      AREA_TYPES.has(form.answerTypes.get(b.variantTaskId)!) &&
      !saved.has(b.variantTaskId),
  );
  if (!areas.length || !page.transform) return [];
  const png = await pageImage(ctx, page.imageFileId);
  const transform = page.transform as unknown as Homography;
  const attached: { variantTaskId: number; value: string[] }[] = [];
  for (const box of areas) {
    if ((await inkShare(png, transform, inset(box, 4))) < WRITTEN) continue;
    try {
      const attach =
        form.answerTypes.get(box.variantTaskId) === 'file' ? attachPaperScanFile : attachPaperScanText;
      const done = await attach(ctx, actor, {
        registrationCode: form.registrationCode,
        examWorkId: form.examWorkId,
        variantTaskId: box.variantTaskId,
        png: await cropPng(png, transform, boxRegion(box)),
      });
      if (done) attached.push({ variantTaskId: box.variantTaskId, value: ['file'] });
    } catch (error) {
      // A task that takes no PNG (415) or no more bytes (413): its area waits for a person's upload.
      if (!(error instanceof AppError)) throw error;
    }
  }
  await review.recordScanSaved(ctx.db, form.examWorkId, page.id, attached);
  return attached;
}

/** The path of a refused answer in a saveanswers body: its index. */
const ANSWER_PATH = /^body\.answers\.(\d+)\./;

/**
 * Saves layout readings of a page as answers (converted to the task's answer type). A reading
 * that makes no valid answer (a value the task refuses: more choices than it takes, say) is sent
 * to review instead, and the rest is saved. Answers the save path applies are recorded as saved by
 * this page.
 */
async function saveReadings(
  ctx: AppContext,
  actor: WorkActor,
  form: ScanForm,
  pageId: number,
  layoutPage: BlankLayoutPage | undefined,
  list: Reading[],
): Promise<Reading[]> {
  if (!list.length) return [];
  const stored = await storedPaperAnswers(
    ctx,
    form.examWorkId,
    list.map((a) => a.variantTaskId),
  );
  const refused: Reading[] = [];
  let pending: { reading: Reading; value: unknown }[] = [];
  for (const reading of list) {
    const type = form.answerTypes.get(reading.variantTaskId) as AnswerType;
    const converted = answerValueOf(type, reading.value, stored.get(reading.variantTaskId)?.value);
    if (converted.ok) pending.push({ reading, value: converted.value });
    else refused.push(reading);
  }
  let saved: Reading[] = [];
  while (pending.length) {
    try {
      const { results } = await savePaperScan(ctx, actor, {
        registrationCode: form.registrationCode,
        examWorkId: form.examWorkId,
        answers: pending.map((p) => ({ variantTaskId: p.reading.variantTaskId, value: p.value })),
      });
      const applied = new Set(results.filter((r) => r.status === 'saved').map((r) => r.variantTaskId));
      saved = pending.map((p) => p.reading).filter((r) => applied.has(r.variantTaskId));
      break;
    } catch (error) {
      const at =
        error instanceof AppError && error.status === 400
          ? ANSWER_PATH.exec(error.errors?.[0]?.path ?? '')
          : null;
      if (!at) throw error;
      refused.push(pending[Number(at[1])]!.reading);
      pending = pending.filter((_, i) => i !== Number(at[1]));
    }
  }
  await review.recordScanSaved(
    ctx.db,
    form.examWorkId,
    pageId,
    saved.map((a) => ({ variantTaskId: a.variantTaskId, value: a.value })),
  );
  await review.insertItems(
    ctx.db,
    refused.map((a) => ({
      kind: 'doubtful',
      pageId,
      ...taskFields(form, layoutPage, a.variantTaskId),
      recognized: a.value,
      confidence: a.confidence,
    })),
  );
  return saved;
}

export { taskFields };
