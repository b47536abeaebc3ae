import { auditEvents } from '../db/schema/index.js';
import type { DbOrTx } from '../db/client.js';

export interface AuditEntry {
  userId: number | null | undefined;
  action: string;
  entity?: string;
  entityId?: string | number;
  reason?: string | null;
  details?: Record<string, unknown>;
  ip?: string | null;
}

/** Records who did what, when and why. Call inside the transaction of the change itself. */
export async function audit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    userId: entry.userId ?? null,
    action: entry.action,
    entity: entry.entity ?? null,
    entityId: entry.entityId === undefined ? null : String(entry.entityId),
    reason: entry.reason ?? null,
    details: entry.details ?? null,
    ip: entry.ip ?? null,
  });
}
