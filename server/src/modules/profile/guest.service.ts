import { eq } from 'drizzle-orm';
import type { GuestProfile, GuestProfileSaveBody } from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';

/*
 * A guest's own profile: names live in users, the rest in users.profile (jsonb) under `parallel`
 * (also written by self-registration), `schoolName` and `city`. Other keys of profile are kept.
 */

const GUEST_KEYS = ['parallel', 'schoolName', 'city'] as const;

async function loadUser(db: DbOrTx, userId: number, lock = false) {
  const query = db
    .select({
      login: users.login,
      email: users.email,
      surname: users.surname,
      name: users.name,
      patronymic: users.patronymic,
      profile: users.profile,
    })
    .from(users)
    .where(eq(users.id, userId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('No such user');
  return row;
}

type UserRow = Awaited<ReturnType<typeof loadUser>>;

function toProfile(row: UserRow): GuestProfile {
  const p = row.profile ?? {};
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return {
    login: row.login,
    email: row.email,
    surname: row.surname,
    name: row.name,
    patronymic: row.patronymic,
    parallel: typeof p.parallel === 'number' ? p.parallel : null,
    schoolName: text(p.schoolName),
    city: text(p.city),
  };
}

export async function getGuestProfile(ctx: AppContext, auth: AuthContext): Promise<GuestProfile> {
  return toProfile(await loadUser(ctx.db, auth.userId));
}

/** Saves the whole guest profile (omitted optional fields are cleared); audited with what changed. */
export async function saveGuestProfile(
  ctx: AppContext,
  actor: { auth: AuthContext; ip: string | null },
  body: GuestProfileSaveBody,
): Promise<GuestProfile> {
  const saved = await ctx.db.transaction(async (tx) => {
    const before = await loadUser(tx, actor.auth.userId, true);
    const guest = {
      parallel: body.parallel ?? null,
      schoolName: body.schoolName ?? null,
      city: body.city ?? null,
    };
    const profile: Record<string, unknown> = { ...before.profile };
    for (const key of GUEST_KEYS) {
      if (guest[key] === null) delete profile[key];
      else profile[key] = guest[key];
    }
    const names = { surname: body.surname, name: body.name, patronymic: body.patronymic ?? null };
    const after: UserRow = { ...before, ...names, profile };
    const [was, now] = [toProfile(before), toProfile(after)];
    const changed = (Object.keys(now) as (keyof GuestProfile)[]).filter((k) => was[k] !== now[k]);
    if (!changed.length) return after;
    await tx
      .update(users)
      .set({ ...names, profile, updatedAt: new Date() })
      .where(eq(users.id, actor.auth.userId));
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'profile.guest.save',
      entity: 'user',
      entityId: actor.auth.userId,
      ip: actor.ip,
      details: { changed },
    });
    return after;
  });
  // The display name in live sessions comes from the names just changed.
  await ctx.sessions.invalidateUser(actor.auth.userId);
  return toProfile(saved);
}
