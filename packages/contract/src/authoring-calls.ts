import { z } from 'zod';
import { criterionSchema, SUBJECT_EXAM_KINDS, taskAnswerTypeSchema } from './content.js';
import { listResponseSchema } from './paging.js';
import { listRequestOf } from './staff.js';
import { expertCoverageSchema } from './expert.js';

/*
 * Content authoring (issue 11): the admin's calls under `/api/admin/content/*` that write the КИМ —
 * subjects, subject exams, test groups, subject tests (draft → published after validation),
 * variants (by hand or generated from a blueprint), tasks (with versions), specifications
 * (кодификатор) and their elements. Task parts (content, reference, scoring) follow the task model
 * of content.ts and are checked by `taskDefinitionSchema`; answer types are never listed here.
 */

const id = z.number().int().positive().max(2_147_483_647);
const instant = z.string().describe('ISO instant (UTC, Z)');
const name = (max = 300) => z.string().trim().min(1).max(max);
/** An optional text: an empty string clears it like null does. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .transform((v) => v || null);
const html = z.string().max(200_000).describe('html, sanitised when stored (sanitize-html allowlists)');
const grade = z.number().int().min(0).max(11).describe('parallel (grade): 0 preschool, 1–11');

/** `{taskId}` of a path. */
export const taskIdPathSchema = z.strictObject({
  taskId: z
    .string()
    .regex(/^\d{1,10}$/, 'a positive integer')
    .transform(Number)
    .pipe(z.number().int().positive().max(2_147_483_647)),
});

// ---------------------------------------------------------------- subjects, exams, groups

export const authoringSubjectSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    code: z.string().nullable(),
    examCount: z.number().int().min(0),
    taskCount: z.number().int().min(0).describe('current (not superseded) tasks of its pool'),
  })
  .meta({ id: 'AuthoringSubject' });
export type AuthoringSubject = z.infer<typeof authoringSubjectSchema>;

export const authoringSubjectBodySchema = z
  .strictObject({
    name: name(200),
    code: optionalText(32).optional().describe('short unique code; 409 `code_taken` when another has it'),
  })
  .meta({ id: 'AuthoringSubjectBody' });
export type AuthoringSubjectBody = z.input<typeof authoringSubjectBodySchema>;

export const authoringSubjectExamSchema = z
  .object({ id: z.number().int(), subjectId: z.number().int(), kind: z.string(), name: z.string() })
  .meta({ id: 'AuthoringSubjectExam' });
export type AuthoringSubjectExam = z.infer<typeof authoringSubjectExamSchema>;

export const authoringSubjectExamBodySchema = z
  .strictObject({
    kind: z.enum(SUBJECT_EXAM_KINDS).describe('one exam of each kind per subject (409 `conflict`)'),
    name: name(200),
  })
  .meta({ id: 'AuthoringSubjectExamBody' });

export const testGroupSchema = z.object({ id: z.number().int(), name: z.string() }).meta({ id: 'TestGroup' });
export const testGroupBodySchema = z.strictObject({ name: name(200) });

// ---------------------------------------------------------------- subject tests

export const SUBJECT_TEST_STATUSES = ['draft', 'published'] as const;
export const subjectTestStatusSchema = z
  .enum(SUBJECT_TEST_STATUSES)
  .describe('draft: being authored; published: validated and offered');

export const markStepSchema = z
  .strictObject({
    mark: z.string().trim().min(1).max(16),
    minScore: z.number().min(0).max(10_000).describe('lowest primary score of this mark'),
    level: z.string().trim().min(1).max(64).optional(),
  })
  .describe('A step of the mark scale');

export const levelBandSchema = z
  .strictObject({
    level: z.string().trim().min(1).max(64),
    minPercent: z.number().min(0).max(100),
  })
  .describe('A level by percent of the max score');

const distinct = (list: readonly (string | number)[]) => new Set(list).size === list.length;

