import { z } from 'zod';
import { criterionSchema, SUBJECT_EXAM_KINDS, taskAnswerTypeSchema } from './content.js';
import { listRequestSchema, listResponseSchema } from './paging.js';
import { idParamSchema } from './user.js';

/*
 * Content read side (KIM), files, html texts and feedback: the shapes shared by server and web.
 * Staff-only shapes (task source, full task) carry keys; every participant-facing shape is built
 * from allowlisted fields without reference, scoring, solution or criteria (docs/design.md §6).
 */

const instant = z.string().describe('ISO instant (UTC, Z)');
const sortDir = z.enum(['asc', 'desc']).default('asc');

/** A list request whose sort fields and filter are this list's own (unknown ones → 400). */
function listRequestOf<F extends readonly [string, ...string[]], T extends z.ZodType>(fields: F, filter: T) {
  const sort = z.strictObject({ field: z.enum(fields), dir: sortDir });
  return z.strictObject({
    ...listRequestSchema.shape,
    sort: z.union([sort, z.array(sort).max(5)]).optional(),
    filter: filter.optional(),
  });
}

const search = z.string().trim().max(100).optional().describe('part of the name (case-insensitive)');
const positiveId = z.number().int().positive();

// ---------------------------------------------------------------- reference lists

export const idNameSchema = z.object({ id: z.number().int(), name: z.string() });
export type IdName = z.infer<typeof idNameSchema>;

export const subjectExamKindSchema = z.enum(SUBJECT_EXAM_KINDS);

export const subjectExamSchema = z
  .object({
    id: z.number().int(),
    subjectId: z.number().int(),
    subjectName: z.string(),
    kind: z.string().describe('diagnostic | preprof | preschool | worker'),
    name: z.string(),
  })
  .meta({ id: 'SubjectExam' });
export type SubjectExam = z.infer<typeof subjectExamSchema>;

// ---------------------------------------------------------------- POST /api/kim/subject/list

export const SUBJECT_SORT_FIELDS = ['id', 'name', 'code'] as const;
export type SubjectSortField = (typeof SUBJECT_SORT_FIELDS)[number];
export const subjectListFilterSchema = z.strictObject({ search });
export type SubjectListFilter = z.infer<typeof subjectListFilterSchema>;
export const subjectListRequestSchema = listRequestOf(SUBJECT_SORT_FIELDS, subjectListFilterSchema);
export type SubjectListRequest = z.infer<typeof subjectListRequestSchema>;
export const subjectListItemSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    code: z.string().nullable(),
    subjectTestCount: z.number().int(),
  })
  .meta({ id: 'SubjectListItem' });
export type SubjectListItem = z.infer<typeof subjectListItemSchema>;
export const subjectListResponseSchema = listResponseSchema(subjectListItemSchema);

// ---------------------------------------------------------------- POST /api/kim/subjectTest/list

export const SUBJECT_TEST_SORT_FIELDS = [
  'id',
  'name',
  'subjectName',
  'durationMinutes',
  'createdAt',
] as const;
export type SubjectTestSortField = (typeof SUBJECT_TEST_SORT_FIELDS)[number];
export const subjectTestListFilterSchema = z.strictObject({
  search,
  subjectId: positiveId.optional(),
  subjectExamId: positiveId.optional(),
  kind: subjectExamKindSchema.optional(),
  testGroupId: positiveId.optional(),
  parallel: z.number().int().min(0).max(11).optional().describe('offered for this grade'),
});
export type SubjectTestListFilter = z.infer<typeof subjectTestListFilterSchema>;
export const subjectTestListRequestSchema = listRequestOf(
  SUBJECT_TEST_SORT_FIELDS,
  subjectTestListFilterSchema,
);
export type SubjectTestListRequest = z.infer<typeof subjectTestListRequestSchema>;
export const subjectTestListItemSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    subjectId: z.number().int(),
    subjectName: z.string(),
    subjectExamId: z.number().int(),
    kind: z.string(),
    testGroupId: z.number().int().nullable(),
    testGroupName: z.string().nullable(),
    parallels: z.array(z.number().int()),
    durationMinutes: z.number().int(),
    variantCount: z.number().int(),
    createdAt: instant,
  })
  .meta({ id: 'SubjectTestListItem' });
export type SubjectTestListItem = z.infer<typeof subjectTestListItemSchema>;
export const subjectTestListResponseSchema = listResponseSchema(subjectTestListItemSchema);

// ---------------------------------------------------------------- POST /api/kim/test/list (variants)

