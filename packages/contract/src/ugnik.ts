import { z } from 'zod';
import { listRequestSchema, listResponseSchema } from './paging.js';
import { createdCodeSchema } from './participant-test.js';

/*
 * The supervision authority's calls (/api/ugnik/*): inspection diagnostics across schools, their
 * participants, reference lists of every school, and the code and surname reports.
 */

const instant = z.string().describe('ISO instant (UTC, Z)');
const positiveId = z.number().int().positive().max(2_147_483_647);
const distinct = (list: readonly number[]) => new Set(list).size === list.length;
const idList = (max: number) =>
  z.array(positiveId).min(1).max(max).refine(distinct, { message: 'ids must be distinct' });
/** Ids in a query string arrive as text; anything but a positive int4 is a 400. */
const queryId = z
  .string()
  .regex(/^\d{1,10}$/, 'a positive integer')
  .transform(Number)
  .pipe(positiveId);

/** `POST /api/ugnik/diagnostic/create` body: always an inspection diagnostic. */
export const ugnikDiagnosticCreateBodySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(300),
    startsAt: z.iso.datetime({ offset: true }).describe('ISO instant the window opens'),
    endsAt: z.iso.datetime({ offset: true }).describe('ISO instant the window closes; after startsAt'),
    parallels: z
      .array(z.number().int().min(0).max(11))
      .min(1)
      .max(12)
      .refine(distinct, { message: 'parallels must be distinct' }),
    subjectTestIds: idList(100).describe('subject tests of kind diagnostic (see mainSubjectTest/list)'),
    schoolIds: idList(5000).describe('any schools'),
    code: z
      .string()
      .trim()
      .regex(/^[\p{L}\p{N}._-]{1,50}$/u, 'letters, digits, ".", "_" and "-" only, at most 50')
      .optional()
      .describe('unique; generated as I-YYYY-XXXXXX when absent'),
  })
  .meta({ id: 'UgnikDiagnosticCreateBody' });
export type UgnikDiagnosticCreateBody = z.infer<typeof ugnikDiagnosticCreateBodySchema>;

export const ugnikDiagnosticSchema = z
  .object({
    id: z.number().int().positive(),
    code: z.string(),
    name: z.string(),
    kind: z.string(),
    startsAt: instant,
    endsAt: instant,
    parallels: z.array(z.number().int()),
    subjectTests: z.array(z.object({ id: z.number().int(), name: z.string() })),
    schools: z.array(z.object({ id: z.number().int(), name: z.string() })),
    createdBy: z.number().int().nullable(),
    participantCount: z.number().int(),
    examWorkCount: z.number().int(),
    resultsPublished: z.boolean(),
    createdAt: instant,
  })
  .meta({ id: 'UgnikDiagnostic' });
export type UgnikDiagnostic = z.infer<typeof ugnikDiagnosticSchema>;

export const ugnikDiagnosticListItemSchema = ugnikDiagnosticSchema
  .omit({ subjectTests: true, schools: true })
  .extend({ subjectTestCount: z.number().int(), schoolCount: z.number().int() })
  .meta({ id: 'UgnikDiagnosticListItem' });
export type UgnikDiagnosticListItem = z.infer<typeof ugnikDiagnosticListItemSchema>;

export const UGNIK_DIAGNOSTIC_SORT_FIELDS = ['id', 'name', 'code', 'startsAt', 'createdAt'] as const;
export type UgnikDiagnosticSortField = (typeof UGNIK_DIAGNOSTIC_SORT_FIELDS)[number];
const ugnikDiagnosticSortSchema = z.strictObject({
  field: z.enum(UGNIK_DIAGNOSTIC_SORT_FIELDS),
  dir: z.enum(['asc', 'desc']).default('asc'),
});

export const ugnikDiagnosticListRequestSchema = z
  .strictObject({
    ...listRequestSchema.shape,
    sort: z.union([ugnikDiagnosticSortSchema, z.array(ugnikDiagnosticSortSchema).max(5)]).optional(),
    filter: z
      .strictObject({
        search: z.string().trim().min(1).max(100).optional().describe('part of the name or code'),
        schoolId: positiveId.optional(),
        from: z.iso.date().optional().describe('window ends on or after this day'),
        till: z.iso.date().optional().describe('window starts on or before this day'),
      })
      .optional(),
  })
  .meta({ id: 'UgnikDiagnosticListRequest' });
export type UgnikDiagnosticListRequest = z.infer<typeof ugnikDiagnosticListRequestSchema>;
export const ugnikDiagnosticListResponseSchema = listResponseSchema(ugnikDiagnosticListItemSchema);

/** `POST /api/ugnik/participantTest/save`: register students for one subject test of a diagnostic. */
export const ugnikParticipantSaveBodySchema = z
  .strictObject({
    diagnosticId: positiveId,
    subjectTestId: positiveId,
    testDate: z.iso.date().describe('yyyy-mm-dd inside the diagnostic window'),
    studentIds: idList(2000).describe('students of the diagnostic’s schools'),
  })
  .meta({ id: 'UgnikParticipantSaveBody' });
export type UgnikParticipantSaveBody = z.infer<typeof ugnikParticipantSaveBodySchema>;

