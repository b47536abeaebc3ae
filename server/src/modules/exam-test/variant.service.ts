import type { ParticipantVariant } from '@attesta/contract';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { isPaused, tasksPaused } from '../../lib/work-clock.js';
import type { WorkRow } from './exam-work.repo.js';
import { boundTestId } from './exam-work.service.js';
import { cachedSubjectTest, variantMemo } from './content-cache.js';
import * as repo from './exam-work.repo.js';
import { reusable } from '../../plugins/serializer.js';
import { toParticipantVariant, toResolvedVariant, type TaskRow, type VariantHead } from './presenter.js';

/*
 * Variant reads. What goes out is decided by presenter.ts; this file only decides who may read
 * which variant: a participant their own work's variant, admins and experts any.
 */

export type BadContentLog = (taskId: number) => void;

type VariantParts = Awaited<ReturnType<typeof loadVariantParts>>;

/** Variant content does not change during a test: kept briefly (content-cache.ts). */
const variantParts = (db: Db, variantId: number) =>
  variantMemo.get(db, variantId, () => loadVariantParts(db, variantId)) as Promise<VariantParts>;

async function loadVariantParts(db: Db, variantId: number) {
  const variant = await repo.findVariant(db, variantId);
  if (!variant) throw notFound('No such variant');
  const st = await cachedSubjectTest(db, variant.subjectTestId);
  const head: VariantHead = {
    ...variant,
    subjectTestName: st?.name ?? '',
    instructionHtml: st?.instructionHtml ?? null,
  };
  const rows = (await repo.variantTasksOf(db, variantId)) as TaskRow[];
  const taskFiles = await repo.taskFilesOf(
    db,
    rows.map((r) => r.taskId),
  );
  return { head, rows, taskFiles };
}

async function ownLiveWork(ctx: AppContext, auth: AuthContext) {
  const w = await repo.findLiveWork(ctx.db, boundTestId(auth));
  if (!w) throw new AppError(404, 'no_exam_work', 'There is no exam work for this participant test');
  return readable(w);
}

/** While a work is paused its tasks cannot be read: the clock stands still, so must the reading. */
function readable<W extends WorkRow | null>(w: W): W {
  if (w && isPaused(w, new Date())) throw tasksPaused();
  return w;
}

/** The variant of the session's work, shuffled per work where the task asks for it. */
export async function currentVariant(ctx: AppContext, auth: AuthContext, log?: BadContentLog) {
  const w = await ownLiveWork(ctx, auth);
  return presentedFor(await variantParts(ctx.db, w.variantId), w.id, log);
}

/**
 * A variant's presentation that no work's seed changed (no task shuffles its options) and whose
 * content was all valid is the same for every work of it: kept with the memoised parts (and
 * serialized once, plugins/serializer.ts). Otherwise presented for each work, as its seed orders.
 */
const unseeded = new WeakMap<VariantParts, ParticipantVariant>();

function presentedFor(parts: VariantParts, workId: number, log?: BadContentLog): ParticipantVariant {
  const kept = unseeded.get(parts);
  if (kept) return kept;
  const presentation = { seeded: false };
  let bad = false;
  const variant = toParticipantVariant(
    parts.head,
    parts.rows,
    parts.taskFiles,
    workId,
    (taskId) => {
      bad = true;
      log?.(taskId);
    },
    presentation,
  );
  if (!presentation.seeded && !bad) unseeded.set(parts, reusable(variant));
  return variant;
}

const readsAnyVariant = (auth: AuthContext) => hasRole(auth, 'admin', 'expert');

export async function variantById(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  log?: BadContentLog,
): Promise<ParticipantVariant> {
  if (readsAnyVariant(auth)) {
    const { head, rows, taskFiles } = await variantParts(ctx.db, id);
    return toParticipantVariant(head, rows, taskFiles, null, log);
  }
  const w = await repo.findLiveWork(ctx.db, boundTestId(auth));
  if (!w || w.variantId !== id) throw forbidden('Only the variant of your own work can be opened');
  readable(w);
  return presentedFor(await variantParts(ctx.db, id), w.id, log);
}

/**
 * A variant as printed on a paper booklet, for staff keying in a paper-only form: the participant's
 * view (never a key), in the variant's own order (no work, so no shuffle).
 */
export async function paperVariant(db: Db, variantId: number, log?: BadContentLog) {
  const { head, rows, taskFiles } = await variantParts(db, variantId);
  return toParticipantVariant(head, rows, taskFiles, null, log);
}

/**
 * Keys and solutions: admins always; a participant only for their own variant after publication,
 * and only once their work is finished (keys never reach anyone who can still write).
 */
export async function resolvedVariant(ctx: AppContext, auth: AuthContext, id: number) {
  if (!hasRole(auth, 'admin')) {
    const w = await repo.findLiveWork(ctx.db, boundTestId(auth));
    if (!w || w.variantId !== id) throw forbidden('Only the variant of your own work can be opened');
    const pt = await repo.findParticipantTest(ctx.db, { id: w.participantTestId });
    if (!pt?.resultsPublished)
      throw forbidden(
        'Answers and solutions are shown after the results are published',
        'results_not_published',
      );
    if (!w.finishedAt) throw new AppError(409, 'work_not_finished', 'The work is not finished yet');
  }
  const { head, rows, taskFiles } = await variantParts(ctx.db, id);
  return toResolvedVariant(head, rows, taskFiles);
}
