import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contractRoute } from '../../auth/access.js';
import * as service from './audit-trail.service.js';

/**
 * `/api/admin/audit/*`: the audit trail for admins (docs/audit.md) — who did what, when, on which
 * record and why: sign-ins, pauses, time changes, publication, grading, imports, every audited
 * write. Read only; the rows are written by each change's own transaction (lib/audit.ts).
 */
const tags = ['admin-audit'];

export const auditTrailRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  app.route({
    ...contractRoute('POST /api/admin/audit/list', {
      summary: 'Page of the audit trail',
      description:
        'Filter: `search` (part of the login or surname of who acted), `userId`, `action` (one action), ' +
        '`area` (every action before the first dot: `exam_work`, `content`, …), `entity` and `entityId` ' +
        '(the record acted on), `from` and `to` (days, Moscow, inclusive). Newest first; sort fields ' +
        '`at`, `action`, `userLogin`.',
      tags,
      errors: [400, 401, 403],
    }),
    handler: (req) => service.listAudit(db, req.body),
  });

  app.route({
    ...contractRoute('GET /api/admin/audit/actions', {
      summary: 'The actions in the audit trail, with their row counts',
      tags,
      errors: [401, 403],
    }),
    handler: () => service.auditActions(db),
  });
};
