import { z } from 'zod';
import { errorCodeSchema } from './errors.js';
import { listRequestSchema } from './paging.js';
import { calendarDateSchema, idParamSchema } from './user.js';

/*
 * Queue items (docs/design.md §2): asynchronous jobs users watch — planning, results, imports, reports.
 * Shapes of POST /api/ParticipantTest/queuelist, getqueuelistbytype and createplanningqueue.
 */

const instant = z.string().describe('ISO instant (UTC, Z)');

export const QUEUE_ITEM_TYPES = [
  'planning',
  'result',
  'import',
  'report',
  'export',
  'scoring',
  'regrade',
  'scan-apply',
  'scan-cleanup',
  'files-sweep',
  'upstream_push',
] as const;
export const queueItemTypeSchema = z.enum(QUEUE_ITEM_TYPES);
export type QueueItemType = z.infer<typeof queueItemTypeSchema>;

export const QUEUE_ITEM_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export const queueItemStatusSchema = z.enum(QUEUE_ITEM_STATUSES);
export type QueueItemStatus = z.infer<typeof queueItemStatusSchema>;

/** Payload fields a queue item may show to users; anything else a job carries stays on the server. */
export const QUEUE_PUBLIC_PAYLOAD_KEYS = ['date', 'schoolId', 'code', 'participantTestId'] as const;

/** A queue item as users see it: what runs, how far it got, its result or error. */
export const queueItemSchema = z
  .object({
    id: z.number().int().positive(),
    type: z
      .string()
      .describe(
        'planning | result | import | report | export | scoring | regrade | scan-apply | scan-cleanup | files-sweep | upstream_push',
      ),
    status: queueItemStatusSchema,
    diagnosticId: z.number().int().nullable(),
    diagnosticCode: z.string().nullable(),
    diagnosticName: z.string().nullable(),
    params: z
      .record(z.string(), z.unknown())
      .describe('What the job was asked to do (planning: date, schoolId — null for every school)'),
    progress: z.number().int().min(0).max(100),
    progressText: z.string().nullable(),
    result: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('planning: `{ created, existing, schools }`'),
    resultFileId: z.number().int().nullable().describe('download with GET /api/files/{id}'),
    error: z
      .string()
      .nullable()
      .describe(
        'for developers (English, never an exception text); interfaces show a text chosen by `errorCode`',
      ),
    errorCode: errorCodeSchema
      .nullable()
      .describe(
        'why the last attempt failed (`job_failed`, `job_interrupted` or the refusal code of the job); null while nothing failed',
      ),
    attempts: z.number().int(),
    maxAttempts: z.number().int(),
    runAfter: instant,
    createdBy: z.number().int().nullable(),
    createdAt: instant,
    startedAt: instant.nullable(),
    finishedAt: instant.nullable(),
  })
  .meta({ id: 'QueueItem' });
export type QueueItem = z.infer<typeof queueItemSchema>;

/** `GET /api/ParticipantTest/getqueuelistbytype/{type}/{diagnosticId}`. */
export const queueOfDiagnosticParamsSchema = z.object({
  type: queueItemTypeSchema,
  diagnosticId: idParamSchema,
});

export const QUEUE_SORT_FIELDS = ['id', 'createdAt', 'type', 'status', 'progress', 'finishedAt'] as const;
const queueSortSchema = z.strictObject({
  field: z.enum(QUEUE_SORT_FIELDS),
  dir: z.enum(['asc', 'desc']).default('asc'),
});

export const queueListFilterSchema = z.strictObject({
  type: z.string().trim().min(1).max(40).optional(),
  status: queueItemStatusSchema.optional(),
  diagnosticId: z.number().int().positive().max(2_147_483_647).optional(),
});
export type QueueListFilter = z.infer<typeof queueListFilterSchema>;

/** `POST /api/ParticipantTest/queuelist` body. Default order: newest first. */
export const queueListRequestSchema = z
  .strictObject({
    ...listRequestSchema.shape,
    sort: z.union([queueSortSchema, z.array(queueSortSchema).max(5)]).optional(),
    filter: queueListFilterSchema.optional(),
  })
  .meta({ id: 'QueueListRequest' });
export type QueueListRequest = z.infer<typeof queueListRequestSchema>;

export const queueListResponseSchema = z
  .object({ items: z.array(queueItemSchema), total: z.number().int().min(0) })
  .meta({ id: 'QueueListResponse' });

/** `POST /api/ParticipantTest/createplanningqueue` query. */
export const planningQueueQuerySchema = z.strictObject({
  date: calendarDateSchema.describe('the test date to plan, yyyy-mm-dd (within the diagnostic window)'),
  code: z.string().trim().min(1).max(50).describe('the diagnostic code'),
});
export type PlanningQueueQuery = z.infer<typeof planningQueueQuerySchema>;

/** What the planning job reports when done. */
export const planningResultSchema = z.object({
  created: z.number().int(),
  existing: z.number().int(),
  schools: z.number().int(),
});
export type PlanningResult = z.infer<typeof planningResultSchema>;
