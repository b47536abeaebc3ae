import { z } from 'zod';
import { accommodationsSchema } from './accommodations.js';
import { taskAnswerTypeSchema } from './content.js';

/*
 * The exam runner's calls (/api/exam/test/*), shared by server and web. Times are ISO instants;
 * `serverTime` lets the client correct its own clock — the server's clock rules (docs/design.md §3).
 */

export const ANSWER_MODES = ['online', 'blank'] as const;

// ANSWER_FILE_MAX_BYTES, ANSWER_VALUE_MAX_BYTES, SAVE_BATCH_MAX_BYTES and DEVICE_HEADER are in a
// module without zod (exam-limits.ts): the web's first chunks read them without loading zod (issue 24).
export {
  ANSWER_FILE_MAX_BYTES,
  ANSWER_VALUE_MAX_BYTES,
  DEVICE_HEADER,
  SAVE_BATCH_MAX_BYTES,
} from './exam-limits.js';

export const answerModeSchema = z.enum(ANSWER_MODES).describe('online, or blank: on the paper answer form');
export type AnswerMode = z.infer<typeof answerModeSchema>;

export const EXAM_WORK_STATUSES = ['new', 'in_progress', 'paused', 'finished', 'scored'] as const;
export const examWorkStatusSchema = z.enum(EXAM_WORK_STATUSES);
export type ExamWorkStatus = z.infer<typeof examWorkStatusSchema>;

export const FINISH_REASONS = ['manual', 'timeout', 'organizator', 'paper'] as const;
export const finishReasonSchema = z.enum(FINISH_REASONS);

const instant = z.string().describe('ISO instant (UTC, Z)');
const calendarDate = z.string().describe('yyyy-mm-dd');

export const subjectTestSummarySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    subjectName: z.string(),
    parallels: z.array(z.number().int()),
    durationMinutes: z.number().int(),
    description: z.string().nullable(),
    taskCount: z.number().int().nullable(),
    allowBlank: z.boolean(),
    allowCalculator: z.boolean().describe("the runner offers a basic calculator on this test's tasks"),
    testGroupId: z.number().int().nullable(),
    hasQuiz: z.boolean(),
  })
  .meta({ id: 'SubjectTestSummary' });
export type SubjectTestSummary = z.infer<typeof subjectTestSummarySchema>;

/** GET checkActivationCode[/{code}]: no personal data — the code alone must not reveal a name. */
export const activationCodeCheckSchema = z
  .object({
    valid: z.boolean(),
    reason: z
      .enum(['unknown', 'annulled', 'not_yet_active', 'window_closed', 'finished'])
      .nullable()
      .describe('why the code cannot be used to take the test now'),
    subjectTest: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    testDate: calendarDate.nullable(),
    windowStartsAt: instant.nullable(),
    windowEndsAt: instant.nullable(),
    serverTime: instant,
  })
  .meta({ id: 'ActivationCodeCheck' });
export type ActivationCodeCheck = z.infer<typeof activationCodeCheckSchema>;

export const savedAnswerSchema = z.object({
  variantTaskId: z.number().int(),
  value: z.unknown().describe('shape depends on the answer type (see TASK_SCHEMAS value)'),
  seq: z.number().int(),
  savedAt: instant,
  answerMode: answerModeSchema,
  fileIds: z.array(z.number().int()).optional(),
});
export type SavedAnswer = z.infer<typeof savedAnswerSchema>;

/** The state of an exam work as the runner needs it; `answers` only where the call says so. */
export const examWorkStateSchema = z
  .object({
    id: z.number().int(),
    participantTestId: z.number().int(),
    variantId: z.number().int(),
    status: examWorkStatusSchema,
    answerMode: answerModeSchema,
    startedAt: instant,
    timeLimitSeconds: z.number().int(),
    extraSeconds: z.number().int(),
    pausedSeconds: z.number().int(),
    pausedAt: instant.nullable(),
    deadlineAt: instant.describe('includes extra time and pauses, capped by the diagnostic window'),
    secondsLeft: z.number().int().min(0),
    finishedAt: instant.nullable(),
    finishReason: finishReasonSchema.nullable(),
    flags: z.array(z.number().int()).describe('variant task ids the participant flagged ("отмечено")'),
    serverTime: instant,
    answers: z.array(savedAnswerSchema).optional(),
  })
  .meta({ id: 'ExamWorkState' });
