import { z } from 'zod';
import { idParamSchema } from './user.js';

/*
 * The expert's calls: the grading workspace (/api/expert/*, beyond the specification), the expert
 * profile and the ParticipantTest calls for graders. Expert responses are built from these
 * allowlists only: no participant name, school, class, activation or registration code, and never
 * another expert's marks.
 */

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'yyyy-mm-dd');
const idList = (max: number) =>
  z
    .array(z.number().int().positive())
    .max(max)
    .refine((a) => new Set(a).size === a.length, 'duplicate ids');

// ---------------------------------------------------------------- profile (contract calls)

export const expertProfileSchema = z
  .object({
    subjectIds: z.array(z.number().int()).describe('Subjects the expert grades (in the grades below)'),
    subjects: z.array(z.object({ id: z.number().int(), name: z.string() })),
    subjectTestIds: z
      .array(z.number().int())
      .describe('Subject tests an admin assigned the expert to: graded whatever the grade'),
    subjectTests: z.array(z.object({ id: z.number().int(), name: z.string(), subjectName: z.string() })),
    parallels: z.array(z.number().int()).describe('Grades (0 = preschool, 1–11) the expert grades'),
    maxPerDay: z.number().int().nullable().describe('Most answers assigned per school day; null = no limit'),
    openAssignments: z.number().int().describe('Answers assigned and not graded yet'),
  })
  .describe('An expert profile: what the expert may grade')
  .meta({ id: 'ExpertProfile' });
export type ExpertProfile = z.infer<typeof expertProfileSchema>;

export const expertProfileSaveBodySchema = z.strictObject({
  subjectIds: idList(50).describe('Ids of subjects (POST /api/kim/subject/list)'),
  parallels: z
    .array(z.number().int().min(0).max(11))
    .max(12)
    .refine((a) => new Set(a).size === a.length, 'duplicate grades'),
  maxPerDay: z.number().int().min(1).max(1000).nullable().optional(),
});
export type ExpertProfileSaveBody = z.infer<typeof expertProfileSaveBodySchema>;

/** PUT /api/admin/experts/{id}: an admin assigns an expert to subjects and subject tests (the whole profile). */
export const adminExpertProfileBodySchema = z.strictObject({
  ...expertProfileSaveBodySchema.shape,
  subjectTestIds: idList(200).describe('Ids of subject tests (POST /api/admin/content/subjectTests/list)'),
});
export type AdminExpertProfileBody = z.infer<typeof adminExpertProfileBodySchema>;

// ---------------------------------------------------------------- who can grade (coverage)

/**
 * Whether experts can grade a subject test's expert-graded tasks (extended text and file answers,
 * graded by rubric). Blind double marking needs two different experts for every grade of the test;
 * a third check a third one.
 */
export const expertCoverageSchema = z
  .object({
    subjectTestId: z.number().int(),
    subjectTestName: z.string(),
    subjectName: z.string(),
    expertTaskPositions: z
      .array(z.number().int())
      .describe('Positions of the expert-graded tasks in the current variants'),
    experts: z
      .number()
      .int()
      .describe('Experts (unblocked) who can grade every grade of it; fewer than 2: no double marking'),
    grades: z
      .array(z.object({ grade: z.number().int(), experts: z.number().int() }))
      .describe('Per grade of the test (within the diagnostic’s grades), the experts who can grade it'),
    waitingAnswers: z
      .number()
      .int()
      .describe('Answers of finished works that wait for an expert no one was assigned as'),
  })
  .meta({ id: 'ExpertCoverage' });
export type ExpertCoverage = z.infer<typeof expertCoverageSchema>;

export const expertCoverageQuerySchema = z.strictObject({
  diagnosticId: z.coerce.number().int().positive().max(2_147_483_647),
});
export const expertCoverageListSchema = z.object({
  items: z
    .array(expertCoverageSchema)
    .describe('The diagnostic’s subject tests that have expert-graded tasks, by name'),
});
export type ExpertCoverageList = z.infer<typeof expertCoverageListSchema>;

