import { z } from 'zod';
import { LOGIN_MAX, passwordSchema } from './account.js';
import { PARTICIPANT_TEST_STATUSES } from './content.js';
import { EXAM_WORK_STATUSES } from './exam.js';
import { listRequestSchema, listResponseSchema } from './paging.js';
import { calendarDateSchema } from './user.js';

/*
 * School data of the staff work places (docs/design.md §1, §2): what a school coordinator and a room
 * organizator keep and see — students, buildings, classes, parallels, diagnostics, participant
 * tests and (coordinator only) organizators. `/api/coordinator/*` acts within the caller's school,
 * `/api/organizator/*` within the classes and buildings assigned to the caller; the bodies and
 * answers are the same for both.
 */

const idSchema = z.number().int().positive().max(2_147_483_647);
const gradeSchema = z.number().int().min(0).max(11).describe('parallel (grade): 0 preschool, 1–11');
const namePart = z.string().trim().min(1).max(100);
/** Optional name parts: an empty string clears the field like null does. */
const optionalNamePart = z
  .string()
  .trim()
  .max(100)
  .nullable()
  .transform((v) => v || null);
const searchSchema = z.string().trim().max(100);
const isoInstant = z.string().describe('ISO instant');
const isoDate = z.string().describe('yyyy-mm-dd');

/** A list request: the common paging with this list's sort fields (whitelisted) and a strict filter. */
export function listRequestOf<F extends readonly [string, ...string[]], T extends z.ZodObject>(
  fields: F,
  filter: T,
) {
  const sort = z.strictObject({ field: z.enum(fields), dir: z.enum(['asc', 'desc']).default('asc') });
  return z.strictObject({
    page: listRequestSchema.shape.page,
    pageSize: listRequestSchema.shape.pageSize,
    sort: z.union([sort, z.array(sort).max(5)]).optional(),
    filter: filter.optional(),
  });
}

// ---------------------------------------------------------------- students

export const STAFF_GENDERS = ['male', 'female'] as const;
export const staffGenderSchema = z.enum(STAFF_GENDERS);

export const staffStudentSchema = z
  .object({
    id: z.number().int().positive(),
    surname: z.string(),
    name: z.string(),
    patronymic: z.string().nullable(),
    birthDate: isoDate.nullable(),
    gender: staffGenderSchema.nullable(),
    schoolId: z.number().int().positive(),
    classId: z.number().int().positive().nullable(),
    className: z.string().nullable(),
    parallel: z.number().int().nullable(),
    buildingId: z.number().int().positive().nullable(),
    buildingName: z.string().nullable(),
    createdAt: isoInstant,
    hasAccommodations: z
      .boolean()
      .default(false)
      .describe('whether the student has an accommodations profile (docs/accommodations.md)'),
  })
  .meta({ id: 'StaffStudent' });
export type StaffStudent = z.infer<typeof staffStudentSchema>;

/** `POST .../student`: without `id` creates a student, with `id` updates that student. */
export const staffStudentSaveBodySchema = z
  .strictObject({
    id: idSchema.optional(),
    surname: namePart,
    name: namePart,
    patronymic: optionalNamePart.optional(),
    birthDate: calendarDateSchema.describe('yyyy-mm-dd, not in the future'),
    gender: staffGenderSchema.nullable().optional(),
    classId: idSchema.describe('a class of the caller’s school (coordinator) or an assigned class'),
  })
  .meta({ id: 'StaffStudentSaveBody' });
export type StaffStudentSaveBody = z.infer<typeof staffStudentSaveBodySchema>;

