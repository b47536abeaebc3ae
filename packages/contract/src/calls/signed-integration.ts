/** The calls of the signed-integration area (server/src/modules/signed-integration), each with its roles, meaning and schemas. */
import { z } from 'zod';
import {
  attestaPushBodySchema,
  attestaPushResultSchema,
  proctoringEndBodySchema,
  proctoringStartBodySchema,
  proctoringWebhookResultSchema,
  upstreamPushQueuedSchema,
} from '../signed-integration.js';
import { idParamSchema } from '../user.js';
import type { CallTable } from '../call-schema.js';

export const SIGNED_INTEGRATION_CALLS = {
  'GET /api/integration/importResultToAttesta/{id}': {
    roles: ['integration', 'admin'],
    meaning: 'push the results of a diagnostic to the upstream Attesta instance',
    stateChanging: true,
    params: z.object({ id: idParamSchema }),
    accepted: upstreamPushQueuedSchema,
  },
  'POST /api/integration/proctoredu/endsessiondata': {
    roles: ['integration'],
    meaning: 'proctoring service webhook: session ended, with verdict',
    body: proctoringEndBodySchema,
    response: proctoringWebhookResultSchema,
  },
  'POST /api/integration/proctoredu/start_session': {
    roles: ['integration'],
    meaning: 'proctoring service webhook: session started',
    body: proctoringStartBodySchema,
    response: proctoringWebhookResultSchema,
  },
  // results pushed by another Attesta instance (issue 13)
  'POST /api/integration/attesta/results': {
    roles: ['integration'],
    meaning: 'receive the published results of a diagnostic pushed by another Attesta instance (signed)',
    ours: true,
    body: attestaPushBodySchema,
    response: attestaPushResultSchema,
  },
} as const satisfies CallTable;