export const VARIANT_SORT_FIELDS = ['id', 'number', 'subjectTestName', 'taskCount'] as const;
export type VariantSortField = (typeof VARIANT_SORT_FIELDS)[number];
export const variantListFilterSchema = z.strictObject({
  search: z.string().trim().max(100).optional().describe('part of the subject test name'),
  subjectId: positiveId.optional(),
  subjectTestId: positiveId.optional(),
  incomplete: z.boolean().optional().describe('true: only variants with tasks lacking a key or rubric'),
});
export type VariantListFilter = z.infer<typeof variantListFilterSchema>;
export const variantListRequestSchema = listRequestOf(VARIANT_SORT_FIELDS, variantListFilterSchema);
export type VariantListRequest = z.infer<typeof variantListRequestSchema>;
export const variantListItemSchema = z
  .object({
    id: z.number().int(),
    number: z.number().int(),
    subjectTestId: z.number().int(),
    subjectTestName: z.string(),
    subjectName: z.string(),
    taskCount: z.number().int(),
    maxScore: z.number(),
    answerTypes: z.array(z.string()).describe('distinct answer types of its tasks'),
    manualTaskCount: z.number().int().describe('tasks graded by experts'),
    missingKeyPositions: z
      .array(z.number().int())
      .describe('positions of tasks that cannot be scored yet: no reference answer, or no rubric'),
  })
  .meta({ id: 'VariantListItem' });
export type VariantListItem = z.infer<typeof variantListItemSchema>;
export const variantListResponseSchema = listResponseSchema(variantListItemSchema);

// ---------------------------------------------------------------- staff task views

export const taskFileRefSchema = z.object({ id: z.number().int(), name: z.string(), mime: z.string() });

/** GET /api/kim/htmlxmltext/{id}: the stored source of a task, keys included (admin, expert). */
export const taskSourceSchema = z
  .object({
    id: z.number().int(),
    answerType: z.string(),
    html: z.string().describe('the stored source, unsanitized: for editing, never rendered as is'),
    content: z.record(z.string(), z.unknown()),
    reference: z.unknown(),
    scoring: z.record(z.string(), z.unknown()),
    criteria: z.array(criterionSchema).nullable(),
    solutionHtml: z.string().nullable(),
    maxScore: z.number(),
    htmlContainerId: z.number().int().nullable(),
  })
  .meta({ id: 'TaskSource' });
export type TaskSource = z.infer<typeof taskSourceSchema>;

export const classifierSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  kind: z.string().describe('content | skill'),
});

/** GET /api/task/{variantId}/{taskNumber}: the full task for staff (keys, rubric, solution). */
export const staffTaskSchema = z
  .object({
    variantTaskId: z.number().int(),
    variantId: z.number().int(),
    position: z.number().int(),
    taskId: z.number().int(),
    answerType: taskAnswerTypeSchema,
    html: z.string().describe('sanitized task text'),
    content: z.record(z.string(), z.unknown()),
    reference: z.unknown(),
    scoring: z.record(z.string(), z.unknown()),
    criteria: z.array(criterionSchema).nullable(),
    solutionHtml: z.string().nullable().describe('sanitized'),
    maxScore: z.number(),
    files: z.array(taskFileRefSchema),
    htmlContainerId: z.number().int().nullable(),
    classifiers: z.array(classifierSchema).optional().describe('with withClassifiers=true'),
  })
  .meta({ id: 'StaffTask' });
export type StaffTask = z.infer<typeof staffTaskSchema>;

export const staffTaskQuerySchema = z.strictObject({
  withClassifiers: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

export const kimTemplateSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    html: z.string().describe('sanitized layout html'),
    css: z.string().nullable(),
    updatedAt: instant,
  })
  .meta({ id: 'KimTemplate' });
export type KimTemplate = z.infer<typeof kimTemplateSchema>;

/** Html of a subject test (procedure, description, instruction), sanitized. */
export const subjectTestHtmlSchema = z.object({
  subjectTestId: z.number().int(),
  html: z.string().describe('sanitized html; empty when the test has none'),
});
export type SubjectTestHtml = z.infer<typeof subjectTestHtmlSchema>;

export const htmlContainerSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    version: z.number().int(),
    entry: z.string(),
    resources: z.array(z.string()).describe('stored paths of the current version'),
    url: z
      .string()
      .describe(
        'Entry page of the current version with a short-lived signature (`?sig=`), for an ' +
          '`<iframe sandbox="allow-scripts">`: its requests carry no session cookie, so the page ' +
          'and the files it links relatively are authorised by the signature (docs/html-containers.md)',
      ),
    urlExpiresAt: instant.describe('when the signature of `url` stops working'),
  })
  .meta({ id: 'HtmlContainer' });
