/** The calls of the notifications area (server/src/modules/notifications), each with its roles, meaning and schemas. */
import { z } from 'zod';
import { notificationListSchema, notificationPageParamSchema, notificationSchema } from '../notifications.js';
import { idParamSchema } from '../user.js';
import type { CallTable } from '../call-schema.js';

export const NOTIFICATIONS_CALLS = {
  'GET /api/notification/delete/{id}': {
    roles: 'any',
    meaning: 'delete own notification',
    stateChanging: true,
    params: z.object({ id: idParamSchema }),
    response: z.object({ ok: z.literal(true), unread: z.number().int().min(0) }),
  },
  'GET /api/notification/get/{id}': {
    roles: 'any',
    meaning: 'one own notification (marks read)',
    stateChanging: true,
    params: z.object({ id: idParamSchema }),
    response: notificationSchema,
  },
  'GET /api/notification/getList/{id}': {
    roles: 'any',
    meaning: 'own notifications; id = page or 0',
    params: z.object({ id: notificationPageParamSchema }),
    response: notificationListSchema,
  },
} as const satisfies CallTable;
