import { z } from 'zod';
import { PARTICIPANT_TEST_STATUSES } from './content.js';
import { listRequestSchema, listResponseSchema } from './paging.js';

/*
 * Participant tests as staff see them: /api/ParticipantTest/{list,info,clearSession,
 * participantTestCreateImpersonal,participantTestImportFromXml,RestoreExamWork} and the ugnik's
 * participant-test calls, which answer the same shapes.
 */

const instant = z.string().describe('ISO instant (UTC, Z)');
const calendarDate = z.iso.date().describe('yyyy-mm-dd');
const positiveId = z.number().int().positive().max(2_147_483_647);
const reasonSchema = z.string().trim().min(1).max(500);

export const participantTestStatusSchema = z.enum(PARTICIPANT_TEST_STATUSES);

/** The statuses staff may set by hand on the card; the others follow the exam work. */
export const MANUAL_PARTICIPANT_TEST_STATUSES = ['planned', 'absent', 'annulled'] as const;

/** A row of a participant-test list (staff). */
export const participantTestListItemSchema = z
  .object({
    id: z.number().int().positive(),
    diagnosticId: z.number().int(),
    diagnosticName: z.string(),
    subjectTestId: z.number().int(),
    subjectTestName: z.string(),
    studentId: z.number().int().nullable(),
    workerId: z.number().int().nullable(),
    participantName: z.string().nullable().describe('surname name patronymic; null when impersonal'),
    schoolId: z.number().int().nullable(),
    schoolName: z.string().nullable(),
    classId: z.number().int().nullable(),
    className: z.string().nullable(),
    buildingId: z.number().int().nullable(),
    buildingName: z.string().nullable(),
    testDate: z.string().describe('yyyy-mm-dd'),
    status: z.string(),
    isImpersonal: z.boolean(),
    activationCode: z.string(),
    registrationCode: z.string(),
    examWorkStatus: z.string().nullable().describe('status of the live exam work, null when none'),
  })
  .meta({ id: 'ParticipantTestListItem' });
export type ParticipantTestListItem = z.infer<typeof participantTestListItemSchema>;

export const PARTICIPANT_TEST_SORT_FIELDS = [
  'id',
  'testDate',
  'participantName',
  'className',
  'schoolName',
  'status',
] as const;
export type ParticipantTestSortField = (typeof PARTICIPANT_TEST_SORT_FIELDS)[number];

const participantTestSortSchema = z.strictObject({
  field: z.enum(PARTICIPANT_TEST_SORT_FIELDS),
  dir: z.enum(['asc', 'desc']).default('asc'),
});

export const participantTestListFilterSchema = z.strictObject({
  diagnosticId: positiveId.optional(),
  subjectTestId: positiveId.optional(),
  schoolId: positiveId.optional(),
  classId: positiveId.optional(),
  buildingId: positiveId.optional(),
  testDate: calendarDate.optional(),
  status: participantTestStatusSchema.optional(),
  isImpersonal: z.boolean().optional(),
  search: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('part of the surname / name, or an activation or registration code'),
});
export type ParticipantTestListFilter = z.infer<typeof participantTestListFilterSchema>;

/** `POST /api/ParticipantTest/list` and `POST /api/ugnik/participantTest/list` body. */
export const participantTestListRequestSchema = z
  .strictObject({
    ...listRequestSchema.shape,
    sort: z.union([participantTestSortSchema, z.array(participantTestSortSchema).max(5)]).optional(),
    filter: participantTestListFilterSchema.optional(),
  })
  .meta({ id: 'ParticipantTestListRequest' });
export type ParticipantTestListRequest = z.infer<typeof participantTestListRequestSchema>;

export const participantTestListResponseSchema = listResponseSchema(participantTestListItemSchema).meta({
  id: 'ParticipantTestListResponse',
});

const examWorkSummarySchema = z.object({
  id: z.number().int(),
  status: z.string(),
  answerMode: z.string(),
  startedAt: instant,
  deadlineAt: instant,
  finishedAt: instant.nullable(),
  finishReason: z.string().nullable(),
  deviceBound: z.boolean().describe('a device holds the work; clearSession frees it'),
  answerCount: z.number().int(),
});

