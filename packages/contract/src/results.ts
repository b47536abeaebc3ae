import { z } from 'zod';
import { scaledScoreSchema } from './equating.js';
import { listRequestSchema } from './paging.js';
import { participantTaskSchema } from './exam.js';

/*
 * Results of exam works (docs/design.md §2–§4): /api/examresults/*, createresultqueue, getResultJson.
 * A result belongs to one exam work; calls name it by the participant test id (one live work per
 * participant test) unless the path says otherwise (variant/{id} takes the exam work id).
 */

const instant = z.string().describe('ISO instant (UTC, Z)');

export const RESULT_STATUSES = ['awaiting_experts', 'scored'] as const;
export const resultStatusSchema = z.enum(RESULT_STATUSES);
export type ResultStatus = z.infer<typeof resultStatusSchema>;

/** How a task's points were reached: by the scoring engine, awaiting experts, or the experts' final mark. */
export const TASK_SCORE_STATUSES = ['auto', 'awaiting_experts', 'expert'] as const;
export const taskScoreStatusSchema = z.enum(TASK_SCORE_STATUSES);

export const resultTaskSchema = z.object({
  variantTaskId: z.number().int(),
  position: z.number().int(),
  score: z.number().nullable().describe('null while the task awaits experts'),
  maxScore: z.number(),
  status: taskScoreStatusSchema,
});

export const resultElementSchema = z.object({
  code: z.string(),
  name: z.string(),
  score: z.number(),
  max: z.number(),
});

/** GET /api/examresults/{id}. */
export const examResultSchema = z
  .object({
    participantTestId: z.number().int(),
    examWorkId: z.number().int(),
    diagnosticId: z.number().int(),
    subjectTestId: z.number().int(),
    subjectTestName: z.string(),
    status: resultStatusSchema,
    primaryScore: z.number().describe('sum of the known final task scores'),
    maxScore: z.number(),
    percent: z.number().describe('primary score as % of max, one decimal'),
    mark: z.string().nullable().describe('from the subject test scale; null while awaiting experts'),
    level: z.string().nullable(),
    scaled: scaledScoreSchema
      .nullable()
      .optional()
      .describe('the scaled score and level under the adopted equating table (issue 28); null without one'),
    tasks: z.array(resultTaskSchema),
    elements: z.array(resultElementSchema).describe('per specification element'),
    verificationCode: z.string().describe('printed on result documents, e.g. R-7KQ2-M9XD'),
    computedAt: instant,
    published: z.boolean(),
    publishedAt: instant.nullable(),
  })
  .meta({ id: 'ExamResult' });
export type ExamResult = z.infer<typeof examResultSchema>;

/** One task of GET /api/examresults/variant/{id}: the task as the participant saw it, the answer and the score. */
export const resultVariantTaskSchema = participantTaskSchema.extend({
  answer: z
    .object({ value: z.unknown(), fileIds: z.array(z.number().int()) })
    .nullable()
    .describe('null when nothing was answered'),
  score: z
    .number()
    .nullable()
    .describe('null while awaiting experts, and always for experts (blind marking)'),
  scoreStatus: taskScoreStatusSchema.nullable(),
  reference: z.unknown().optional().describe('the key; only when `withKeys`'),
  solutionHtml: z.string().nullable().optional(),
  criteria: z
    .array(z.object({ code: z.string(), text: z.string(), maxScore: z.number() }))
    .nullable()
    .optional(),
  checks: z
    .record(z.string(), z.boolean())
    .nullable()
    .optional()
    .describe(
      'Only with `withKeys`: which pieces of the answer the scoring engine judged right — a cloze or ' +
        'gap-match task by gap id, a matching task by left item id; null for other types and unscored answers',
    ),
  grading: z
    .object({
      criteria: z
        .array(
          z.object({
            code: z.string(),
            text: z.string(),
            maxScore: z.number(),
            score: z
              .number()
              .describe('the mark of the final mark’s rounds: one expert’s, or their mean to 0.01'),
          }),
        )
        .describe('each rubric criterion with its mark, in the rubric’s order'),
      comments: z
        .array(z.string())
        .describe(
          'the comments of the experts whose marks make the final mark, plain text, blank ones left out',
        ),
    })
    .nullable()
    .optional()
    .describe(
      'Only with `withKeys`, never for experts: what the experts’ final mark of an expert-graded task is ' +
        'made of (after a third check, the third expert’s marks alone under the rule `third`, else the ' +
        'mean of the rounds); null until the final mark is set. Never who graded (no names, ids or rounds).',
    ),
});

export const resultVariantSchema = z
  .object({
    examWorkId: z.number().int(),
    variantId: z.number().int(),
    number: z.number().int(),
    subjectTestName: z.string(),
    withKeys: z.boolean().describe('whether reference answers and solutions are included'),
    anonCode: z.string().nullable().describe('experts: the anonymised code of the work instead of a name'),
    participant: z
      .object({ name: z.string(), schoolName: z.string().nullable(), className: z.string().nullable() })
      .nullable()
      .describe('staff only'),
    tasks: z.array(resultVariantTaskSchema),
  })
  .meta({ id: 'ResultVariant' });