export type HtmlContainer = z.infer<typeof htmlContainerSchema>;

/** The query parameter of a container link that carries its signature (`?sig=` of `url` above). */
export const CONTAINER_SIGNATURE_PARAM = 'sig';

const containerVersionParams = { containerId: idParamSchema, version: idParamSchema };
const containerResourceName = z.string().min(1).max(500);

/** `GET /api/kim/htmlContainer/{containerId}/{version}/…`: the entry page, a bundle or a resource of a version. */
export const containerIndexParamsSchema = z.object(containerVersionParams);
export const containerBundleParamsSchema = z.object({
  ...containerVersionParams,
  bundle: containerResourceName,
});
export const containerResourceParamsSchema = z.object({
  ...containerVersionParams,
  resource: containerResourceName,
});
/** A container resource is asked for with a session, or with the signature of a container link. */
export const containerResourceQuerySchema = z.object({
  [CONTAINER_SIGNATURE_PARAM]: z
    .string()
    .max(200)
    .optional()
    .describe('signature from the container metadata `url`'),
});

export const subjectTestsPathSchema = z.object({
  testGroupId: z
    .string()
    .regex(/^\d{1,10}$/, 'a positive integer')
    .transform(Number)
    .pipe(z.number().int().positive().max(2_147_483_647)),
  parallel: z
    .string()
    .regex(/^\d{1,2}$/, 'a grade 0–11')
    .transform(Number)
    .pipe(z.number().int().min(0).max(11)),
});

export const parallelsQuerySchema = z.object({
  TestId: z
    .string({ error: 'TestId is required' })
    .regex(/^\d{1,10}$/, 'a positive integer')
    .transform(Number)
    .pipe(z.number().int().positive().max(2_147_483_647)),
});

// ---------------------------------------------------------------- files

export const FILE_OWNER_TYPES = ['task', 'html_text', 'help', 'general'] as const;
export const uploadOwnerTypeSchema = z.enum(FILE_OWNER_TYPES);
export type UploadOwnerType = z.infer<typeof uploadOwnerTypeSchema>;

export const fileInfoSchema = z
  .object({ id: z.number().int(), name: z.string(), mime: z.string(), size: z.number().int() })
  .meta({ id: 'FileInfo' });
export type FileInfo = z.infer<typeof fileInfoSchema>;

export const fileExtSchema = z.object({
  extension: z.string().describe('lower case, without the dot; empty when the name has none'),
  mime: z.string(),
  name: z.string(),
  size: z.number().int(),
});

export const fileTextSchema = z.object({ id: z.number().int(), name: z.string(), text: z.string() });

export const uploadQuerySchema = z.strictObject({
  ownerType: uploadOwnerTypeSchema.optional().describe('or as the form field `ownerType`'),
  splitPdf: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

export const uploadUrlBodySchema = z.strictObject({
  url: z.string().trim().min(1).max(2000),
  ownerType: uploadOwnerTypeSchema,
  ownerId: positiveId,
});
export type UploadUrlBody = z.infer<typeof uploadUrlBodySchema>;

// ---------------------------------------------------------------- html texts, analytics, feedback

export const publicHtmlTextSchema = z
  .object({
    id: z.number().int(),
    code: z.string().nullable(),
    kind: z.string(),
    title: z.string(),
    html: z.string().describe('sanitized'),
    updatedAt: instant,
  })
  .meta({ id: 'HtmlText' });
export type PublicHtmlText = z.infer<typeof publicHtmlTextSchema>;

/** `GET /api/htmltexts/{id}`: a text by its numeric id or by its code. */
export const htmlTextIdParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'an id or a code (letters, digits, - and _)')
    .describe('numeric id or code'),
});

export const analyticsConfigSchema = z
  .union([
    z.object({ enabled: z.literal(false) }),
    z.object({
      enabled: z.literal(true),
      provider: z.string().describe('e.g. yandex_metrika, google_analytics'),
      id: z.string().describe('counter / measurement id'),
    }),
  ])
  .meta({ id: 'AnalyticsConfig' });
export type AnalyticsConfig = z.infer<typeof analyticsConfigSchema>;

export const feedbackBodySchema = z.strictObject({
  text: z.string().trim().min(1, 'write a message').max(4000),
  page: z
    .string()
    .trim()
    .max(500)
    .regex(/^\/[^\s]*$/, 'a path of the web app starting with /')
    .optional()
    .describe('the path of the page the message was sent from'),
});
export const feedbackResultSchema = z.object({
  id: z.number().int(),
  fileId: z.number().int().nullable(),
  createdAt: instant,
});
