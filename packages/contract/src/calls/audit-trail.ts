/** The calls of the audit-trail area (server/src/modules/audit-trail), each with its roles, meaning and schemas. */
import { auditActionsSchema, auditListRequestSchema, auditListResponseSchema } from '../audit.js';
import { ADMIN, type CallTable } from '../call-schema.js';

export const AUDIT_TRAIL_CALLS = {
  'POST /api/admin/audit/list': {
    roles: ADMIN,
    meaning: 'page of the audit trail: who did what, when and why',
    ours: true,
    body: auditListRequestSchema,
    response: auditListResponseSchema,
  },
  'GET /api/admin/audit/actions': {
    roles: ADMIN,
    meaning: 'the actions the audit trail holds, with their counts',
    ours: true,
    response: auditActionsSchema,
  },
} as const satisfies CallTable;