export const subjectTestBodySchema = z
  .strictObject({
    subjectExamId: id,
    name: name(300),
    parallels: z.array(grade).max(12).refine(distinct, 'grades must be distinct'),
    durationMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60),
    testGroupId: id.nullable().optional(),
    description: optionalText(4000).optional(),
    procedureHtml: html.nullable().optional(),
    instructionHtml: html.nullable().optional(),
    markScale: z
      .array(markStepSchema)
      .max(20)
      .refine((l) => distinct(l.map((s) => s.minScore)), 'steps need distinct minScore')
      .optional(),
    levelBands: z
      .array(levelBandSchema)
      .max(20)
      .refine((l) => distinct(l.map((b) => b.minPercent)), 'bands need distinct minPercent')
      .optional(),
    specificationId: id.nullable().optional(),
    isOpen: z
      .boolean()
      .optional()
      .describe(
        'open to guests at any time with the result at once (docs/open-tests.md); only a test whose every ' +
          'task is scored automatically (400 `open_test_needs_auto_scoring`) and none of whose items a ' +
          'secure subject test in a live diagnostic uses (409 `open_test_shares_tasks`); absent: unchanged',
      ),
    allowCalculator: z
      .boolean()
      .optional()
      .describe('the runner offers a basic calculator (+ − × ÷) on its tasks; absent: unchanged (new: off)'),
  })
  .meta({ id: 'SubjectTestBody' });
export type SubjectTestBody = z.output<typeof subjectTestBodySchema>;

export const authoringSubjectTestSchema = z
  .object({
    id: z.number().int(),
    subjectId: z.number().int(),
    subjectName: z.string(),
    subjectExamId: z.number().int(),
    kind: z.string(),
    name: z.string(),
    status: z.string().describe('draft | published'),
    parallels: z.array(z.number().int()),
    durationMinutes: z.number().int(),
    testGroupId: z.number().int().nullable(),
    description: z.string().nullable(),
    procedureHtml: z.string().nullable(),
    instructionHtml: z.string().nullable(),
    markScale: z.array(z.object({ mark: z.string(), minScore: z.number(), level: z.string().nullish() })),
    levelBands: z.array(z.object({ level: z.string(), minPercent: z.number() })),
    specificationId: z.number().int().nullable(),
    sourceId: z.string().nullable(),
    isOpen: z.boolean().describe('open to guests (docs/open-tests.md)'),
    allowCalculator: z.boolean().describe('the runner offers a basic calculator'),
    variantCount: z.number().int().describe('current (not superseded) variants'),
    createdAt: instant,
    updatedAt: instant.nullable(),
  })
  .meta({ id: 'AuthoringSubjectTest' });
export type AuthoringSubjectTest = z.infer<typeof authoringSubjectTestSchema>;

/**
 * A secure subject test sharing items with this one: an open test would show them to guests with
 * their keys (docs/open-tests.md), so marking this test open answers 409 `open_test_shares_tasks`.
 */
export const openTestConflictSchema = z
  .object({
    subjectTestId: z.number().int(),
    name: z.string(),
    diagnostics: z
      .array(z.string())
      .describe('the diagnostics still using it: not both finished and published'),
    sharedTasks: z.number().int().describe('how many of this test’s tasks (any version of them) it holds'),
  })
  .meta({ id: 'OpenTestConflict' });
export type OpenTestConflict = z.infer<typeof openTestConflictSchema>;

/** One subject test as its page reads it: the list's fields and what keeps it from being opened. */
export const authoringSubjectTestDetailSchema = authoringSubjectTestSchema
  .extend({
    openConflicts: z
      .array(openTestConflictSchema)
      .default([])
      .describe(
        'secure subject tests sharing items with its current variants (itself included while a live ' +
          'diagnostic uses it): while any is listed, marking it open is refused (409 `open_test_shares_tasks`)',
      ),
  })
  .meta({ id: 'AuthoringSubjectTestDetail' });
export type AuthoringSubjectTestDetail = z.infer<typeof authoringSubjectTestDetailSchema>;

