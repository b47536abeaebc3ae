import { eq } from 'drizzle-orm';
import { feedbackBodySchema } from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import { feedback } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { badRequest } from '../../lib/errors.js';
import {
  checkFile,
  lockedUploadAllowance,
  storeFiles,
  uploadAllowance,
  type IncomingFile,
} from '../files/index.js';
import { quotaExceeded } from '../../lib/multipart.js';

export interface FeedbackInput {
  /** The JSON body, or the text fields of a multipart form. */
  fields: unknown;
  files: IncomingFile[];
}

function parseFields(fields: unknown): { text: string; page: string | null } {
  const parsed = feedbackBodySchema.safeParse(fields ?? {});
  if (parsed.success) return { text: parsed.data.text, page: parsed.data.page || null };
  const errors = parsed.error.issues.map((i) => ({
    path: ['body', ...i.path].join('.'),
    message: i.message,
  }));
  throw badRequest(
    'validation_failed',
    `Invalid body: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`,
    errors,
  );
}

/** A feedback attachment counts against the sender's storage quota like any upload. */
export const feedbackAllowance = (ctx: AppContext, auth: AuthContext) =>
  uploadAllowance(ctx.db, auth, ctx.config.uploadQuotaBytes);

/**
 * Stores a feedback message about `subjectId` (e.g. a task) with at most one file. Counted per user
 * against the feedback limit (429 beyond it); a refused message is not counted.
 */
export async function sendFeedback(
  ctx: AppContext,
  actor: { auth: AuthContext; ip: string | null },
  subjectId: number,
  input: FeedbackInput,
) {
  // Taken before the message is looked at (concurrent sends cannot all slip under the limit);
  // a refused message gives its point back.
  const reservation = await ctx.throttle.reserve({ feedbackUser: String(actor.auth.userId) });
  try {
    return await storeFeedback(ctx, actor, subjectId, input);
  } catch (err) {
    await reservation.release();
    throw err;
  }
}

async function storeFeedback(
  ctx: AppContext,
  actor: { auth: AuthContext; ip: string | null },
  subjectId: number,
  input: FeedbackInput,
) {
  const { text, page } = parseFields(input.fields);
  if (input.files.length > 1) throw badRequest('too_many_files', 'Attach at most one file');
  const file = input.files[0] ? await checkFile(input.files[0]) : null;

  // Its bytes go to the file storage before the row commits, and are removed if it does not.
  return ctx.files.staged((put) =>
    ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(feedback)
        .values({ userId: actor.auth.userId, subjectId, text, page })
        .returning({ id: feedback.id, createdAt: feedback.createdAt });
      let fileId: number | null = null;
      if (file) {
        // Counted again under the sender's storage lock: concurrent uploads cannot together pass.
        const { quotaBytes: room } = await lockedUploadAllowance(tx, actor.auth, ctx.config.uploadQuotaBytes);
        if (room !== null && file.data.length > room) throw quotaExceeded();
        const [stored] = await storeFiles(
          tx,
          put,
          { ownerType: 'feedback', ownerId: row!.id, createdBy: actor.auth.userId },
          [file],
        );
        fileId = stored!.id;
        await tx.update(feedback).set({ fileId }).where(eq(feedback.id, row!.id));
      }
      await audit(tx, {
        userId: actor.auth.userId,
        action: 'feedback.send',
        entity: 'feedback',
        entityId: row!.id,
        details: { subjectId, fileId },
        ip: actor.ip,
      });
      return { id: row!.id, fileId, createdAt: row!.createdAt.toISOString() };
    }),
  );
}