export const STAFF_STUDENT_SORT_FIELDS = [
  'surname',
  'name',
  'birthDate',
  'className',
  'createdAt',
  'id',
] as const;
export type StaffStudentSortField = (typeof STAFF_STUDENT_SORT_FIELDS)[number];
export const staffStudentListFilterSchema = z.strictObject({
  search: searchSchema.optional().describe('part of the surname, name or "surname name"'),
  classId: idSchema.optional(),
  parallel: gradeSchema.optional(),
  buildingId: idSchema.optional(),
});
export const staffStudentListRequestSchema = listRequestOf(
  STAFF_STUDENT_SORT_FIELDS,
  staffStudentListFilterSchema,
).meta({
  id: 'StaffStudentListRequest',
});
export type StaffStudentListRequest = z.infer<typeof staffStudentListRequestSchema>;
export const staffStudentListResponseSchema = listResponseSchema(staffStudentSchema);

// ---------------------------------------------------------------- buildings, classes, parallels

export const staffBuildingSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    address: z.string().nullable(),
    classCount: z.number().int().min(0),
    studentCount: z.number().int().min(0),
  })
  .meta({ id: 'StaffBuilding' });
export type StaffBuilding = z.infer<typeof staffBuildingSchema>;
export const STAFF_BUILDING_SORT_FIELDS = ['name', 'id'] as const;
export type StaffBuildingSortField = (typeof STAFF_BUILDING_SORT_FIELDS)[number];
export const staffBuildingListRequestSchema = listRequestOf(
  STAFF_BUILDING_SORT_FIELDS,
  z.strictObject({ search: searchSchema.optional() }),
).meta({ id: 'StaffBuildingListRequest' });
export type StaffBuildingListRequest = z.infer<typeof staffBuildingListRequestSchema>;
export const staffBuildingListResponseSchema = listResponseSchema(staffBuildingSchema);

export const staffClassSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string().describe('e.g. 7 «А»'),
    letter: z.string(),
    parallel: z.number().int(),
    buildingId: z.number().int().positive().nullable(),
    buildingName: z.string().nullable(),
    studentCount: z.number().int().min(0),
  })
  .meta({ id: 'StaffClass' });
export type StaffClass = z.infer<typeof staffClassSchema>;
export const STAFF_CLASS_SORT_FIELDS = ['name', 'parallel', 'studentCount', 'id'] as const;
export type StaffClassSortField = (typeof STAFF_CLASS_SORT_FIELDS)[number];
export const staffClassListRequestSchema = listRequestOf(
  STAFF_CLASS_SORT_FIELDS,
  z.strictObject({
    search: searchSchema.optional(),
    parallel: gradeSchema.optional(),
    buildingId: idSchema.optional(),
  }),
).meta({ id: 'StaffClassListRequest' });
export type StaffClassListRequest = z.infer<typeof staffClassListRequestSchema>;
export const staffClassListResponseSchema = listResponseSchema(staffClassSchema);

export const staffParallelSchema = z
  .object({
    id: z.number().int().describe('the grade itself'),
    name: z.string(),
    classCount: z.number().int().min(0),
    studentCount: z.number().int().min(0),
  })
  .meta({ id: 'StaffParallel' });
export type StaffParallel = z.infer<typeof staffParallelSchema>;
export const STAFF_PARALLEL_SORT_FIELDS = ['id'] as const;
export type StaffParallelSortField = (typeof STAFF_PARALLEL_SORT_FIELDS)[number];
export const staffParallelListRequestSchema = listRequestOf(
  STAFF_PARALLEL_SORT_FIELDS,
  z.strictObject({ buildingId: idSchema.optional() }),
).meta({ id: 'StaffParallelListRequest' });
export type StaffParallelListRequest = z.infer<typeof staffParallelListRequestSchema>;
export const staffParallelListResponseSchema = listResponseSchema(staffParallelSchema);

// ---------------------------------------------------------------- diagnostics

/** Where a diagnostic stands now: before its window, in it, after it, results published. */
export const STAFF_DIAGNOSTIC_STATES = ['planned', 'running', 'finished', 'published'] as const;
export const staffDiagnosticStateSchema = z.enum(STAFF_DIAGNOSTIC_STATES);
export type StaffDiagnosticState = z.infer<typeof staffDiagnosticStateSchema>;

