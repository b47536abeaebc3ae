import { z } from 'zod';

/*
 * The report calls (/api/reports/*, issue 12): their queries and the JSON answers the screens read.
 * `format=xlsx` (and `pdf`, `csv` where a call offers them) answers a download instead, built from
 * the same data. docs/reports.md says what each figure means and which results count.
 */

const instant = z.string().describe('ISO instant (UTC, Z)');
const positiveId = z.number().int().positive().max(2_147_483_647);
const count = z.number().int().min(0);
/** Ids in a query string arrive as text; anything but a positive int4 is a 400. */
const queryId = z
  .string()
  .regex(/^\d{1,10}$/, 'a positive integer')
  .transform(Number)
  .pipe(positiveId);
/** Checked by the server, so that a wrong date answers `invalid_date` rather than a validation error. */
const plainDate = z.string().max(40);

/** The filters every report takes (docs/reports.md, "Filters and scope"). */
const filterFields = {
  diagnosticId: queryId.optional().describe('one diagnostic; 403 outside your scope, 404 unknown'),
  subjectTestId: queryId.optional().describe('one subject test; 404 unknown'),
  schoolId: queryId.optional().describe('one school; 403 outside your scope, 404 unknown'),
  classId: queryId.optional().describe('one class; 403 outside your scope, 404 unknown'),
  startDate: plainDate
    .optional()
    .describe('first test day, inclusive: yyyy-mm-dd of the school calendar (Moscow); 400 `invalid_date`'),
  endDate: plainDate
    .optional()
    .describe('last test day, inclusive; 400 `invalid_date`, or `invalid_date_range` before startDate'),
};

/** The filters as the server applied them. */
export const reportFiltersSchema = z
  .object({
    diagnosticId: positiveId.nullable(),
    subjectTestId: positiveId.nullable(),
    schoolId: positiveId.nullable(),
    classId: positiveId.nullable(),
    startDate: z.string().nullable(),
    endDate: z.string().nullable(),
  })
  .meta({ id: 'ReportFilters' });
export type ReportFilters = z.infer<typeof reportFiltersSchema>;

export const reportQuerySchema = z.strictObject({
  ...filterFields,
  format: z.enum(['json', 'xlsx', 'pdf']).default('json'),
});
export type ReportQuery = z.infer<typeof reportQuerySchema>;

export const REPORT_CONS_SORTS = [
  'name',
  'registered',
  'tookPart',
  'scored',
  'meanScore',
  'meanPercent',
] as const;
export const reportConsQuerySchema = z.strictObject({
  ...filterFields,
  sort: z.enum(REPORT_CONS_SORTS).default('name').describe('order of the schools and of the classes in each'),
  dir: z.enum(['asc', 'desc']).default('asc'),
  format: z.enum(['json', 'xlsx', 'pdf']).default('json'),
});
export type ReportConsQuery = z.infer<typeof reportConsQuerySchema>;

/** Rows per page of `detailed`'s JSON by default, and at most. */
export const REPORT_DETAILED_PAGE_SIZE = 1000;
export const REPORT_DETAILED_MAX_PAGE_SIZE = 5000;

/** A positive integer in a query string, with its bounds. */
const queryInt = (max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, 'a positive integer')
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));

export const reportDetailedQuerySchema = z.strictObject({
  ...filterFields,
  page: queryInt(2_147_483_647).optional().describe('JSON only: the page, from 1 (default 1)'),
  pageSize: queryInt(REPORT_DETAILED_MAX_PAGE_SIZE)
    .optional()
    .describe(
      `JSON only: rows per page (default ${REPORT_DETAILED_PAGE_SIZE}, at most ${REPORT_DETAILED_MAX_PAGE_SIZE})`,
    ),
  format: z.enum(['json', 'xlsx']).default('json'),
});
export type ReportDetailedQuery = z.infer<typeof reportDetailedQuerySchema>;