export const AUTHORING_SUBJECT_TEST_SORT_FIELDS = ['id', 'name', 'createdAt', 'updatedAt'] as const;
export const authoringSubjectTestListRequestSchema = listRequestOf(
  AUTHORING_SUBJECT_TEST_SORT_FIELDS,
  z.strictObject({
    search: z.string().trim().max(100).optional().describe('part of the name'),
    subjectId: id.optional(),
    subjectExamId: id.optional(),
    kind: z.enum(SUBJECT_EXAM_KINDS).optional(),
    testGroupId: id.optional(),
    parallel: grade.optional(),
    status: subjectTestStatusSchema.optional(),
  }),
).meta({ id: 'AuthoringSubjectTestListRequest' });
export const authoringSubjectTestListResponseSchema = listResponseSchema(authoringSubjectTestSchema);

/**
 * A reason a subject test cannot be published. `code`: no_variants, variant_empty,
 * unknown_answer_type, invalid_definition, missing_key, empty_options, key_outside_options,
 * unscorable, bad_max_score, mark_scale_missing, mark_scale_not_from_zero, mark_scale_above_max,
 * unequal_max_score. In the 409 `content_invalid` body each problem is an entry of `errors` with
 * the same `code` and `message`, and `params` holding variantId, taskId and position.
 */
export const contentProblemSchema = z
  .object({
    variantId: z.number().int().optional(),
    taskId: z.number().int().optional(),
    position: z.number().int().optional().describe('position of the task in the variant'),
    code: z.string(),
    message: z.string(),
  })
  .meta({ id: 'ContentProblem' });
export type ContentProblem = z.infer<typeof contentProblemSchema>;

export const contentValidationSchema = z
  .object({
    valid: z.boolean(),
    maxScore: z.number().nullable().describe('max score of the variants (when they agree)'),
    problems: z.array(contentProblemSchema),
    expertCoverage: expertCoverageSchema
      .nullable()
      .optional()
      .describe(
        'Who can grade its expert-graded tasks (null: it has none). Fewer than 2 experts is a warning, ' +
          'not a problem: publication goes on, but answers would wait for experts',
      ),
  })
  .meta({ id: 'ContentValidation' });
export type ContentValidation = z.infer<typeof contentValidationSchema>;

// ---------------------------------------------------------------- variants

export const authoringVariantTaskSchema = z.object({
  variantTaskId: z.number().int(),
  position: z.number().int(),
  taskId: z.number().int(),
  answerType: z.string(),
  title: z.string().nullable(),
  maxScore: z.number(),
  taskVersion: z.number().int(),
});

export const authoringVariantSchema = z
  .object({
    id: z.number().int(),
    subjectTestId: z.number().int(),
    number: z.number().int(),
    previousVersionId: z.number().int().nullable(),
    supersededAt: instant.nullable(),
    usedByWorks: z.boolean().describe('a work was started on it: an edit makes a new version'),
    maxScore: z.number(),
    tasks: z.array(authoringVariantTaskSchema),
  })
  .meta({ id: 'AuthoringVariant' });
export type AuthoringVariant = z.infer<typeof authoringVariantSchema>;

const variantTaskBody = z.strictObject({
  taskId: id,
  maxScore: z
    .number()
    .positive()
    .max(100)
    .optional()
    .describe("points at this position; default: the task's"),
});

export const variantBodySchema = z
  .strictObject({
    number: z.number().int().min(1).max(100_000).optional().describe('default: the next free number'),
    tasks: z
      .array(variantTaskBody)
      .min(1)
      .max(200)
      .refine((l) => distinct(l.map((t) => t.taskId)), 'a task appears once in a variant')
      .describe('tasks in order: positions 1, 2, …'),
  })
  .meta({ id: 'VariantBody' });
export type VariantBody = z.output<typeof variantBodySchema>;

export const variantUpdateBodySchema = z
  .strictObject({ tasks: variantBodySchema.shape.tasks })
  .meta({ id: 'VariantUpdateBody' });

export const blueprintRowSchema = z
  .strictObject({
    elementId: id.optional().describe('draw tasks classified by this specification element'),
    category: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .optional()
      .describe('draw tasks of this category (or below it)'),
    count: z.number().int().min(1).max(100),
    maxScore: z
      .number()
      .positive()
      .max(100)
      .optional()
      .describe("points per drawn task; default: the tasks' own (they must agree)"),
  })
  .refine((r) => !(r.elementId !== undefined && r.category !== undefined), 'elementId or category, not both');