export const staffDiagnosticSchema = z
  .object({
    id: z.number().int().positive(),
    code: z.string(),
    name: z.string(),
    kind: z.string(),
    startsAt: isoInstant,
    endsAt: isoInstant,
    parallels: z.array(z.number().int()),
    status: staffDiagnosticStateSchema,
    resultsPublished: z.boolean(),
    subjectTests: z.array(
      z.object({ id: z.number().int().positive(), name: z.string(), parallels: z.array(z.number().int()) }),
    ),
    participantCount: z.number().int().min(0).describe('participant tests within the caller’s scope'),
  })
  .meta({ id: 'StaffDiagnostic' });
export type StaffDiagnostic = z.infer<typeof staffDiagnosticSchema>;

export const STAFF_DIAGNOSTIC_SORT_FIELDS = ['startsAt', 'name', 'code', 'id'] as const;
export type StaffDiagnosticSortField = (typeof STAFF_DIAGNOSTIC_SORT_FIELDS)[number];
export const staffDiagnosticListFilterSchema = z.strictObject({
  dateFrom: calendarDateSchema.optional().describe('window ends on or after this day (Moscow)'),
  dateTo: calendarDateSchema.optional().describe('window starts on or before this day (Moscow)'),
  status: staffDiagnosticStateSchema.optional(),
  search: searchSchema.optional().describe('part of the name or code'),
  subjectTestId: idSchema.optional(),
  parallel: gradeSchema.optional(),
});
export const staffDiagnosticListRequestSchema = listRequestOf(
  STAFF_DIAGNOSTIC_SORT_FIELDS,
  staffDiagnosticListFilterSchema,
).meta({ id: 'StaffDiagnosticListRequest' });
export type StaffDiagnosticListRequest = z.infer<typeof staffDiagnosticListRequestSchema>;
export const staffDiagnosticListResponseSchema = listResponseSchema(staffDiagnosticSchema);

/** `POST .../diagnostic/byParam`: diagnostics whose window covers the date, with the test and grade. */
export const staffDiagnosticByParamBodySchema = z
  .strictObject({
    date: calendarDateSchema.optional(),
    subjectTestId: idSchema.optional(),
    parallel: gradeSchema.optional(),
  })
  .meta({ id: 'StaffDiagnosticByParamBody' });
export type StaffDiagnosticByParamBody = z.infer<typeof staffDiagnosticByParamBodySchema>;
export const staffDiagnosticByParamResponseSchema = z.array(staffDiagnosticSchema);

// ---------------------------------------------------------------- participant tests

export const staffExamWorkStateSchema = z.object({
  id: z.number().int().positive(),
  status: z.enum(EXAM_WORK_STATUSES),
  answerMode: z.string(),
  startedAt: isoInstant,
  deadlineAt: isoInstant,
  finishedAt: isoInstant.nullable(),
  answeredCount: z.number().int().min(0),
});

export const staffParticipantTestSchema = z
  .object({
    id: z.number().int().positive(),
    diagnosticId: z.number().int().positive(),
    diagnosticName: z.string(),
    subjectTestId: z.number().int().positive(),
    subjectTestName: z.string(),
    studentId: z.number().int().positive().nullable(),
    surname: z.string().nullable(),
    name: z.string().nullable(),
    patronymic: z.string().nullable(),
    classId: z.number().int().positive().nullable(),
    className: z.string().nullable(),
    parallel: z.number().int().nullable(),
    buildingId: z.number().int().positive().nullable(),
    buildingName: z.string().nullable(),
    testDate: isoDate,
    status: z.enum(PARTICIPANT_TEST_STATUSES),
    isImpersonal: z.boolean(),
    activationCode: z.string(),
    registrationCode: z.string(),
    examWork: staffExamWorkStateSchema.nullable().describe('the live attempt, if started'),
  })
  .meta({ id: 'StaffParticipantTest' });
export type StaffParticipantTest = z.infer<typeof staffParticipantTestSchema>;