export type ExamWorkState = z.infer<typeof examWorkStateSchema>;

export const currentParticipantTestSchema = z
  .object({
    id: z.number().int(),
    status: z.string(),
    testDate: calendarDate,
    diagnostic: z.object({
      id: z.number().int(),
      name: z.string(),
      startsAt: instant,
      endsAt: instant,
      resultsPublished: z.boolean(),
      closedByPublication: z
        .boolean()
        .default(false)
        .describe(
          'the results have been published (also when unpublished since): no work of this diagnostic ' +
            'starts any more (`examwork/new` answers 409 `results_published`, docs/design.md §3)',
        ),
    }),
    subjectTest: subjectTestSummarySchema,
    participant: z.object({
      displayName: z.string(),
      className: z.string().nullable(),
      schoolName: z.string().nullable(),
      cardComplete: z.boolean().describe('names filled in (saveParticipant)'),
      accommodations: accommodationsSchema
        .nullable()
        .default(null)
        .describe("the participant's own accommodations profile (docs/accommodations.md); null: none"),
    }),
    quizDone: z.boolean(),
    examWork: examWorkStateSchema.nullable(),
    openElsewhere: z
      .boolean()
      .describe(
        'the live work is bound to another device than the one asking (device header): its runner ' +
          'must not open here until the organizer moves the work (clearSession)',
      ),
    serverTime: instant,
  })
  .meta({ id: 'CurrentParticipantTest' });
export type CurrentParticipantTest = z.infer<typeof currentParticipantTestSchema>;

export const timeBeforeSchema = z.object({
  seconds: z.number().int().min(0).describe('0 when the start window is open'),
  startsAt: instant,
  endsAt: instant,
  serverTime: instant,
});

export const timeLeftSchema = z.object({
  examWorkId: z.number().int(),
  secondsLeft: z.number().int().min(0),
  deadlineAt: instant,
  status: examWorkStatusSchema,
  paused: z.boolean(),
  serverTime: instant,
});

export const taskFileSchema = z.object({ id: z.number().int(), name: z.string(), mime: z.string() });

/** A task as a participant sees it: never a reference answer, scoring rule, solution or criteria. */
export const participantTaskSchema = z
  .object({
    variantTaskId: z.number().int(),
    position: z.number().int(),
    answerType: taskAnswerTypeSchema.describe(
      'any type of the task model: the ten of ANSWER_TYPES and the imported ones (gap_match, associate, hottext, hotspot, composite)',
    ),
    html: z.string().describe('sanitized task text'),
    content: z.record(z.string(), z.unknown()).describe('options, items, blanks… (TASK_SCHEMAS content)'),
    maxScore: z.number(),
    files: z.array(taskFileSchema),
    htmlContainerId: z.number().int().nullable(),
  })
  .meta({ id: 'ParticipantTask' });
export type ParticipantTask = z.infer<typeof participantTaskSchema>;

export const participantVariantSchema = z
  .object({
    id: z.number().int(),
    number: z.number().int(),
    subjectTestId: z.number().int(),
    subjectTestName: z.string(),
    instructionHtml: z.string().nullable(),
    tasks: z.array(participantTaskSchema),
  })
  .meta({ id: 'ParticipantVariant' });
export type ParticipantVariant = z.infer<typeof participantVariantSchema>;

/** PUT saveanswer (docs/design.md §8). `seq` grows per (exam work, task). */
export const saveAnswerBodySchema = z.strictObject({
  examWorkId: z.number().int().positive(),
  variantTaskId: z.number().int().positive(),
  value: z.unknown().describe('JSON shaped by the task answer type: see TASK_SCHEMAS[type].value'),
  seq: z.number().int().min(1).max(2_000_000_000),
});
export type SaveAnswerBody = z.infer<typeof saveAnswerBodySchema>;
export const saveAnswerResponseSchema = z.object({ seq: z.number().int(), savedAt: instant });

const batchAnswerSchema = z.strictObject({
  variantTaskId: z.number().int().positive(),
  value: z.unknown(),
  seq: z.number().int().min(1).max(2_000_000_000),
});