export const generateVariantsBodySchema = z
  .strictObject({
    count: z.number().int().min(1).max(100).describe('variants to create'),
    seed: z
      .union([z.number().int(), z.string().trim().min(1).max(100)])
      .describe('the same seed on the same pool gives the same variants'),
    blueprint: z.array(blueprintRowSchema).min(1).max(100),
  })
  .meta({ id: 'GenerateVariantsBody' });
export type GenerateVariantsBody = z.output<typeof generateVariantsBodySchema>;

// ---------------------------------------------------------------- tasks

/** A rubric criterion as authored: `step` is the grain of an expert's score (1, or 0.5). */
export const authoringCriterionSchema = criterionSchema.extend({
  step: z.number().positive().max(100).optional().describe('grain of the score: 1 (default) or 0.5'),
});

const taskMeta = {
  html: html.refine((s) => s.trim().length > 0, 'the task text is required'),
  solutionHtml: html.nullable().optional(),
  category: optionalText(300).optional().describe('pool category path, e.g. «Алгебра/Уравнения»'),
  title: optionalText(300).optional(),
  htmlContainerId: id.nullable().optional(),
  answerType: taskAnswerTypeSchema,
  content: z.record(z.string(), z.unknown()).default({}),
  reference: z.unknown(),
  scoring: z.record(z.string(), z.unknown()).default({}),
  maxScore: z.number().positive().max(100),
  criteria: z.array(authoringCriterionSchema).max(20).nullable().optional(),
};

export const taskCreateBodySchema = z
  .strictObject({
    subjectId: id.describe('the subject whose pool holds the task'),
    sourceId: optionalText(300).optional(),
    sourceFormat: optionalText(32).optional(),
    elementIds: z.array(id).max(100).optional().describe('specification elements the task checks'),
    ...taskMeta,
  })
  .describe(
    'The whole task: answerType, content, reference, scoring, maxScore and criteria are checked together ' +
      'by the task model (400 `invalid_task` with the failing fields)',
  )
  .meta({ id: 'TaskCreateBody' });
export type TaskCreateBody = z.output<typeof taskCreateBodySchema>;

export const taskUpdateBodySchema = z
  .strictObject(taskMeta)
  .describe('The whole task as it should be (the subject, source and classifiers stay)')
  .meta({ id: 'TaskUpdateBody' });
export type TaskUpdateBody = z.output<typeof taskUpdateBodySchema>;

export const authoringTaskSchema = z
  .object({
    id: z.number().int(),
    answerType: z.string(),
    html: z.string().describe('as stored (sanitised on the way in)'),
    content: z.record(z.string(), z.unknown()),
    reference: z.unknown(),
    scoring: z.record(z.string(), z.unknown()),
    maxScore: z.number(),
    solutionHtml: z.string().nullable(),
    criteria: z.array(authoringCriterionSchema).nullable(),
    htmlContainerId: z.number().int().nullable(),
    subjectId: z.number().int().nullable(),
    category: z.string().nullable(),
    title: z.string().nullable(),
    sourceId: z.string().nullable(),
    sourceFormat: z.string().nullable(),
    version: z.number().int(),
    previousVersionId: z.number().int().nullable(),
    supersededAt: instant.nullable(),
    elementIds: z.array(z.number().int()).describe('specification elements (classifiers)'),
    files: z.array(z.object({ id: z.number().int(), name: z.string(), mime: z.string() })),
    usedByWorks: z.boolean().describe('a started work has it: an edit makes a new version'),
    createdAt: instant,
    updatedAt: instant.nullable(),
  })
  .meta({ id: 'AuthoringTask' });
export type AuthoringTask = z.infer<typeof authoringTaskSchema>;

export const authoringTaskListItemSchema = z
  .object({
    id: z.number().int(),
    answerType: z.string(),
    subjectId: z.number().int().nullable(),
    category: z.string().nullable(),
    title: z.string().nullable(),
    text: z.string().describe('the beginning of the task text, plain'),
    maxScore: z.number(),
    version: z.number().int(),
    updatedAt: instant.nullable(),
    createdAt: instant,
  })
  .meta({ id: 'AuthoringTaskListItem' });

