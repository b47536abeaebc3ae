import type {
  AnswerType,
  ScanReviewAction,
  ScanReviewItem,
  ScanReviewList,
  ScanReviewQuery,
} from '@attesta/contract';
import sharp from 'sharp';
import type { ScopeRule } from '../../auth/access.js';
import { canReachParticipantTest } from '../../auth/shared.access.js';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { savePaperScan, storedPaperAnswers, type WorkActor } from '../exam-test/index.js';
import { recognizePage } from './recognize.js';
import type { Homography } from './recognize.geometry.js';
import { cropPng, type Region } from './scans.crop.js';
import * as review from './scans.review.repo.js';
import { afterRead, formLoader, pageImage } from './scans.save.js';
import { answerValueOf, gridLegendOf, keyedValueOf, type Converted } from './scans.values.js';

/*
 * One screen for doubt (issue 25, item 3): the review items within a caller's reach, the crop of
 * each, and resolving one — accepting or setting a doubtful mark, keying a text box, identifying a
 * page, dismissing. A value a person confirms goes into the work through the keyed-form path.
 */

type ItemRow = NonNullable<Awaited<ReturnType<typeof review.findItem>>>;

const noItem = () => notFound('No such scan review item');

/**
 * Scope of an item: one tied to a sitting, whoever reaches that sitting (a coordinator its school,
 * an organizator its class or building, an admin); a page tied to none, its uploader and admins.
 */
export const reviewItemScope: ScopeRule = async (req, auth) => {
  const { id } = req.params as { id: number };
  const item = await review.findItem(req.server.ctx.db, id);
  if (!item) throw noItem();
  if (item.participantTestId === null) return item.uploaderId === auth.userId || hasRole(auth, 'admin');
  return canReachParticipantTest(req.server.ctx.db, auth, {
    schoolId: item.schoolId,
    classId: item.classId,
    buildingId: item.buildingId,
  });
};

const personName = (p: { surname: string | null; name: string | null; patronymic: string | null } | null) =>
  p?.surname ? [p.surname, p.name, p.patronymic].filter(Boolean).join(' ') : null;

/** An item as the screen gets it: an allowlist of its fields. */
function present(row: ItemRow): ScanReviewItem {
  return {
    id: row.id,
    kind: row.kind as ScanReviewItem['kind'],
    status: row.status as ScanReviewItem['status'],
    scanBatchId: row.scanBatchId,
    file: row.file,
    page: row.page,
    createdAt: row.createdAt.toISOString(),
    registrationCode: row.registrationCode ?? null,
    formPage: row.formPage ?? null,
    participantName: personName(row.student) ?? personName(row.worker),
    classId: row.classId ?? null,
    className: row.className ?? null,
    schoolName: row.schoolName ?? null,
    variantTaskId: row.variantTaskId ?? null,
    taskNumber: row.taskNumber ?? null,
    answerType: (row.answerType as AnswerType | null) ?? null,
    choices: row.choices,
    digitColumns: row.digitColumns ?? null,
    recognized: row.recognized,
    confidence: row.confidence === null ? null : Math.round(row.confidence * 100) / 100,
    doubleMark: row.doubleMark,
    savedValue: row.savedValue ?? null,
    resolution: (row.resolution as ScanReviewItem['resolution']) ?? null,
    problem: row.kind === 'unidentified' || row.kind === 'unreadable' ? (row.problem ?? null) : null,
    legend: gridLegendOf(row.answerType, row.gridContent),
    crop: row.imageFileId !== null,
    sourceFile: Boolean(row.sourceFile),
  };
}

export async function reviewList(
  ctx: AppContext,
  auth: AuthContext,
  q: ScanReviewQuery,
): Promise<ScanReviewList> {
  const { items, total, counts } = await review.listItems(ctx.db, auth, q);
  return {
    counts: counts.map((c) => ({
      classId: c.classId ?? null,
      className: c.className ?? null,
      schoolName: c.schoolName ?? null,
      open: Number(c.open),
    })),
    items: items.map(present),
    total: Number(total),
  };
}

/** The crop of an item: its task's area, its text box, or its whole page (PNG). */
export async function reviewCrop(ctx: AppContext, id: number): Promise<Buffer> {
  const item = await review.findItem(ctx.db, id);
  if (!item) throw noItem();
  const png = await pageImage(ctx, item.imageFileId);
  return cropPng(png, (item.transform as Homography | null) ?? null, (item.region as Region | null) ?? null);
}

/**
 * The uploaded file of an item whose page could not be decoded (kept for a person to look at),
 * as uploaded; 404 when the item has none (its page was decoded, or its files were cleaned up).
 */
export async function reviewSourceFile(ctx: AppContext, id: number) {
  const item = await review.findItem(ctx.db, id);
  if (!item) throw noItem();
  const file = await review.sourceFileOf(ctx.db, item.pageId);
  const bytes = file && (await ctx.files.read(ctx.db, file));
  if (!file || !bytes) throw notFound('No file is kept for this item');
  return { name: file.name, mime: file.mime, bytes };
}

/** Which kinds of item an action settles. */
const ACTION_KINDS: Record<ScanReviewAction['action'], readonly string[]> = {
  accept: ['doubtful', 'replace'],
  set: ['doubtful'],
  key: ['key_text'],
  identify: ['unidentified'],
  dismiss: ['unidentified', 'unreadable', 'replace'],
};

const RESOLUTION = {
  accept: 'accepted',
  set: 'set',
  key: 'keyed',
  identify: 'identified',
  dismiss: 'dismissed',
} as const;

const invalid = (path: string, message: string) =>
  badRequest('validation_failed', message, [{ path, message }]);

