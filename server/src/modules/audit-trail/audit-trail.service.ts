import {
  auditRefKey,
  type AuditActions,
  type AuditEvent,
  type AuditListRequest,
  type ListResponse,
} from '@attesta/contract';
import type { Db } from '../../db/client.js';
import { collectRefs, readRefNames, type RefWanted } from './audit-refs.js';
import * as repo from './audit-trail.repo.js';

const fullName = (r: { surname: string | null; name: string | null; patronymic: string | null }) =>
  [r.surname, r.name, r.patronymic].filter(Boolean).join(' ') || null;

/** A page of the audit trail, newest first by default, with the names of the records each row points at. */
export async function listAudit(db: Db, q: AuditListRequest): Promise<ListResponse<AuditEvent>> {
  const page = await repo.listAuditEvents(db, q);
  const wanted: RefWanted = new Map();
  for (const r of page.items) collectRefs(wanted, r);
  const names = await readRefNames(db, wanted);
  return {
    total: page.total,
    items: page.items.map((r) => {
      const one: RefWanted = new Map();
      collectRefs(one, r);
      const refs: Record<string, string> = {};
      for (const [kind, ids] of one)
        for (const id of ids) {
          const key = auditRefKey(kind, id);
          const name = names.get(key);
          if (name !== undefined) refs[key] = name;
        }
      return {
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
        refs,
      };
    }),
  };
}

export async function auditActions(db: Db): Promise<AuditActions> {
  return { actions: await repo.auditActionCounts(db) };
}