/** GET /api/admin/subjectTests/{id}/experts: who can grade the test, and whether they suffice. */
export const subjectTestExpertsSchema = z
  .object({
    coverage: expertCoverageSchema,
    experts: z.array(
      z.object({
        id: z.number().int(),
        displayName: z.string(),
        login: z.string(),
        via: z
          .enum(['subject_test', 'subject'])
          .describe('assigned to this subject test, or grading its subject in some of its grades'),
        parallels: z.array(z.number().int()).describe('the expert’s grades (used with `subject`)'),
      }),
    ),
  })
  .meta({ id: 'SubjectTestExperts' });
export type SubjectTestExperts = z.infer<typeof subjectTestExpertsSchema>;

export const subjectTestExpertsAddBodySchema = z.strictObject({
  expertIds: idList(50).min(1).describe('Users with the expert role (POST /api/user/list, role expert)'),
});
export type SubjectTestExpertsAddBody = z.infer<typeof subjectTestExpertsAddBodySchema>;

// ---------------------------------------------------------------- grading workspace

export const expertAssignmentParamsSchema = z.object({ id: idParamSchema });

export const expertNextQuerySchema = z.strictObject({
  subjectTestId: z.coerce.number().int().positive().optional(),
  date: isoDate.optional().describe('School day the work was finished'),
});
export type ExpertNextQuery = z.infer<typeof expertNextQuerySchema>;

export const expertCriterionSchema = z.object({
  code: z.string(),
  text: z.string(),
  maxScore: z.number(),
  step: z.number().positive().describe('a score is a multiple of it: 1 (whole points, the default) or 0.5'),
});
export type ExpertCriterion = z.infer<typeof expertCriterionSchema>;

export const expertMarkSchema = z.object({ criterionCode: z.string(), score: z.number() });
export type ExpertMark = z.infer<typeof expertMarkSchema>;

export const expertAnswerFileSchema = z.object({
  id: z.number().int().describe('Download: GET /api/files/{id}'),
  name: z.string().describe('Neutral name (file-1.jpg): original names may identify'),
  mime: z.string(),
  size: z.number().int(),
});
export type ExpertAnswerFile = z.infer<typeof expertAnswerFileSchema>;

export const expertDisagreementSchema = z
  .object({
    criteria: z
      .array(
        z.object({
          criterionCode: z.string(),
          expert1: z.number().nullable().describe('Round 1 score (null: not given for this criterion)'),
          expert2: z.number().nullable().describe('Round 2 score (null: not given for this criterion)'),
          difference: z.number().nullable().describe('|expert1 − expert2|; null when either is missing'),
        }),
      )
      .describe('Every criterion of the rubric, in its order'),
    totals: z.object({
      expert1: z.number(),
      expert2: z.number(),
      difference: z.number().describe('|expert1 − expert2|, beyond the threshold'),
    }),
    threshold: z.number().describe('The task’s thirdCheckThreshold the difference exceeded'),
  })
  .describe(
    'Where rounds 1 and 2 disagreed, for the third expert only: their marks as «expert 1» and «expert 2» ' +
      '(by round), never who they are, and not their comments (free text may name or betray its author)',
  )
  .meta({ id: 'ExpertDisagreement' });
export type ExpertDisagreement = z.infer<typeof expertDisagreementSchema>;

export const expertAssignmentSchema = z
  .object({
    id: z.number().int(),
    anonCode: z.string().describe('Stands for the participant; the same for every round of one answer'),
    round: z.number().int().describe('1, 2 (blind double marking) or 3 (third check)'),
    status: z.enum(['assigned', 'graded']),
    editable: z.boolean().describe('Marks may still be corrected (no final mark, no third check yet)'),
    subjectTestId: z.number().int(),
    subjectTestName: z.string(),
    subjectName: z.string(),
    workDate: z.string().describe('School day the work was finished'),
    task: z.object({
      position: z.number().int(),
      answerType: z.string(),
      html: z.string().describe('Sanitized task text'),
      criteria: z.array(expertCriterionSchema),
      maxScore: z.number(),
      solutionHtml: z.string().nullable().describe('Sanitized model solution'),
      reference: z.unknown().describe('Reference answer of the task (null for most manual types)'),
    }),
    answer: z.object({
      value: z.unknown().describe('What the participant handed in (extended text: a string)'),
      files: z.array(expertAnswerFileSchema).describe('Attached files'),
    }),
    marks: z.array(expertMarkSchema).nullable().describe("The caller's own marks (never another expert's)"),
    total: z.number().nullable(),
    comment: z.string().nullable(),
    gradedAt: z.string().nullable(),
    disagreement: expertDisagreementSchema
      .nullable()
      .describe(
        'Third checks (round 3) only: where rounds 1 and 2 disagreed; null for rounds 1 and 2 (blind)',
      ),
  })
  .describe('One answer to grade, anonymised');