export const reportSpecificationQuerySchema = z.strictObject({
  ...filterFields,
  specId: queryId
    .optional()
    .describe('the specification; default: that of the subject test, else of the diagnostic (400 when none)'),
  format: z.enum(['json', 'xlsx']).default('json'),
});
export type ReportSpecificationQuery = z.infer<typeof reportSpecificationQuerySchema>;

export const reportProtocolQuerySchema = z
  .strictObject({
    diagnosticId: queryId.describe('the diagnostic; 403 outside your scope, 404 unknown'),
    classId: queryId.optional().describe('the room as a class (its participants)'),
    buildingId: queryId
      .optional()
      .describe('the room as a building (every participant seated there); with classId: that class there'),
    subjectTestId: filterFields.subjectTestId,
    startDate: filterFields.startDate,
    endDate: filterFields.endDate,
    format: z.enum(['json', 'pdf']).default('pdf'),
  })
  .refine((q) => q.classId !== undefined || q.buildingId !== undefined, {
    message: 'name the room: classId or buildingId',
    path: ['classId'],
  });
export type ReportProtocolQuery = z.infer<typeof reportProtocolQuerySchema>;

export const reportExportQuerySchema = z.strictObject({
  diagnosticId: filterFields.diagnosticId,
  subjectTestId: filterFields.subjectTestId,
  schoolId: filterFields.schoolId,
  startDate: filterFields.startDate,
  endDate: filterFields.endDate,
  format: z.enum(['json', 'csv', 'xlsx']).default('json'),
});
export type ReportExportQuery = z.infer<typeof reportExportQuerySchema>;

// ------------------------------------------------------------------ figures

/** Figures of a group of registrations (docs/reports.md, "Figures"). */
export const reportStatsSchema = z
  .object({
    registered: count.describe('live registrations: annulled + tookPart + absent + pending'),
    annulled: count,
    tookPart: count.describe('registrations with a live work (started)'),
    absent: count.describe('no live work, and marked absent or the test day / window is over'),
    pending: count.describe('no live work yet, the sitting still ahead'),
    finished: count.describe('works finished (by the participant, the organizer or the clock)'),
    unfinished: count.describe('works started and not finished'),
    scored: count.describe('finished works with a complete result: the results every figure below counts'),
    notScored: count.describe('finished works whose result is not complete (awaiting experts or scoring)'),
    meanScore: z.number().nullable().describe('mean primary score of the scored results (2 decimals)'),
    meanPercent: z.number().nullable().describe('mean percent of the scored results (2 decimals)'),
    marks: z
      .array(z.object({ mark: z.string(), count }))
      .describe('"2"–"5" always, then any other mark of the scale; results without a mark are not listed'),
    levels: z.array(z.object({ level: z.string(), count })).describe('in the order of the scale'),
  })
  .meta({ id: 'ReportStats' });
export type ReportStats = z.infer<typeof reportStatsSchema>;

const subjectTestHead = {
  subjectTestId: positiveId,
  subjectTestName: z.string(),
  maxScore: z.number().nullable().describe('maximum primary score of the scored results'),
};

export const reportCommonSchema = z
  .object({
    generatedAt: instant,
    filters: reportFiltersSchema,
    items: z.array(
      z.object({
        ...subjectTestHead,
        firstDate: z.string().nullable().describe('first test day of the registrations counted'),
        lastDate: z.string().nullable(),
        stats: reportStatsSchema,
      }),
    ),
  })
  .meta({ id: 'ReportCommon' });
export type ReportCommon = z.infer<typeof reportCommonSchema>;

const consClassSchema = z.object({
  classId: positiveId.nullable(),
  className: z.string().nullable(),
  stats: reportStatsSchema,
});
const consSchoolSchema = z.object({
  schoolId: positiveId.nullable(),
  schoolName: z.string().nullable(),
  stats: reportStatsSchema,
  classes: z.array(consClassSchema),
});
export const reportConsSchema = z
  .object({
    generatedAt: instant,
    filters: reportFiltersSchema,
    sort: z.enum(REPORT_CONS_SORTS),
    dir: z.enum(['asc', 'desc']),
    items: z.array(
      z.object({
        ...subjectTestHead,
        total: reportStatsSchema.describe('every registration of the subject test in your scope'),
        schools: z.array(consSchoolSchema),
      }),
    ),
  })
  .meta({ id: 'ReportCons' });