export const saveAnswersBodySchema = z.strictObject({
  examWorkId: z.number().int().positive(),
  answers: z.array(batchAnswerSchema).min(1).max(200),
});
export type SaveAnswersBody = z.infer<typeof saveAnswersBodySchema>;

/**
 * Staff keying the paper form of a participant who never opened the work online (docs/design.md
 * §5): instead of `examWorkId` the variant printed on the participant's booklet. The save creates
 * the work (answer mode blank, finished as `paper`) with these answers; an empty form is allowed.
 */
export const paperSaveAnswersBodySchema = z
  .strictObject({
    paper: z.strictObject({
      variantId: z
        .number()
        .int()
        .positive()
        .describe('a current variant of the subject test (GET …/participantTest/{id}/paper lists them)'),
    }),
    answers: z.array(batchAnswerSchema).max(200),
  })
  .meta({ id: 'PaperSaveAnswersBody' });
export type PaperSaveAnswersBody = z.infer<typeof paperSaveAnswersBodySchema>;

/** GET /api/exam/test/participantTest/{id}/paper: `variantId` asks for that variant's tasks. */
export const paperSittingQuerySchema = z.strictObject({
  variantId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

/** What staff need to key in the paper form of one sitting, with or without a work. */
export const paperSittingSchema = z
  .object({
    participantTestId: z.number().int(),
    registrationCode: z.string(),
    participantName: z.string(),
    className: z.string().nullable(),
    subjectTestName: z.string(),
    work: z
      .object({ examWorkId: z.number().int(), finished: z.boolean() })
      .nullable()
      .describe(
        'the live work: a finished one is keyed in on its own form, an unfinished one is still open ' +
          'online (PUT saveanswers refuses it: 409 `work_not_finished`); null: never opened online',
      ),
    variants: z
      .array(z.object({ id: z.number().int(), number: z.number().int() }))
      .describe('the current variants of the subject test, by number'),
    variant: participantVariantSchema
      .nullable()
      .describe('the tasks of `variantId` as the participant sees them (never a key); null without it'),
  })
  .meta({ id: 'PaperSitting' });
export type PaperSitting = z.infer<typeof paperSittingSchema>;

/** PUT saveanswers: a batch for an existing work, or (staff, by registration code) a paper-only one. */
export const keyInAnswersBodySchema = z.union([saveAnswersBodySchema, paperSaveAnswersBodySchema]);
export type KeyInAnswersBody = z.infer<typeof keyInAnswersBodySchema>;

/** Each answer applies on its own: `stale` ones (an older seq than stored) change nothing. */
export const saveAnswersResponseSchema = z.object({
  examWorkId: z
    .number()
    .int()
    .optional()
    .describe('a paper-only form (body `paper`): the work the save created'),
  results: z.array(
    z.object({
      variantTaskId: z.number().int(),
      status: z.enum(['saved', 'duplicate', 'stale']),
      seq: z.number().int().describe('the seq now stored'),
      savedAt: instant,
    }),
  ),
});

/** What is left of a participant's own pause allowance (the subject test's pause policy). */
export const pauseAllowanceSchema = z.object({
  allowed: z.boolean().describe('the subject test lets participants pause at all'),
  pausesLeft: z.number().int().min(0),
  secondsLeft: z.number().int().min(0).describe('own paused time left, the pause in force counted'),
});
export type PauseAllowance = z.infer<typeof pauseAllowanceSchema>;

export const pauseStateSchema = z.object({
  examWorkId: z.number().int(),
  paused: z.boolean(),
  pausedAt: instant.nullable(),
  pausedUntil: instant
    .nullable()
    .describe('an own pause ends by itself then (the allowance); null for a staff pause or none'),
  reason: z.string().nullable(),
  byStaff: z.boolean().describe('paused by an organizator: only staff may resume'),
  secondsLeft: z.number().int(),
  allowance: pauseAllowanceSchema
    .nullable()
    .describe("the participant's own pauses left (null: not known here)"),
  restBreak: z
    .boolean()
    .describe("the pause in force is a rest break of the participant's accommodations profile"),
  restBreakSecondsLeft: z
    .number()
    .int()
    .min(0)
    .nullable()
    .describe('rest break time left, the break in force counted (null: no rest breaks, or not known here)'),
  serverTime: instant,
});

/** POST examwork/break/start and break/end: nothing to say (an unknown field is 400). */
export const restBreakBodySchema = z.strictObject({}).meta({ id: 'RestBreakBody' });

export const pauseBodySchema = z.strictObject({
  pause: z.boolean().describe('true pauses, false resumes'),
  examWorkIds: z
    .array(z.number().int().positive())
    .min(1)
    .max(1000)
    .optional()
    .describe('staff only: the works to pause or resume (a whole room at once)'),
  reason: z.string().trim().max(500).optional(),
});

export const examWorkExistsSchema = z.object({
  exists: z.boolean(),
  examWorkId: z.number().int().nullable(),
  status: examWorkStatusSchema.nullable(),
});

export const changeTimeResultSchema = z.object({
  changed: z.array(
    z.object({
      id: z.number().int(),
      extraSeconds: z.number().int(),
      deadlineAt: instant,
      secondsLeft: z.number().int(),
    }),
  ),
});

export const quizSchema = z.object({
  quiz: z
    .object({
      id: z.number().int(),
      name: z.string(),
      questions: z.array(
        z.object({
          id: z.string(),
          text: z.string(),
          kind: z.enum(['single', 'multiple', 'text']),
          options: z.array(z.object({ id: z.string(), text: z.string() })).optional(),
          required: z.boolean().optional(),
        }),
      ),
    })
    .nullable(),
  answers: z.record(z.string(), z.union([z.string(), z.array(z.string())])).nullable(),
});
export const saveQuizBodySchema = z.strictObject({
  answers: z.record(z.string().max(32), z.union([z.string().max(2000), z.array(z.string().max(32)).max(50)])),
});

/*
 * Answers of runner calls that the schemas above do not cover (added with the server's exam-work
 * module; new exports only).
 */

/** POST examwork/pause: the state of every work the call paused or resumed. */
export const pauseResultSchema = z.object({ works: z.array(pauseStateSchema) });

/** PUT examwork/{examWorkId}/{variantTaskId}/flag: flag or unflag a task of one's own work. */
export const flagBodySchema = z.strictObject({ flagged: z.boolean() });
export const flagResultSchema = z.object({ examWorkId: z.number().int(), flags: z.array(z.number().int()) });

/** PUT examwork/{id}/answertype/{type} and .../{variantTaskId}/answertype/{type}. */
export const answerModeResultSchema = z.object({
  examWorkId: z.number().int(),
  variantTaskId: z.number().int().nullable().describe('null: the mode of the whole work'),
  answerMode: answerModeSchema,
});

/** POST saveanswers_with_files: per-answer results plus the files stored with them. */
export const saveAnswersWithFilesResponseSchema = saveAnswersResponseSchema.extend({
  files: z.array(
    z.object({
      variantTaskId: z.number().int(),
      id: z.number().int(),
      name: z.string(),
      mime: z.string(),
      size: z.number().int(),
    }),
  ),
});

export const saveQuizResponseSchema = z.object({ savedAt: instant });

/** GET variant/resolve/{id}: the variant with its key and solutions (after publication only). */
export const resolvedTaskSchema = participantTaskSchema.extend({
  reference: z.unknown().describe('the key: TASK_SCHEMAS[type].reference'),
  solutionHtml: z.string().nullable(),
  criteria: z.array(z.object({ code: z.string(), text: z.string(), maxScore: z.number() })).nullable(),
});
export const resolvedVariantSchema = participantVariantSchema
  .extend({ tasks: z.array(resolvedTaskSchema) })
  .meta({ id: 'ResolvedVariant' });

/** GET getparticipanttestbyresultid/{id}: the participant test card staff open from a result. */
export const participantTestCardSchema = z.object({
  id: z.number().int(),
  status: z.string(),
  testDate: calendarDate,
  diagnosticId: z.number().int(),
  subjectTestId: z.number().int(),
  studentId: z.number().int().nullable(),
  schoolId: z.number().int().nullable(),
  classId: z.number().int().nullable(),
  participantName: z.string().nullable(),
  activationCode: z.string(),
  registrationCode: z.string(),
});