export const STAFF_PARTICIPANT_TEST_SORT_FIELDS = [
  'surname',
  'className',
  'testDate',
  'status',
  'subjectTest',
  'id',
] as const;
export type StaffParticipantTestSortField = (typeof STAFF_PARTICIPANT_TEST_SORT_FIELDS)[number];
export const staffParticipantTestListFilterSchema = z.strictObject({
  diagnosticId: idSchema.optional(),
  subjectTestId: idSchema.optional(),
  classId: idSchema.optional(),
  buildingId: idSchema.optional(),
  status: z.enum(PARTICIPANT_TEST_STATUSES).optional(),
  date: calendarDateSchema.optional().describe('test date'),
  search: searchSchema.optional().describe('beginning or part of the surname'),
});
export const staffParticipantTestListRequestSchema = listRequestOf(
  STAFF_PARTICIPANT_TEST_SORT_FIELDS,
  staffParticipantTestListFilterSchema,
).meta({ id: 'StaffParticipantTestListRequest' });
export type StaffParticipantTestListRequest = z.infer<typeof staffParticipantTestListRequestSchema>;
export const staffParticipantTestListResponseSchema = listResponseSchema(staffParticipantTestSchema);

export const STAFF_REGISTER_MAX_STUDENTS = 2000;
export const STAFF_REGISTER_MAX_CLASSES = 100;

/** Register students (one, a list, or whole classes) for a subject test of a diagnostic. */
export const staffParticipantTestRegisterBodySchema = z
  .strictObject({
    diagnosticId: idSchema,
    subjectTestId: idSchema,
    testDate: calendarDateSchema.describe('within the diagnostic window (Moscow calendar)'),
    studentIds: z.array(idSchema).min(1).max(STAFF_REGISTER_MAX_STUDENTS).optional(),
    classIds: z.array(idSchema).min(1).max(STAFF_REGISTER_MAX_CLASSES).optional(),
    buildingId: idSchema.optional().describe('room building; default: the building of the class'),
  })
  .refine((b) => (b.studentIds === undefined) !== (b.classIds === undefined), {
    message: 'give either studentIds or classIds',
    path: ['studentIds'],
  })
  .meta({ id: 'StaffParticipantTestRegisterBody' });
export type StaffParticipantTestRegisterBody = z.infer<typeof staffParticipantTestRegisterBodySchema>;

/** Change one participant test: date, class/building of the room, absent ⇄ planned. */
export const staffParticipantTestUpdateBodySchema = z
  .strictObject({
    id: idSchema,
    testDate: calendarDateSchema.optional(),
    classId: idSchema.optional(),
    buildingId: idSchema.nullable().optional(),
    status: z.enum(['absent', 'planned']).optional(),
  })
  .meta({ id: 'StaffParticipantTestUpdateBody' });
export type StaffParticipantTestUpdateBody = z.infer<typeof staffParticipantTestUpdateBodySchema>;

export const staffParticipantTestSaveBodySchema = z
  .union([staffParticipantTestUpdateBodySchema, staffParticipantTestRegisterBodySchema])
  .meta({ id: 'StaffParticipantTestSaveBody' });
export type StaffParticipantTestSaveBody = z.infer<typeof staffParticipantTestSaveBodySchema>;

export const staffParticipantTestRegisterResultSchema = z
  .object({
    created: z.number().int().min(0),
    skipped: z.number().int().min(0).describe('students already registered for this subject test'),
    items: z.array(staffParticipantTestSchema).describe('the participant tests created now'),
  })
  .meta({ id: 'StaffParticipantTestRegisterResult' });
export type StaffParticipantTestRegisterResult = z.infer<typeof staffParticipantTestRegisterResultSchema>;

export const staffParticipantTestSaveResultSchema = z.union([
  staffParticipantTestRegisterResultSchema,
  staffParticipantTestSchema,
]);

// ---------------------------------------------------------------- organizators

