/** The calls of the integration area (server/src/modules/integration), each with its roles, meaning and schemas. */
import { z } from 'zod';
import {
  type ApiKeyScope,
  apiKeyCreateBodySchema,
  apiKeyCreatedSchema,
  apiKeyListSchema,
  apiKeySchema,
  createWorkersBodySchema,
  createWorkersResultSchema,
  integrationMrkoQuerySchema,
  integrationMrkoSchema,
  integrationReportAllQuerySchema,
  integrationReportAllSchema,
  pakSpecificationsQuerySchema,
  pakSpecificationsSchema,
} from '../integration.js';
import { idParamSchema } from '../user.js';
import { ADMIN, type CallTable } from '../call-schema.js';
import type { SIGNED_INTEGRATION_CALLS } from './signed-integration.js';

export const INTEGRATION_CALLS = {
  // format=csv answers a text/csv file of the same items (docs/integrations.md), not this JSON
  'GET /api/integration/mrko/exportResults': {
    roles: ['integration', 'admin'],
    meaning: 'results export for the MRKO electronic journal',
    query: integrationMrkoQuerySchema,
    response: integrationMrkoSchema,
  },
  'POST /api/integration/attesta/CreateWorkers': {
    roles: ['integration', 'admin'],
    meaning: 'create worker accounts sent by the upstream instance',
    body: createWorkersBodySchema,
    response: createWorkersResultSchema,
  },
  'GET /api/integration/pak/specifications': {
    roles: ['integration', 'admin'],
    meaning: 'test specifications for the hardware-software complex; query parallel, system',
    query: pakSpecificationsQuerySchema,
    response: pakSpecificationsSchema,
  },
  'GET /api/integration/report/all': {
    roles: ['integration', 'admin'],
    meaning: 'all results for a period; query startDate, endDate',
    query: integrationReportAllQuerySchema,
    response: integrationReportAllSchema,
  },
  'GET /api/admin/apiKeys': {
    roles: ADMIN,
    meaning: 'every integration API key, revoked ones too (never a secret)',
    ours: true,
    response: apiKeyListSchema,
  },
  'POST /api/admin/apiKeys': {
    roles: ADMIN,
    meaning: 'create an integration API key: its secret is answered this once',
    ours: true,
    body: apiKeyCreateBodySchema,
    response: apiKeyCreatedSchema,
  },
  'POST /api/admin/apiKeys/{id}/revoke': {
    roles: ADMIN,
    meaning: 'revoke an integration API key',
    ours: true,
    params: z.strictObject({ id: idParamSchema }),
    response: apiKeySchema,
  },
} as const satisfies CallTable;

/** Which integration call each scope opens (the push is served by the signed integration's module). */
export const API_KEY_SCOPE_CALLS: Record<
  ApiKeyScope,
  keyof typeof INTEGRATION_CALLS | keyof typeof SIGNED_INTEGRATION_CALLS
> = {
  mrko: 'GET /api/integration/mrko/exportResults',
  reports: 'GET /api/integration/report/all',
  specifications: 'GET /api/integration/pak/specifications',
  workers: 'POST /api/integration/attesta/CreateWorkers',
  push: 'GET /api/integration/importResultToAttesta/{id}',
};
