import { eq, inArray } from 'drizzle-orm';
import type { ExpertProfile, ExpertProfileSaveBody } from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { subjects, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { assignPending, expertProfileOf, expertProfileView } from '../expert/index.js';

/*
 * An expert's own profile: users.profile.expert = { subjectIds, subjectTestIds, parallels, maxPerDay };
 * other keys of profile are kept. The expert changes subjects, grades and the daily limit; the
 * subject tests are the admin's assignment (kept as they are). Saving re-runs assignment of queued
 * answers, which may now match.
 */

async function loadProfile(db: DbOrTx, userId: number, lock = false) {
  const query = db.select({ profile: users.profile }).from(users).where(eq(users.id, userId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('No such user');
  return row.profile ?? {};
}

export async function getExpertProfile(ctx: AppContext, auth: AuthContext): Promise<ExpertProfile> {
  return expertProfileView(ctx.db, auth.userId, await loadProfile(ctx.db, auth.userId));
}

/** Saves the whole expert profile (unknown subjects: 400), audited; then assigns queued answers. */
export async function saveExpertProfile(
  ctx: AppContext,
  actor: { auth: AuthContext; ip: string | null },
  body: ExpertProfileSaveBody,
): Promise<ExpertProfile> {
  await ctx.db.transaction(async (tx) => {
    if (body.subjectIds.length) {
      const known = await tx
        .select({ id: subjects.id })
        .from(subjects)
        .where(inArray(subjects.id, body.subjectIds));
      const missing = body.subjectIds.filter((id) => !known.some((k) => k.id === id));
      if (missing.length)
        throw badRequest('unknown_subject', `No such subject: ${missing.join(', ')}`, [
          { path: 'body.subjectIds', message: `unknown: ${missing.join(', ')}` },
        ]);
    }
    const before = await loadProfile(tx, actor.auth.userId, true);
    const expert = {
      subjectIds: body.subjectIds,
      // The subject tests an admin assigned stay: an expert does not take themselves off a test.
      subjectTestIds: expertProfileOf(before).subjectTestIds,
      parallels: [...body.parallels].sort((a, b) => a - b),
      maxPerDay: body.maxPerDay ?? null,
    };
    await tx
      .update(users)
      .set({ profile: { ...before, expert }, updatedAt: new Date() })
      .where(eq(users.id, actor.auth.userId));
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'profile.expert.save',
      entity: 'user',
      entityId: actor.auth.userId,
      ip: actor.ip,
      details: { before: expertProfileOf(before), after: expert },
    });
  });
  await assignPending(ctx.db);
  return getExpertProfile(ctx, actor.auth);
}