/** Worker-test (training) state of one organizator for one worker test of their position. */
export const staffOrganizatorWorkerTestSchema = z.object({
  workerTestId: z.number().int().positive(),
  name: z.string(),
  participantTestId: z.number().int().positive().nullable(),
  status: z.string().describe('not_registered, or the participant test status'),
  testDate: isoDate.nullable(),
  startedAt: isoInstant.nullable(),
  finishedAt: isoInstant.nullable(),
});

export const staffOrganizatorSchema = z
  .object({
    id: z.number().int().positive().describe('user id'),
    login: z.string(),
    surname: z.string().nullable(),
    name: z.string().nullable(),
    patronymic: z.string().nullable(),
    email: z.string().nullable(),
    isBlocked: z.boolean(),
    workerId: z.number().int().positive().nullable(),
    positionId: z.number().int().positive().nullable(),
    positionName: z.string().nullable(),
    classes: z.array(z.object({ id: z.number().int().positive(), name: z.string() })),
    buildings: z.array(z.object({ id: z.number().int().positive(), name: z.string() })),
    workerTests: z.array(staffOrganizatorWorkerTestSchema),
  })
  .meta({ id: 'StaffOrganizator' });
export type StaffOrganizator = z.infer<typeof staffOrganizatorSchema>;

export const STAFF_ORGANIZATOR_SORT_FIELDS = ['surname', 'login', 'id'] as const;
export type StaffOrganizatorSortField = (typeof STAFF_ORGANIZATOR_SORT_FIELDS)[number];
export const staffOrganizatorListFilterSchema = z.strictObject({
  search: searchSchema.optional().describe('part of the login, surname or name'),
  blocked: z.boolean().optional(),
  classId: idSchema.optional(),
  buildingId: idSchema.optional(),
});
export const staffOrganizatorListRequestSchema = listRequestOf(
  STAFF_ORGANIZATOR_SORT_FIELDS,
  staffOrganizatorListFilterSchema,
).meta({ id: 'StaffOrganizatorListRequest' });
export type StaffOrganizatorListRequest = z.infer<typeof staffOrganizatorListRequestSchema>;
export const staffOrganizatorListResponseSchema = listResponseSchema(staffOrganizatorSchema);

/**
 * `POST /api/coordinator/organizator`: without `id` creates an organizator of the caller's school
 * (user + worker + assignments); with `id` updates one. On update an omitted optional field keeps
 * its value; `classIds`/`buildingIds`, when given, replace the assignments.
 */
export const staffOrganizatorSaveBodySchema = z
  .strictObject({
    id: idSchema.optional(),
    login: z.string().trim().min(1).max(LOGIN_MAX),
    password: passwordSchema
      .optional()
      .describe('omitted on create: a password is generated and returned once'),
    surname: namePart,
    name: namePart,
    patronymic: optionalNamePart.optional(),
    email: z.email().max(200).nullable().optional(),
    positionId: idSchema.nullable().optional().describe('worker position (decides the worker tests)'),
    classIds: z.array(idSchema).max(200).optional(),
    buildingIds: z.array(idSchema).max(50).optional(),
  })
  .meta({ id: 'StaffOrganizatorSaveBody' });
export type StaffOrganizatorSaveBody = z.infer<typeof staffOrganizatorSaveBodySchema>;

export const staffOrganizatorSaveResultSchema = z
  .object({
    organizator: staffOrganizatorSchema,
    generatedPassword: z
      .string()
      .nullable()
      .describe('the generated password, shown this once; null when none was generated'),
  })
  .meta({ id: 'StaffOrganizatorSaveResult' });
export type StaffOrganizatorSaveResult = z.infer<typeof staffOrganizatorSaveResultSchema>;

/** `POST /api/coordinator/organizator/{id}`: block (ends their sessions) or unblock. */
export const staffOrganizatorBlockBodySchema = z
  .strictObject({
    blocked: z.boolean(),
    reason: z.string().trim().max(500).optional(),
  })
  .meta({ id: 'StaffOrganizatorBlockBody' });
export type StaffOrganizatorBlockBody = z.infer<typeof staffOrganizatorBlockBodySchema>;
