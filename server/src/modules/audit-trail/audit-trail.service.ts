import type { AuditActions, AuditEvent, AuditListRequest, ListResponse } from '@attesta/contract';
import type { Db } from '../../db/client.js';
import * as repo from './audit-trail.repo.js';

const fullName = (r: { surname: string | null; name: string | null; patronymic: string | null }) =>
  [r.surname, r.name, r.patronymic].filter(Boolean).join(' ') || null;

/** A page of the audit trail, newest first by default. */
export async function listAudit(db: Db, q: AuditListRequest): Promise<ListResponse<AuditEvent>> {
  const page = await repo.listAuditEvents(db, q);
  return {
    total: page.total,
    items: page.items.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      userId: r.userId,
      userLogin: r.userLogin,
      userName: fullName(r),
      action: r.action,
      entity: r.entity,
      entityId: r.entityId,
      reason: r.reason,
      details: r.details ?? null,
      ip: r.ip,
    })),
  };
}

export async function auditActions(db: Db): Promise<AuditActions> {
  return { actions: await repo.auditActionCounts(db) };
}