export type ResultVariant = z.infer<typeof resultVariantSchema>;

export const RESULT_SORT_FIELDS = ['participantName', 'primaryScore', 'percent', 'computedAt', 'id'] as const;
const resultSortSchema = z.strictObject({
  field: z.enum(RESULT_SORT_FIELDS),
  dir: z.enum(['asc', 'desc']).default('asc'),
});

const positiveId = z.number().int().positive().max(2_147_483_647);

export const resultListFilterSchema = z.strictObject({
  diagnosticId: positiveId.optional(),
  subjectTestId: positiveId.optional(),
  classId: positiveId.optional(),
  status: resultStatusSchema.optional(),
  search: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('part of the surname or name, a registration code or a verification code'),
});

/** POST /api/examresults/participantTest/list. */
export const resultListRequestSchema = z
  .strictObject({
    ...listRequestSchema.shape,
    sort: z.union([resultSortSchema, z.array(resultSortSchema).max(5)]).optional(),
    filter: resultListFilterSchema.optional(),
  })
  .meta({ id: 'ResultListRequest' });
export type ResultListRequest = z.infer<typeof resultListRequestSchema>;

export const resultListItemSchema = z.object({
  participantTestId: z.number().int(),
  examWorkId: z.number().int(),
  diagnosticId: z.number().int(),
  diagnosticName: z.string(),
  subjectTestId: z.number().int(),
  subjectTestName: z.string(),
  participantName: z.string(),
  registrationCode: z.string(),
  schoolId: z.number().int().nullable(),
  schoolName: z.string().nullable(),
  classId: z.number().int().nullable(),
  className: z.string().nullable(),
  participantTestStatus: z.string(),
  status: resultStatusSchema,
  primaryScore: z.number(),
  maxScore: z.number(),
  percent: z.number(),
  mark: z.string().nullable(),
  level: z.string().nullable(),
  scaled: scaledScoreSchema
    .nullable()
    .optional()
    .describe('the scaled score and level under the adopted equating table (issue 28); null without one'),
  published: z.boolean(),
  computedAt: instant,
});
export const resultListResponseSchema = z
  .object({ items: z.array(resultListItemSchema), total: z.number().int().min(0) })
  .meta({ id: 'ResultListResponse' });

export const NO_RESULT_REASONS = [
  'absent',
  'not_started',
  'not_finished',
  'annulled',
  'awaiting_grading',
  'deleted_work',
] as const;

/** GET /api/examresults/noresult/{id}. */
export const noResultSchema = z
  .object({
    participantTestId: z.number().int(),
    reason: z.enum(NO_RESULT_REASONS).nullable().describe('null when the result is there'),
    message: z.string().nullable().describe('the reason in Russian, for the interface'),
  })
  .meta({ id: 'NoResult' });
export type NoResult = z.infer<typeof noResultSchema>;

/** GET /api/examresults/referenceByVariantTaskId/{id}. */
export const taskReferenceSchema = z
  .object({
    variantTaskId: z.number().int(),
    position: z.number().int(),
    answerType: z.string(),
    reference: z.unknown().describe('the key: TASK_SCHEMAS[type].reference'),
    solutionHtml: z.string().nullable(),
    criteria: z.array(z.object({ code: z.string(), text: z.string(), maxScore: z.number() })).nullable(),
    maxScore: z.number(),
  })
  .meta({ id: 'TaskReference' });

const partSchema = z.object({
  score: z.number(),
  maxScore: z.number(),
  percent: z.number(),
  positions: z.array(z.number().int()),
});

/** GET /api/examresults/preprof/{id}. */
export const preprofResultSchema = z
  .object({
    result: examResultSchema,
    rule: z.enum(['content_part', 'position_halves']).describe('how tasks were split into the two parts'),
    theory: partSchema,
    practice: partSchema,
  })
  .meta({ id: 'PreprofResult' });

/** GET /api/examresults/preschool/{id}: qualitative levels only, never scores. */
export const preschoolResultSchema = z
  .object({
    participantTestId: z.number().int(),
    subjectTestName: z.string(),
    status: resultStatusSchema,
    level: z.string().nullable(),
    elements: z.array(z.object({ code: z.string(), name: z.string(), level: z.string() })),
    tasks: z.array(z.object({ position: z.number().int(), level: z.string().nullable() })),
    published: z.boolean(),
  })
  .meta({ id: 'PreschoolResult' });

/** GET /api/examresults/changePublish/{diagnosticId}/{publish}. */
export const publishStateSchema = z
  .object({
    diagnosticId: z.number().int(),
    resultsPublished: z.boolean(),
    publishedAt: instant.nullable(),
  })
  .meta({ id: 'PublishState' });

