import type { AuditListFilter, AuditListRequest, AuditSortField } from '@attesta/contract';
import { and, count, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { auditEvents, users } from '../../db/schema/index.js';
import { schoolDayEnd, schoolInstant } from '../../lib/calendar.js';
import { containsPattern, listPage, orderOf } from '../../lib/list.js';

const SORT: Record<AuditSortField, SQL> = {
  at: sql`${auditEvents.at}`,
  action: sql`${auditEvents.action}`,
  userLogin: sql`${users.login}`,
};

function whereOf(f: AuditListFilter): SQL | undefined {
  const pattern = f.search ? containsPattern(f.search) : null;
  return and(
    pattern ? or(ilike(users.login, pattern), ilike(users.surname, pattern)) : undefined,
    f.userId !== undefined ? eq(auditEvents.userId, f.userId) : undefined,
    f.action !== undefined ? eq(auditEvents.action, f.action) : undefined,
    // `exam_work` is exam_work.* ; an action without a dot (login, registered) is its own area.
    f.area !== undefined
      ? or(eq(auditEvents.action, f.area), sql`${auditEvents.action} like ${`${f.area}.%`}`)
      : undefined,
    f.entity !== undefined ? eq(auditEvents.entity, f.entity) : undefined,
    f.entityId !== undefined ? eq(auditEvents.entityId, f.entityId) : undefined,
    // Days of the school calendar (Moscow), both inclusive.
    f.from !== undefined ? gte(auditEvents.at, schoolInstant(f.from)) : undefined,
    f.to !== undefined ? lt(auditEvents.at, schoolDayEnd(f.to)) : undefined,
  );
}

export async function listAuditEvents(db: DbOrTx, q: AuditListRequest) {
  const where = whereOf(q.filter ?? {});
  return listPage(
    db
      .select({
        id: auditEvents.id,
        at: auditEvents.at,
        userId: auditEvents.userId,
        userLogin: users.login,
        surname: users.surname,
        name: users.name,
        patronymic: users.patronymic,
        action: auditEvents.action,
        entity: auditEvents.entity,
        entityId: auditEvents.entityId,
        reason: auditEvents.reason,
        details: auditEvents.details,
        ip: sql<string | null>`host(${auditEvents.ip})`,
      })
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.userId))
      .where(where),
    // Newest first unless asked otherwise; the id breaks ties (several rows of one transaction).
    q.sort ? orderOf(q.sort, SORT, auditEvents.id) : [desc(auditEvents.at), desc(auditEvents.id)],
    q,
    db
      .select({ n: count() })
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.userId))
      .where(where),
  );
}

/** Each action the trail holds, with how many rows it has (the screen's choice of action). */
export const auditActionCounts = (db: DbOrTx) =>
  db
    .select({ action: auditEvents.action, count: count() })
    .from(auditEvents)
    .groupBy(auditEvents.action)
    .orderBy(auditEvents.action);
