import type { Actor } from '../../auth/actor.js';
import { randomBytes } from 'node:crypto';
import { alias } from 'drizzle-orm/pg-core';
import { desc, eq, isNull, and } from 'drizzle-orm';
import type { ApiKey, ApiKeyCreateBody, ApiKeyCreated, ApiKeyScope } from '@attesta/contract';
import type { Db, DbOrTx } from '../../db/client.js';
import { apiKeys, oo, userRoles, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { randomToken, sha256 } from '../../lib/tokens.js';

/*
 * API keys of the integration role (docs/integrations.md). A key is `atk_<prefix>_<secret>`: the
 * prefix is public (it finds the row), only the SHA-256 of the secret is stored, and the whole key
 * is answered once, when it is made. Each key acts as its own user with the `integration` role
 * (login `integration-<prefix>`, no password), the user the session store resolves the key to; a
 * key's scopes and ОО say what that user may read (integration.access.ts).
 */

export type { Actor };

const creators = alias(users, 'creators');

async function keyRows(db: DbOrTx, id?: number): Promise<ApiKey[]> {
  const rows = await db
    .select({
      key: apiKeys,
      userLogin: users.login,
      ooName: oo.name,
      createdByLogin: creators.login,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .leftJoin(oo, eq(oo.id, apiKeys.ooId))
    .leftJoin(creators, eq(creators.id, apiKeys.createdBy))
    .where(id === undefined ? undefined : eq(apiKeys.id, id))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((r) => ({
    id: r.key.id,
    name: r.key.name,
    prefix: r.key.prefix,
    userId: r.key.userId,
    userLogin: r.userLogin,
    scopes: r.key.scopes as ApiKeyScope[],
    ooId: r.key.ooId,
    ooName: r.ooName,
    createdAt: r.key.createdAt.toISOString(),
    createdByLogin: r.createdByLogin,
    lastUsedAt: r.key.lastUsedAt?.toISOString() ?? null,
    revokedAt: r.key.revokedAt?.toISOString() ?? null,
  }));
}

/** Every key, newest first, revoked ones too; never a secret (none is stored). */
export async function listKeys(db: Db): Promise<{ items: ApiKey[] }> {
  return { items: await keyRows(db) };
}

/** Makes a key and its integration user; the answer holds the whole key, which is never shown again. */
export async function createKey(db: Db, actor: Actor, body: ApiKeyCreateBody): Promise<ApiKeyCreated> {
  const ooId = body.ooId ?? null;
  if (ooId !== null) {
    const [found] = await db.select({ id: oo.id }).from(oo).where(eq(oo.id, ooId));
    if (!found)
      throw badRequest('not_found', 'no such ОО', [
        { path: 'body.ooId', message: 'unknown ОО', code: 'not_found' },
      ]);
  }
  const prefix = randomBytes(6).toString('hex');
  const secret = randomToken(32);
  const id = await db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ login: `integration-${prefix}`, name: body.name, profile: { apiKey: true } })
      .returning({ id: users.id });
    await tx.insert(userRoles).values({ userId: user!.id, role: 'integration' });
    const [key] = await tx
      .insert(apiKeys)
      .values({
        userId: user!.id,
        name: body.name,
        prefix,
        keyHash: sha256(secret),
        scopes: [...body.scopes].sort(),
        ooId,
        createdBy: actor.auth.userId,
      })
      .returning({ id: apiKeys.id });
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'api_key.create',
      entity: 'api_key',
      entityId: key!.id,
      details: { name: body.name, prefix, scopes: [...body.scopes].sort(), ooId },
      ip: actor.ip,
    });
    return key!.id;
  });
  const [key] = await keyRows(db, id);
  return { key: key!, secret: `atk_${prefix}_${secret}` };
}

/**
 * Revokes a key: from now on it is refused (401) on every instance, since the session store reads
 * the key's row on each request. Revoking a revoked key answers it unchanged.
 */
export async function revokeKey(db: Db, actor: Actor, id: number): Promise<ApiKey> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, id)).for('update');
    if (!row) throw notFound('no such API key');
    const [revoked] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning({ userId: apiKeys.userId, prefix: apiKeys.prefix });
    if (revoked)
      await audit(tx, {
        userId: actor.auth.userId,
        action: 'api_key.revoke',
        entity: 'api_key',
        entityId: id,
        details: { prefix: revoked.prefix },
        ip: actor.ip,
      });
  });
  const [key] = await keyRows(db, id);
  return key!;
}

/** The scopes and ОО of the key a request came with (`api_key:<id>`), or null if not a key. */
export async function keyOfSession(
  db: DbOrTx,
  sessionId: string,
): Promise<{ id: number; scopes: ApiKeyScope[]; ooId: number | null } | null> {
  const m = /^api_key:(\d+)$/.exec(sessionId);
  if (!m) return null;
  const [row] = await db
    .select({ id: apiKeys.id, scopes: apiKeys.scopes, ooId: apiKeys.ooId, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, Number(m[1])), isNull(apiKeys.revokedAt)));
  if (!row) return null;
  // The last use, written at most once a minute so that a busy client does not write every call.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000)
    await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, row.id));
  return { id: row.id, scopes: row.scopes as ApiKeyScope[], ooId: row.ooId };
}