export const AUTHORING_TASK_SORT_FIELDS = ['id', 'title', 'category', 'createdAt', 'updatedAt'] as const;
export const authoringTaskListRequestSchema = listRequestOf(
  AUTHORING_TASK_SORT_FIELDS,
  z.strictObject({
    subjectId: id.optional(),
    category: z.string().trim().min(1).max(300).optional().describe('this category or below it'),
    answerType: z.string().trim().min(1).max(64).optional(),
    search: z.string().trim().max(100).optional().describe('part of the title, text or source id'),
    elementId: id.optional(),
  }),
).meta({ id: 'AuthoringTaskListRequest' });
export const authoringTaskListResponseSchema = listResponseSchema(authoringTaskListItemSchema);

export const taskVersionSchema = z.object({
  id: z.number().int(),
  version: z.number().int(),
  previousVersionId: z.number().int().nullable(),
  supersededAt: instant.nullable(),
  createdBy: z.number().int().nullable(),
  createdAt: instant,
  updatedAt: instant.nullable(),
  usedByWorks: z.boolean(),
});

export const taskScoreBodySchema = z
  .strictObject({ value: z.unknown().describe("an answer value of the task's type (saveanswer's `value`)") })
  .meta({ id: 'TaskScoreBody' });

export const taskScoreResultSchema = z
  .object({
    score: z.number().nullable().describe('null for tasks graded by experts'),
    maxScore: z.number(),
    status: z.string().describe('scored | empty | manual'),
    correct: z.boolean().optional(),
    mistakes: z.number().int().optional(),
  })
  .meta({ id: 'TaskScoreResult' });
export type TaskScoreResult = z.infer<typeof taskScoreResultSchema>;

export const taskElementsBodySchema = z.strictObject({
  elementIds: z.array(id).max(100).refine(distinct, 'each element once'),
});

// ---------------------------------------------------------------- specifications

export const SPECIFICATION_ELEMENT_KINDS = ['content', 'skill'] as const;
export const specificationElementKindSchema = z.enum(SPECIFICATION_ELEMENT_KINDS);

export const specificationElementSchema = z
  .object({
    id: z.number().int(),
    code: z.string(),
    name: z.string(),
    kind: z.string().describe('content | skill'),
    parentId: z.number().int().nullable(),
    position: z.number().int(),
    depth: z.number().int().min(0).describe('0 at the top'),
  })
  .meta({ id: 'SpecificationElement' });

export const specificationSummarySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    subjectId: z.number().int().nullable(),
    parallel: z.number().int().nullable(),
    description: z.string().nullable(),
    elementCount: z.number().int(),
  })
  .meta({ id: 'SpecificationSummary' });

export const specificationSchema = specificationSummarySchema
  .extend({
    elements: z
      .array(specificationElementSchema)
      .describe('the tree in order: each element follows its parent, siblings by position'),
  })
  .meta({ id: 'Specification' });
export type Specification = z.infer<typeof specificationSchema>;

export const specificationListQuerySchema = z.strictObject({
  subjectId: z
    .string()
    .regex(/^\d{1,10}$/, 'a positive integer')
    .transform(Number)
    .pipe(id)
    .optional(),
});

export const specificationBodySchema = z
  .strictObject({
    name: name(300),
    subjectId: id.nullable().optional(),
    parallel: grade.nullable().optional(),
    description: optionalText(4000).optional(),
  })
  .meta({ id: 'SpecificationBody' });

export const specificationElementBodySchema = z
  .strictObject({
    code: z.string().trim().min(1).max(32),
    name: name(1000),
    kind: specificationElementKindSchema.default('content'),
    parentId: id.nullable().optional(),
    position: z.number().int().min(0).max(100_000).optional().describe('default: after its siblings'),
  })
  .meta({ id: 'SpecificationElementBody' });

export const specificationImportResultSchema = z
  .object({
    created: z.number().int(),
    updated: z.number().int(),
    specification: specificationSchema,
  })
  .meta({ id: 'SpecificationImportResult' });