export type ReportCons = z.infer<typeof reportConsSchema>;

// ------------------------------------------------------------------ control

const participantRef = {
  participantTestId: positiveId,
  code: z.string().describe('the registration code (never the activation code)'),
  participantName: z.string().optional().describe('full name; absent for impersonal registrations'),
  schoolId: positiveId.nullable(),
  classId: positiveId.nullable(),
  subjectTestId: positiveId,
  testDate: z.string(),
};

export const reportAnomalySchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('fast_finish'),
      ...participantRef,
      examWorkId: positiveId,
      usedSeconds: count.describe('working time: finish − start − paused time'),
      limitSeconds: count.describe('time allowed: the limit plus extra time'),
    }),
    z.object({
      kind: z.literal('offline_gap'),
      ...participantRef,
      examWorkId: positiveId,
      gaps: count.describe('offline gaps of at least the threshold'),
      longestSeconds: count,
      totalSeconds: count,
    }),
    z.object({
      kind: z.literal('integrity_events'),
      ...participantRef,
      examWorkId: positiveId,
      leaves: count.describe('blur + fullscreen_exit + visibility_hidden'),
      events: z.record(z.string(), count).describe('every integrity event of the work, counted by kind'),
    }),
    z.object({
      kind: z.literal('proctoring'),
      ...participantRef,
      examWorkId: positiveId,
      verdict: z.string(),
      at: instant,
    }),
    z.object({
      kind: z.literal('similar_answers'),
      ...participantRef,
      examWorkId: positiveId,
      other: z.object({
        participantTestId: positiveId,
        examWorkId: positiveId,
        code: z.string(),
        participantName: z.string().optional(),
      }),
      sharedWrong: count.describe('tasks both answered wrongly with the very same answer'),
      bothWrong: count.describe('tasks both answered (not empty) and both got wrong'),
      compared: count.describe('tasks the two works have in common'),
    }),
  ])
  .meta({ id: 'ReportAnomaly' });
export type ReportAnomaly = z.infer<typeof reportAnomalySchema>;

export const reportControlSchema = z
  .object({
    generatedAt: instant,
    filters: reportFiltersSchema,
    thresholds: z.object({
      fastFinishShare: z.number().describe('a work finished within this share of its time is listed'),
      offlineGapSeconds: count,
      integrityLeaves: count,
      similarMinSharedWrong: count,
      similarMinShare: z.number().describe('sharedWrong / bothWrong at least this'),
    }),
    attendance: z.array(
      z.object({
        subjectTestId: positiveId,
        subjectTestName: z.string(),
        schoolId: positiveId.nullable(),
        schoolName: z.string().nullable(),
        classId: positiveId.nullable(),
        className: z.string().nullable(),
        testDate: z.string(),
        registered: count,
        annulled: count,
        tookPart: count,
        absent: count,
        pending: count,
        finished: count,
        unfinished: count,
      }),
    ),
    unfinished: z.array(
      z.object({
        ...participantRef,
        examWorkId: positiveId,
        status: z.string().describe('in_progress | paused'),
        startedAt: instant,
        deadlineAt: instant,
      }),
    ),
    anomalies: z.array(reportAnomalySchema),
  })
  .meta({ id: 'ReportControl' });
export type ReportControl = z.infer<typeof reportControlSchema>;

// ------------------------------------------------------------------ detailed

export const reportDetailedRowSchema = z
  .object({
    participantTestId: positiveId,
    code: z.string().describe('the registration code'),
    surname: z.string().optional().describe('absent for impersonal registrations'),
    schoolId: positiveId.nullable(),
    classId: positiveId.nullable(),
    variant: z.number().int().describe('the variant number'),
    primaryScore: z.number(),
    maxScore: z.number(),
    percent: z.number(),
    mark: z.string().nullable(),
    level: z.string().nullable(),
    tasks: z.array(
      z.object({
        position: z.number().int(),
        taskId: positiveId,
        score: z.number().nullable(),
        maxScore: z.number(),
      }),
    ),
  })
  .meta({ id: 'ReportDetailedRow' });