export type ExpertAssignment = z.infer<typeof expertAssignmentSchema>;

export const expertProgressSchema = z.object({ done: z.number().int(), total: z.number().int() });
export type ExpertProgress = z.infer<typeof expertProgressSchema>;

export const expertWaitingSchema = z
  .object({
    otherExpert: z
      .number()
      .int()
      .describe(
        'rounds the caller may not take: they grade another round of the same answer (blind marking)',
      ),
    dailyLimit: z.number().int().describe('rounds the caller could take once their daily limit allows'),
  })
  .describe(
    'Answers of the caller’s subjects that wait for an expert and that no one was assigned yet (in the ' +
      'same filter); all zero when nothing waits. Rounds the caller can take are given to them at once.',
  );
export type ExpertWaiting = z.infer<typeof expertWaitingSchema>;

export const expertNextResponseSchema = z.object({
  assignment: expertAssignmentSchema.nullable().describe('null: nothing left to grade now'),
  progress: expertProgressSchema,
  waiting: expertWaitingSchema.optional(),
});
export type ExpertNextResponse = z.infer<typeof expertNextResponseSchema>;

export const expertMarksBodySchema = z.strictObject({
  marks: z
    .array(
      z.strictObject({
        criterionCode: z.string().min(1).max(16),
        score: z.number().min(0).max(100).multipleOf(0.5),
      }),
    )
    .min(1)
    .max(50),
  comment: z.string().max(4000).nullable().optional(),
});
export type ExpertMarksBody = z.infer<typeof expertMarksBodySchema>;

export const expertQueueItemSchema = z.object({
  subjectTestId: z.number().int(),
  subjectTestName: z.string(),
  subjectName: z.string(),
  date: z.string(),
  assigned: z.number().int().describe('Open (not graded) assignments'),
  graded: z.number().int(),
  thirdChecks: z.number().int().describe('Assignments that are third checks (any status)'),
});
export type ExpertQueueItem = z.infer<typeof expertQueueItemSchema>;

export const expertQueueResponseSchema = z.object({ items: z.array(expertQueueItemSchema) });
export type ExpertQueueResponse = z.infer<typeof expertQueueResponseSchema>;

const agreementStats = {
  doubleMarked: z.number().int().describe('Answers graded by both experts of rounds 1 and 2'),
  exactAgreementPercent: z.number().nullable(),
  meanAbsDifference: z.number().nullable(),
  thirdCheckRate: z
    .number()
    .nullable()
    .describe('Share (0..1) of double-marked answers sent to a third check'),
};

export const expertAgreementQuerySchema = z.strictObject({
  subjectTestId: z.coerce.number().int().positive().optional(),
});

export const expertAgreementResponseSchema = z.object({
  experts: z.array(z.object({ expertId: z.number().int(), displayName: z.string(), ...agreementStats })),
  tasks: z.array(
    z.object({
      variantTaskId: z.number().int(),
      taskId: z.number().int(),
      position: z.number().int(),
      subjectTestName: z.string(),
      ...agreementStats,
    }),
  ),
});

// ---------------------------------------------------------------- ParticipantTest (contract calls)

export const expertDatesResponseSchema = z.object({
  dates: z.array(z.string()).describe('School days (yyyy-mm-dd) with answers awaiting grading, ascending'),
});
export type ExpertDatesResponse = z.infer<typeof expertDatesResponseSchema>;

export const expertAnswersZipQuerySchema = z.strictObject({
  date: isoDate,
  dateTill: isoDate.optional().describe('Inclusive; default: date'),
});