/** GET /api/examresults/changePublish/{diagnosticId}/{publish}: the admin's explicit override. */
export const changePublishQuerySchema = z.strictObject({
  override: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      'admin only (a coordinator: 403): publish although the diagnostic window is still open; the ' +
        'participants who have not started are marked absent and can no longer start. Audited. Never ' +
        'lifts `publication_participants_unfinished` (works still open) or `grading_incomplete`',
    ),
});

/** Registrations of a diagnostic by where they stand, as publication weighs them. */
export const publicationParticipantsSchema = z
  .object({
    registered: z.number().int().describe('live registrations'),
    finished: z.number().int().describe('with a finished work'),
    inProgress: z
      .number()
      .int()
      .describe('with a work not finished yet (still writing, or its time ran out and it is being closed)'),
    notStarted: z
      .number()
      .int()
      .describe('no work, not marked absent, and the window is still open: they could still start'),
    absent: z.number().int().describe('no work and marked absent, or the window closed before they started'),
    annulled: z.number().int(),
  })
  .meta({ id: 'PublicationParticipants' });

/** Why results cannot be published now, most pressing first. */
export const PUBLICATION_BLOCKS = [
  'participants_unfinished',
  'window_open',
  'awaiting_grading',
  'unscored',
] as const;

/** GET /api/examresults/enableChangePublish/{diagnosticId}. */
export const enableChangePublishSchema = z
  .object({
    diagnostic: z
      .object({ id: z.number().int(), code: z.string(), name: z.string() })
      .describe('which diagnostic: the confirmation names it'),
    enabled: z.boolean().describe('publishing is possible now without an override'),
    awaitingGrading: z.number().int().describe('results with answers still awaiting experts'),
    unscored: z.number().int().describe('finished works without a result yet'),
    reason: z
      .enum(PUBLICATION_BLOCKS)
      .nullable()
      .describe(
        '`participants_unfinished` (works not finished: 409 `publication_participants_unfinished`), ' +
          '`window_open` (409 `publication_window_open`), `awaiting_grading` | `unscored` (409 `grading_incomplete`)',
      ),
    message: z.string().nullable(),
    window: z.object({ startsAt: instant, endsAt: instant, open: z.boolean() }),
    participants: publicationParticipantsSchema,
    participantsScope: z
      .enum(['diagnostic', 'school'])
      .describe('counted over the whole diagnostic, or only the coordinator’s school (read-only view)'),
    overridable: z
      .boolean()
      .describe('an admin may publish now with `override=true`: only the open window holds it back'),
    mayPublish: z
      .boolean()
      .describe(
        'the caller may publish or unpublish it: an admin any diagnostic, a coordinator only one they created ' +
          '(another coordinator of a school of the diagnostic reads this answer, the admin publishes)',
      ),
    resultsPublished: z.boolean(),
    publishedAt: instant.nullable(),
  })
  .meta({ id: 'EnableChangePublish' });
export type EnableChangePublish = z.infer<typeof enableChangePublishSchema>;

export const resultQueueQuerySchema = z.strictObject({
  participantTestId: z
    .string()
    .regex(/^\d{1,10}$/, 'a positive integer')
    .transform(Number)
    .pipe(positiveId),
});

/** GET /api/ParticipantTest/getResultJson/{id}: a stable machine-readable result. */
export const resultJsonSchema = z
  .object({
    participantTestId: z.number().int(),
    registrationCode: z.string(),
    studentId: z.number().int().nullable(),
    schoolId: z.number().int().nullable(),
    diagnostic: z.object({ id: z.number().int(), code: z.string(), name: z.string() }),
    subjectTest: z.object({ id: z.number().int(), name: z.string() }),
    status: resultStatusSchema,
    published: z.boolean(),
    primaryScore: z.number(),
    maxScore: z.number(),
    percent: z.number(),
    mark: z.string().nullable(),
    level: z.string().nullable(),
    scaled: scaledScoreSchema
      .nullable()
      .optional()
      .describe('the scaled score and level under the adopted equating table (issue 28); null without one'),
    tasks: z.array(resultTaskSchema),
    elements: z.array(resultElementSchema),
    verificationCode: z.string(),
    computedAt: instant,
  })
  .meta({ id: 'ResultJson' });

// ---------------------------------------------------------------- GET /api/results/verify/{code}

/** `{code}` of a result document's verification code (printed and in the QR code). */
export const resultVerifyParamsSchema = z.object({
  code: z
    .string()
    .trim()
    .min(4)
    .max(32)
    .regex(/^[A-Za-z0-9-]+$/),
});

/** What anyone holding a result document learns of it: details only once results are published. */
export const resultVerificationSchema = z.object({
  valid: z.boolean(),
  published: z.boolean().describe('details are shown only once the results are published'),
  diagnosticName: z.string().nullable(),
  subjectTestName: z.string().nullable(),
  testDate: z.string().nullable(),
  participant: z.string().nullable().describe('surname and initials'),
  primaryScore: z.number().nullable(),
  maxScore: z.number().nullable(),
  mark: z.string().nullable(),
});
export type ResultVerification = z.infer<typeof resultVerificationSchema>;