export const ugnikParticipantSaveResultSchema = z
  .object({
    created: z.number().int(),
    existing: z.number().int().describe('students already registered (left as they are)'),
    items: z.array(createdCodeSchema.extend({ studentId: z.number().int(), created: z.boolean() })),
  })
  .meta({ id: 'UgnikParticipantSaveResult' });
export type UgnikParticipantSaveResult = z.infer<typeof ugnikParticipantSaveResultSchema>;

// --- reference lists across schools ---

const referenceSortSchema = z.strictObject({
  field: z.enum(['id', 'name']),
  dir: z.enum(['asc', 'desc']).default('asc'),
});

/** The body of the ugnik's reference lists: paging, sort by id or name, `filter.search` and the list's own keys. */
const referenceListRequest = <F extends z.ZodRawShape>(filter: F) =>
  z.strictObject({
    ...listRequestSchema.shape,
    sort: z.union([referenceSortSchema, z.array(referenceSortSchema).max(2)]).optional(),
    filter: z.strictObject({ search: z.string().trim().min(1).max(100).optional(), ...filter }).optional(),
  });

export const ugnikOoListRequestSchema = referenceListRequest({});
export const ugnikOoSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  shortName: z.string().nullable(),
  inn: z.string().nullable(),
});

export const ugnikSchoolListRequestSchema = referenceListRequest({ ooId: positiveId.optional() });
export const ugnikSchoolSchema = z.object({
  id: z.number().int(),
  ooId: z.number().int(),
  ooName: z.string(),
  name: z.string(),
  shortName: z.string().nullable(),
  code: z.string().nullable(),
});

export const ugnikBuildingListRequestSchema = referenceListRequest({ schoolId: positiveId.optional() });
export const ugnikBuildingSchema = z.object({
  id: z.number().int(),
  schoolId: z.number().int(),
  schoolName: z.string(),
  name: z.string(),
  address: z.string().nullable(),
});

export const ugnikClassListRequestSchema = referenceListRequest({
  schoolId: positiveId.optional(),
  buildingId: positiveId.optional(),
  parallelId: z.number().int().min(0).max(11).optional(),
});
export const ugnikClassSchema = z.object({
  id: z.number().int(),
  schoolId: z.number().int(),
  schoolName: z.string(),
  buildingId: z.number().int().nullable(),
  parallelId: z.number().int(),
  letter: z.string(),
  name: z.string(),
});

/**
 * `POST /api/ugnik/student/list` (ours): students of the schools of one of your diagnostics, to
 * register by name (the specification has no student list for the ugnik).
 */
export const ugnikStudentListRequestSchema = z
  .strictObject({
    page: listRequestSchema.shape.page,
    pageSize: listRequestSchema.shape.pageSize,
    filter: z.strictObject({
      diagnosticId: positiveId.describe('your diagnostic: only students of its schools are listed'),
      schoolId: positiveId.optional(),
      classId: positiveId.optional(),
      search: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .optional()
        .describe('part of the surname, name or patronymic'),
    }),
  })
  .meta({ id: 'UgnikStudentListRequest' });
export type UgnikStudentListRequest = z.infer<typeof ugnikStudentListRequestSchema>;
export const ugnikStudentSchema = z
  .object({
    id: z.number().int(),
    surname: z.string(),
    name: z.string(),
    patronymic: z.string().nullable(),
    schoolId: z.number().int(),
    schoolName: z.string(),
    classId: z.number().int().nullable(),
    className: z.string().nullable(),
  })
  .meta({ id: 'UgnikStudent' });
export type UgnikStudent = z.infer<typeof ugnikStudentSchema>;

export const ugnikParallelListRequestSchema = referenceListRequest({});
export const ugnikParallelSchema = z.object({ id: z.number().int(), name: z.string() });

export const ugnikMainSubjectTestListRequestSchema = referenceListRequest({
  parallelId: z.number().int().min(0).max(11).optional(),
  subjectId: positiveId.optional(),
});
export const ugnikMainSubjectTestSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  subjectId: z.number().int(),
  subjectName: z.string(),
  parallels: z.array(z.number().int()),
  durationMinutes: z.number().int(),
});

// --- reports ---

export const ugnikParticipantCodesQuerySchema = z.strictObject({
  diagnosticId: queryId,
  format: z.enum(['pdf', 'xlsx']).default('xlsx'),
});

export const ugnikSurnamesQuerySchema = z.strictObject({
  diagnosticId: queryId,
  format: z.enum(['json', 'xlsx']).default('json'),
});

export const ugnikSurnameRowSchema = z.object({
  participantTestId: z.number().int(),
  surname: z.string().nullable(),
  name: z.string().nullable(),
  patronymic: z.string().nullable(),
  schoolName: z.string().nullable(),
  className: z.string().nullable(),
  subjectTestName: z.string(),
  testDate: z.string(),
  status: z.string(),
  activationCode: z.string(),
  score: z.number().nullable().describe('primary score once results exist; null until then'),
});
export type UgnikSurnameRow = z.infer<typeof ugnikSurnameRowSchema>;

export const ugnikSurnamesReportSchema = z
  .object({
    diagnostic: z.object({ id: z.number().int(), code: z.string(), name: z.string() }),
    items: z.array(ugnikSurnameRowSchema),
  })
  .meta({ id: 'UgnikSurnamesReport' });
