import { z } from 'zod';
import { listRequestSchema, listResponseSchema } from './paging.js';

/*
 * Worker tests (тестирование работников): /api/workerPosition/list and /api/workerTest/*. A worker
 * test owns a diagnostic of kind `worker`; its sittings are participant tests with a workerId.
 */

const instant = z.string().describe('ISO instant (UTC, Z)');
const positiveId = z.number().int().positive().max(2_147_483_647);
const queryId = z
  .string()
  .regex(/^\d{1,10}$/, 'a positive integer')
  .transform(Number)
  .pipe(positiveId);

export const workerPositionSchema = z.object({ id: z.number().int(), name: z.string() });
export type WorkerPosition = z.infer<typeof workerPositionSchema>;

export const workerPositionListRequestSchema = z.strictObject({
  ...listRequestSchema.shape,
  sort: z
    .strictObject({ field: z.enum(['id', 'name']), dir: z.enum(['asc', 'desc']).default('asc') })
    .optional(),
  filter: z.strictObject({ search: z.string().trim().min(1).max(100).optional() }).optional(),
});
export const workerPositionListResponseSchema = listResponseSchema(workerPositionSchema);

export const workerTestSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    subjectTestId: z.number().int(),
    subjectTestName: z.string(),
    diagnosticId: z.number().int(),
    diagnosticCode: z.string(),
    positionId: z.number().int().nullable(),
    positionName: z.string().nullable(),
    schoolId: z.number().int().nullable().describe('null: offered to every school'),
    schoolName: z.string().nullable(),
    startsAt: instant,
    endsAt: instant,
    participantCount: z.number().int(),
    editable: z.boolean().describe('whether the caller may change or delete it'),
    createdAt: instant,
  })
  .meta({ id: 'WorkerTest' });
export type WorkerTest = z.infer<typeof workerTestSchema>;

export const WORKER_TEST_SORT_FIELDS = ['id', 'name', 'startsAt', 'createdAt'] as const;
export type WorkerTestSortField = (typeof WORKER_TEST_SORT_FIELDS)[number];
const workerTestSortSchema = z.strictObject({
  field: z.enum(WORKER_TEST_SORT_FIELDS),
  dir: z.enum(['asc', 'desc']).default('asc'),
});

export const workerTestListRequestSchema = z
  .strictObject({
    ...listRequestSchema.shape,
    sort: z.union([workerTestSortSchema, z.array(workerTestSortSchema).max(5)]).optional(),
    filter: z
      .strictObject({
        search: z.string().trim().min(1).max(100).optional(),
        positionId: positiveId.optional(),
        schoolId: positiveId.optional().describe('admin only; a coordinator always sees own + global'),
        subjectTestId: positiveId.optional(),
      })
      .optional(),
  })
  .meta({ id: 'WorkerTestListRequest' });
export type WorkerTestListRequest = z.infer<typeof workerTestListRequestSchema>;
export const workerTestListResponseSchema = listResponseSchema(workerTestSchema);

/** `PUT /api/workerTest/save`: create (no id) or update (id). */
export const workerTestSaveBodySchema = z
  .strictObject({
    id: positiveId.optional(),
    name: z.string().trim().min(1).max(300),
    subjectTestId: positiveId,
    positionId: positiveId.nullable().optional(),
    startsAt: z.iso.datetime({ offset: true }),
    endsAt: z.iso.datetime({ offset: true }).describe('after startsAt'),
    schoolId: positiveId
      .nullable()
      .optional()
      .describe('admin: a school or null for every school; a coordinator: always their own'),
  })
  .meta({ id: 'WorkerTestSaveBody' });
export type WorkerTestSaveBody = z.infer<typeof workerTestSaveBodySchema>;

export const generateActivationCodeQuerySchema = z.strictObject({
  workerTestId: queryId,
  workerId: queryId,
});

export const generatedActivationCodeSchema = z
  .object({
    activationCode: z.string(),
    participantTestId: z.number().int(),
    created: z.boolean().describe('false: the worker already had a sitting; its code is returned'),
  })
  .meta({ id: 'GeneratedActivationCode' });