/** `GET /api/ParticipantTest/info/{id}`: the participant test card. */
export const participantTestInfoSchema = z
  .object({
    id: z.number().int().positive(),
    diagnostic: z.object({ id: z.number().int(), code: z.string(), name: z.string(), kind: z.string() }),
    subjectTest: z.object({ id: z.number().int(), name: z.string() }),
    student: z
      .object({
        id: z.number().int(),
        surname: z.string(),
        name: z.string(),
        patronymic: z.string().nullable(),
        birthDate: z.string().nullable(),
      })
      .nullable(),
    workerId: z.number().int().nullable(),
    school: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    class: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    building: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    testDate: z.string().describe('yyyy-mm-dd'),
    status: z.string(),
    isImpersonal: z.boolean(),
    activationCode: z.string(),
    registrationCode: z.string(),
    examWork: examWorkSummarySchema.nullable().describe('the live (not deleted) exam work'),
    deletedExamWorks: z
      .array(
        z.object({
          id: z.number().int(),
          status: z.string(),
          deletedAt: instant,
          deletedReason: z.string().nullable(),
        }),
      )
      .describe('soft-deleted works, which RestoreExamWork can bring back'),
    updatedAt: instant,
  })
  .meta({ id: 'ParticipantTestInfo' });
export type ParticipantTestInfo = z.infer<typeof participantTestInfoSchema>;

/** `PUT /api/ParticipantTest/info` body: an omitted field keeps its value. */
export const participantTestInfoUpdateBodySchema = z
  .strictObject({
    id: positiveId,
    testDate: calendarDate.optional().describe('inside the diagnostic window'),
    classId: positiveId.nullable().optional().describe('a class of the same school'),
    buildingId: positiveId.nullable().optional().describe('a building of the same school'),
    status: z.enum(MANUAL_PARTICIPANT_TEST_STATUSES).optional(),
    reason: reasonSchema.optional().describe('required when the status changes'),
  })
  .meta({ id: 'ParticipantTestInfoUpdateBody' });
export type ParticipantTestInfoUpdateBody = z.infer<typeof participantTestInfoUpdateBodySchema>;

export const clearSessionQuerySchema = z.strictObject({ reason: reasonSchema.optional() });

export const clearSessionResultSchema = z
  .object({
    participantTestId: z.number().int(),
    examWorkId: z.number().int().nullable().describe('the live work whose device binding was dropped'),
    sessionsEnded: z.number().int(),
  })
  .meta({ id: 'ClearSessionResult' });
export type ClearSessionResult = z.infer<typeof clearSessionResultSchema>;

/** `POST /api/ParticipantTest/participantTestCreateImpersonal` body. */
export const impersonalCreateBodySchema = z
  .strictObject({
    diagnosticId: positiveId,
    subjectTestId: positiveId.describe('one of the diagnostic'),
    testDate: calendarDate.describe('inside the diagnostic window'),
    count: z.number().int().min(1).max(500),
    schoolId: positiveId
      .optional()
      .describe('admin: required unless classId/buildingId name it; a coordinator: own school only'),
    classId: positiveId.optional(),
    buildingId: positiveId.optional(),
  })
  .meta({ id: 'ImpersonalCreateBody' });
export type ImpersonalCreateBody = z.infer<typeof impersonalCreateBodySchema>;

export const createdCodeSchema = z.object({
  participantTestId: z.number().int(),
  activationCode: z.string(),
  registrationCode: z.string(),
});
export type CreatedCode = z.infer<typeof createdCodeSchema>;

export const impersonalCreateResultSchema = z
  .object({ items: z.array(createdCodeSchema) })
  .meta({ id: 'ImpersonalCreateResult' });

/** `POST /api/ParticipantTest/participantTestImportFromXml` answer (docs/participant-test-import.md). */
export const participantTestImportResultSchema = z
  .object({
    created: z.number().int(),
    existing: z.number().int().describe('rows whose participant test already existed (left as is)'),
    studentsCreated: z.number().int(),
    items: z.array(
      z.object({
        row: z.number().int().describe('1-based number of the <participantTest> element'),
        participantTestId: z.number().int(),
        studentId: z.number().int(),
        activationCode: z.string(),
        created: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'ParticipantTestImportResult' });
/**
 * Its body: the XML file itself, sent as `application/xml` (or `text/xml`), never JSON; the server
 * reads it as text and the import checks it (docs/participant-test-import.md).
 */
export const participantTestImportXmlBodySchema = z.string().min(1).describe('the XML document');
export type ParticipantTestImportResult = z.infer<typeof participantTestImportResultSchema>;

export const restoreExamWorkBodySchema = z
  .strictObject({ examWorkId: positiveId, reason: reasonSchema.optional() })
  .meta({ id: 'RestoreExamWorkBody' });
export type RestoreExamWorkBody = z.infer<typeof restoreExamWorkBodySchema>;

export const restoreExamWorkResultSchema = z
  .object({ examWorkId: z.number().int(), participantTestId: z.number().int(), status: z.string() })
  .meta({ id: 'RestoreExamWorkResult' });
export type RestoreExamWorkResult = z.infer<typeof restoreExamWorkResultSchema>;