/**
 * Resolves an open item (the scope rule has checked the caller reaches it). An action another kind
 * of item does not take is 400 `validation_failed` on `body.action`; a value the task cannot take
 * 400 on `body.value`; an item resolved already 409 `conflict`. The item is claimed before its
 * value is saved (two people cannot both save it) and reopened when the save is refused.
 */
export async function resolveReviewItem(
  ctx: AppContext,
  actor: WorkActor,
  id: number,
  action: ScanReviewAction,
): Promise<ScanReviewItem> {
  const item = await review.findItem(ctx.db, id);
  if (!item) throw noItem();
  if (!ACTION_KINDS[action.action].includes(item.kind))
    throw invalid('body.action', `A ${item.kind} item does not take ${action.action}`);
  if (item.status !== 'open') throw conflict('conflict', 'This review item has been resolved already');

  let save: (() => Promise<void>) | null = null;
  if (action.action === 'accept' || action.action === 'set') {
    const values = action.action === 'accept' ? item.recognized : action.value;
    const allowed = new Set(item.choices.map((c) => c.value));
    if (action.action === 'set' && values.some((v) => !allowed.has(v)))
      throw invalid('body.value', 'Not a bubble of this task');
    const converted = await convert(ctx, item, (type, stored) => answerValueOf(type, values, stored));
    save = async () => {
      await saveValue(ctx, actor, item, converted);
      await review.recordScanSaved(ctx.db, item.examWorkId!, item.pageId, [
        { variantTaskId: item.variantTaskId!, value: values },
      ]);
    };
  } else if (action.action === 'key') {
    const text = action.text.trim();
    const converted = await convert(ctx, item, (type, stored) => keyedValueOf(type, text, item.part, stored));
    save = () => saveValue(ctx, actor, item, converted);
  } else if (action.action === 'identify') {
    return identify(ctx, actor, item, action);
  }

  if (!(await review.resolveItem(ctx.db, id, RESOLUTION[action.action], actor.auth.userId)))
    throw conflict('conflict', 'This review item has been resolved already');
  if (save)
    try {
      await save();
    } catch (error) {
      await review.reopenItem(ctx.db, id);
      throw error;
    }
  return present((await review.findItem(ctx.db, id))!);
}

/** The answer value of an item's task, from what a person confirmed; 400 when the task cannot take it. */
async function convert(
  ctx: AppContext,
  item: ItemRow,
  make: (type: AnswerType, stored: unknown) => Converted,
): Promise<unknown> {
  if (item.examWorkId === null || item.variantTaskId === null || !item.answerType)
    throw invalid('body.action', 'This item has no task');
  const stored = await storedPaperAnswers(ctx, item.examWorkId, [item.variantTaskId]);
  const converted = make(item.answerType as AnswerType, stored.get(item.variantTaskId)?.value);
  if (!converted.ok) throw invalid('body.value', converted.problem);
  return converted.value;
}

/** Saves one task's value through the keyed-form path; a value the task refuses is 400 as there. */
async function saveValue(ctx: AppContext, actor: WorkActor, item: ItemRow, value: unknown): Promise<void> {
  const { results } = await savePaperScan(ctx, actor, {
    registrationCode: item.registrationCode!,
    examWorkId: item.examWorkId!,
    answers: [{ variantTaskId: item.variantTaskId!, value }],
  });
  // Saves of the same task kept overtaking this one: it is not saved, and the item stays open.
  if (results.some((r) => r.status === 'stale'))
    throw conflict('stale_sequence', 'The answer was changed meanwhile: try again');
}

/**
 * A person names the form and page of a page whose code could not be read: the page is read again
 * as that page (upright, with the form's layout now) and then goes as any page read does. A code
 * of no form the caller reaches, or a page the form does not have, is 400 on its field.
 */
async function identify(
  ctx: AppContext,
  actor: WorkActor,
  item: ItemRow,
  action: Extract<ScanReviewAction, { action: 'identify' }>,
): Promise<ScanReviewItem> {
  const registrationCode = action.registrationCode.trim().toUpperCase();
  const work = await review.workOfRegistration(ctx.db, registrationCode);
  const form = work && (await formLoader(ctx, actor.auth)(work.examWorkId));
  if (!work || !form) throw invalid('body.registrationCode', 'No form of yours has this registration code');
  const layoutPage = form.layout.pages[action.formPage - 1];
  if (!layoutPage) throw invalid('body.formPage', `The form has ${form.layout.pages.length} pages`);
  const png = await pageImage(ctx, item.imageFileId);
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const code = { registrationCode, examWorkId: work.examWorkId, page: action.formPage, layoutVersion: null };
  const read = await recognizePage(
    { width: info.width, height: info.height, data },
    () => ({
      page: layoutPage,
      layoutVersion: form.layoutVersion,
      answerTypes: form.answerTypes,
    }),
    code,
  );
  if (!(await review.resolveItem(ctx.db, item.id, 'identified', actor.auth.userId)))
    throw conflict('conflict', 'This review item has been resolved already');
  await review.updatePage(ctx.db, item.pageId, {
    status: read.status,
    problem: read.problem,
    registrationCode,
    examWorkId: work.examWorkId,
    formPage: action.formPage,
    layoutVersion: read.transform ? form.layoutVersion : null,
    answers: read.tasks.map((t) => ({
      variantTaskId: t.variantTaskId,
      value: t.value,
      confidence: t.confidence,
    })),
    transform: read.transform ? [...read.transform] : null,
  });
  await afterRead(ctx, actor, { id: item.pageId, read, form });
  return present((await review.findItem(ctx.db, item.id))!);
}