export type ReportDetailedRow = z.infer<typeof reportDetailedRowSchema>;

export const reportDetailedSchema = z
  .object({
    rows: z.array(reportDetailedRowSchema).describe('the rows of the page, in registration order'),
    total: count.describe('rows of every page'),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
  })
  .meta({ id: 'ReportDetailed' });
export type ReportDetailed = z.infer<typeof reportDetailedSchema>;

// ------------------------------------------------------------------ specification

const masteryCell = z.object({
  elementId: positiveId,
  earned: z.number(),
  max: z.number(),
  percent: z.number().nullable().describe('earned / max, one decimal; null when no task counts'),
});

export const reportSpecificationSchema = z
  .object({
    generatedAt: instant,
    filters: reportFiltersSchema,
    specification: z.object({ id: positiveId, name: z.string() }),
    elements: z.array(
      z.object({
        id: positiveId,
        parentId: positiveId.nullable(),
        code: z.string(),
        name: z.string(),
        kind: z.string(),
        depth: z.number().int().min(0),
        taskIds: z.array(positiveId).describe('tasks mapped to it or to an element below it'),
      }),
    ),
    rows: z.array(
      z.object({
        level: z.enum(['total', 'school', 'class']),
        schoolId: positiveId.nullable(),
        schoolName: z.string().nullable(),
        classId: positiveId.nullable(),
        className: z.string().nullable(),
        works: count.describe('scored results counted'),
        cells: z.array(masteryCell).describe('one per element, in the order of `elements`'),
      }),
    ),
  })
  .meta({ id: 'ReportSpecification' });
export type ReportSpecification = z.infer<typeof reportSpecificationSchema>;

// ------------------------------------------------------------------ protocol

