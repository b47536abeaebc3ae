import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ExpertProfile, ExpertProfileSaveBody } from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { expertAssignments, subjects, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { assignPending, expertProfileOf } from '../expert/index.js';

/*
 * An expert's own profile: users.profile.expert = { subjectIds, parallels, maxPerDay }; other keys
 * of profile are kept. Saving re-runs assignment of queued answers, which may now match.
 */

async function loadProfile(db: DbOrTx, userId: number, lock = false) {
  const query = db.select({ profile: users.profile }).from(users).where(eq(users.id, userId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('No such user');
  return row.profile ?? {};
}

async function toView(db: DbOrTx, userId: number, profile: Record<string, unknown>): Promise<ExpertProfile> {
  const p = expertProfileOf(profile);
  const names = p.subjectIds.length
    ? await db
        .select({ id: subjects.id, name: subjects.name })
        .from(subjects)
        .where(inArray(subjects.id, p.subjectIds))
    : [];
  const [open] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(expertAssignments)
    .where(and(eq(expertAssignments.expertId, userId), eq(expertAssignments.status, 'assigned')));
  return {
    subjectIds: p.subjectIds,
    subjects: p.subjectIds.flatMap((id) => names.filter((s) => s.id === id)),
    parallels: [...p.parallels].sort((a, b) => a - b),
    maxPerDay: p.maxPerDay,
    openAssignments: Number(open?.n ?? 0),
  };
}

export async function getExpertProfile(ctx: AppContext, auth: AuthContext): Promise<ExpertProfile> {
  return toView(ctx.db, auth.userId, await loadProfile(ctx.db, auth.userId));
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
