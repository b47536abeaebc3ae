/** The audit trail's calls (under /api/admin/audit). */
import type { AuditListRequest } from '@attesta/contract';
import { call } from '../../../lib/call';

const inline = { suppressRedirect: true } as const;

export const auditKeys = {
  list: ['admin', 'audit'] as const,
  actions: ['admin', 'audit', 'actions'] as const,
};

export const listAudit = (body: AuditListRequest) => call('POST /api/admin/audit/list', { body }, inline);
export const auditActions = () => call('GET /api/admin/audit/actions', {}, inline);