export const reportProtocolSchema = z
  .object({
    generatedAt: instant,
    diagnostic: z.object({ id: positiveId, code: z.string(), name: z.string() }),
    room: z.object({
      schoolId: positiveId.nullable(),
      schoolName: z.string().nullable(),
      buildingId: positiveId.nullable(),
      buildingName: z.string().nullable(),
      buildingAddress: z.string().nullable(),
      classId: positiveId.nullable(),
      className: z.string().nullable(),
    }),
    organizers: z.array(z.object({ userId: positiveId, name: z.string() })),
    sittings: z.array(
      z.object({
        subjectTestId: positiveId,
        subjectTestName: z.string(),
        testDate: z.string(),
        durationMinutes: z.number().int(),
        present: count,
        absent: count,
        startedAt: instant.nullable().describe('the first start'),
        finishedAt: instant.nullable().describe('the last finish'),
        participants: z.array(
          z.object({
            participantTestId: positiveId,
            code: z.string(),
            participantName: z.string(),
            className: z.string().nullable(),
            attendance: z.enum(['present', 'absent', 'pending', 'annulled']),
            startedAt: instant.nullable(),
            finishedAt: instant.nullable(),
            finishReason: z.string().nullable(),
            answerMode: z.string().nullable(),
          }),
        ),
        pauses: z.array(
          z.object({
            participantTestId: positiveId,
            participantName: z.string(),
            startedAt: instant,
            endedAt: instant.nullable(),
            byStaff: z.boolean(),
            by: z.string().nullable().describe('who paused it (staff: their name)'),
            resumedBy: z
              .string()
              .nullable()
              .optional()
              .describe(
                'who resumed it, when staff did (their name); null for the participant or the server',
              ),
            reason: z.string().nullable(),
          }),
        ),
        timeChanges: z.array(
          z.object({
            participantTestId: positiveId,
            participantName: z.string(),
            at: instant,
            deltaSeconds: z.number().int(),
            by: z.string().nullable(),
            reason: z.string().nullable(),
          }),
        ),
        incidents: z.array(
          z.object({
            participantTestId: positiveId,
            participantName: z.string(),
            kind: z
              .string()
              .describe(
                'an integrity event kind, connection_lost (the runner lost its connection while the work ran), ' +
                  'second_device (another device was refused the work), or work_deleted',
              ),
            count,
            firstAt: instant,
            lastAt: instant,
            reason: z.string().nullable(),
            by: z.string().nullable().optional().describe('work_deleted: the staff member who deleted it'),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'ReportProtocol' });
export type ReportProtocol = z.infer<typeof reportProtocolSchema>;

// ------------------------------------------------------------------ exports to other systems

const exportTask = z.object({
  position: z.number().int(),
  score: z.number().nullable(),
  maxScore: z.number(),
});

/** One published result as the upstream Attesta instance takes it (no names: codes and external ids). */
export const attestaExportRowSchema = z.object({
  diagnosticCode: z.string(),
  diagnosticName: z.string(),
  subjectCode: z.string().nullable(),
  subjectTestId: positiveId,
  subjectTestName: z.string(),
  subjectTestSourceId: z.string().nullable(),
  testDate: z.string(),
  schoolCode: z.string().nullable(),
  schoolName: z.string().nullable(),
  className: z.string().nullable(),
  participantCode: z.string().describe('the registration code'),
  externalProvider: z.string().nullable(),
  externalId: z.string().nullable().describe("the participant's id at the external login provider, if known"),
  variant: z.number().int(),
  primaryScore: z.number(),
  maxScore: z.number(),
  percent: z.number(),
  mark: z.string().nullable(),
  level: z.string().nullable(),
  verificationCode: z.string(),
  publishedAt: instant.nullable(),
  tasks: z.array(exportTask),
});
export const reportAttestaSchema = z
  .object({
    format: z.literal('attesta.results'),
    version: z.literal(1),
    generatedAt: instant,
    items: z.array(attestaExportRowSchema),
  })
  .meta({ id: 'ReportAttestaExport' });
export type ReportAttesta = z.infer<typeof reportAttestaSchema>;

/** One published mark of a student as the MRKO journal takes it. */
export const mrkoExportRowSchema = z.object({
  schoolCode: z.string().nullable(),
  schoolName: z.string().nullable(),
  className: z.string().nullable(),
  externalProvider: z.string().nullable(),
  studentExternalId: z.string().nullable(),
  surname: z.string(),
  name: z.string(),
  patronymic: z.string().nullable(),
  subjectCode: z.string().nullable(),
  subjectName: z.string(),
  subjectTestName: z.string(),
  date: z.string().describe('the test day, yyyy-mm-dd'),
  mark: z.string(),
  primaryScore: z.number(),
  maxScore: z.number(),
  percent: z.number(),
  participantCode: z.string(),
  verificationCode: z.string(),
  tasks: z.array(exportTask),
});
export const reportMrkoSchema = z
  .object({
    format: z.literal('mrko.marks'),
    version: z.literal(1),
    generatedAt: instant,
    items: z.array(mrkoExportRowSchema),
  })
  .meta({ id: 'ReportMrkoExport' });
export type ReportMrko = z.infer<typeof reportMrkoSchema>;

// ------------------------------------------------------------------ queued downloads

/**
 * A download too big to build during the request (docs/reports.md, "Large reports"): `202` with
 * the queue item (type `report`, or `export` for attesta and mrko) that builds the file. Follow it
 * with `GET /api/reports/queue/{queueItemId}` (or the queue pages); once `done`, its
 * `resultFileId` downloads with `GET /api/files/{id}`.
 */
export const reportQueuedSchema = z
  .strictObject({
    queueItemId: positiveId.describe('the queue item building the file'),
  })
  .meta({ id: 'ReportQueued' });
export type ReportQueued = z.infer<typeof reportQueuedSchema>;

/** `GET /api/reports/queue/{queueItemId}`. */
export const reportQueueItemParamsSchema = z.object({ queueItemId: queryId });
