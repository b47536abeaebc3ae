import { z } from 'zod';
import { DIAGNOSTIC_KINDS } from './diagnostic.js';
import { listResponseSchema } from './paging.js';
import { listRequestOf, staffDiagnosticStateSchema, staffGenderSchema, staffStudentSchema } from './staff.js';
import { calendarDateSchema } from './user.js';

/*
 * The platform operator's view of the organisation (docs/design.md §1, §2): every oo, school,
 * building, class and student, and every diagnostic. Calls under `/api/admin/*`, admin only; not
 * in spec/endpoints.tsv, which gives admins no such list.
 */

const idSchema = z.number().int().positive().max(2_147_483_647);
const count = z.number().int().min(0);
const gradeSchema = z.number().int().min(0).max(11).describe('parallel (grade): 0 preschool, 1–11');
const searchSchema = z.string().trim().max(100);
const isoInstant = z.string().describe('ISO instant');
/** An optional text: an empty string clears it like null does. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .transform((v) => v || null);
const requiredText = (max: number) => z.string().trim().min(1).max(max);

// ---------------------------------------------------------------- oo

export const adminOoSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    shortName: z.string().nullable(),
    inn: z.string().nullable(),
    schoolCount: count,
  })
  .meta({ id: 'AdminOo' });
export type AdminOo = z.infer<typeof adminOoSchema>;

export const ADMIN_OO_SORT_FIELDS = ['name', 'schoolCount', 'id'] as const;
export type AdminOoSortField = (typeof ADMIN_OO_SORT_FIELDS)[number];
export const adminOoListRequestSchema = listRequestOf(
  ADMIN_OO_SORT_FIELDS,
  z.strictObject({ search: searchSchema.optional().describe('part of the name, short name or INN') }),
).meta({ id: 'AdminOoListRequest' });
export type AdminOoListRequest = z.infer<typeof adminOoListRequestSchema>;
export const adminOoListResponseSchema = listResponseSchema(adminOoSchema);

/** `POST /api/admin/oo`: a new educational organisation (legal entity). */
export const adminOoSaveBodySchema = z
  .strictObject({
    name: requiredText(300),
    shortName: optionalText(150).optional(),
    inn: z
      .string()
      .trim()
      .regex(/^(\d{10}|\d{12})$/, '10 or 12 digits')
      .nullable()
      .optional()
      .describe('taxpayer number (ИНН): 10 or 12 digits'),
  })
  .meta({ id: 'AdminOoSaveBody' });
export type AdminOoSaveBody = z.infer<typeof adminOoSaveBodySchema>;

// ---------------------------------------------------------------- schools

export const adminSchoolSchema = z
  .object({
    id: z.number().int().positive(),
    ooId: z.number().int().positive(),
    ooName: z.string(),
    name: z.string(),
    shortName: z.string().nullable(),
    code: z.string().nullable(),
    areaId: z.number().int().positive().nullable().optional().describe('the area the school lies in'),
    areaName: z.string().nullable().optional(),
    buildingCount: count,
    classCount: count,
    studentCount: count.describe('live (not deleted) students'),
    createdAt: isoInstant,
  })
  .meta({ id: 'AdminSchool' });
export type AdminSchool = z.infer<typeof adminSchoolSchema>;

export const ADMIN_SCHOOL_SORT_FIELDS = [
  'name',
  'code',
  'ooName',
  'classCount',
  'studentCount',
  'createdAt',
  'id',
] as const;
export type AdminSchoolSortField = (typeof ADMIN_SCHOOL_SORT_FIELDS)[number];
export const adminSchoolListFilterSchema = z.strictObject({
  search: searchSchema.optional().describe('part of the name, short name or code'),
  ooId: idSchema.optional(),
});
export const adminSchoolListRequestSchema = listRequestOf(
  ADMIN_SCHOOL_SORT_FIELDS,
  adminSchoolListFilterSchema,
).meta({ id: 'AdminSchoolListRequest' });
export type AdminSchoolListRequest = z.infer<typeof adminSchoolListRequestSchema>;
export const adminSchoolListResponseSchema = listResponseSchema(adminSchoolSchema);

export const schoolCodeSchema = z
  .string()
  .trim()
  .regex(/^[\p{L}\p{N}._-]{1,50}$/u, 'letters, digits, ".", "_" and "-" only, at most 50');

/**
 * `POST /api/admin/schools` (create) and `PUT /api/admin/schools/{id}` (update). On update an
 * omitted optional field keeps its value; null (or an empty string) clears it.
 */
export const adminSchoolSaveBodySchema = z
  .strictObject({
    ooId: idSchema.describe('the educational organisation (ОО) the school belongs to'),
    name: requiredText(300),
    shortName: optionalText(150).optional(),
    code: schoolCodeSchema.nullable().optional().describe('unique across schools'),
    areaId: idSchema.nullable().optional().describe('the area the school lies in (docs/ugnik.md)'),
  })
  .meta({ id: 'AdminSchoolSaveBody' });
export type AdminSchoolSaveBody = z.infer<typeof adminSchoolSaveBodySchema>;

// ---------------------------------------------------------------- buildings

export const adminBuildingSchema = z
  .object({
    id: z.number().int().positive(),
    schoolId: z.number().int().positive(),
    name: z.string(),
    address: z.string().nullable(),
    classCount: count,
    studentCount: count,
  })
  .meta({ id: 'AdminBuilding' });
export type AdminBuilding = z.infer<typeof adminBuildingSchema>;

export const adminBuildingSaveBodySchema = z
  .strictObject({ name: requiredText(200), address: optionalText(500).optional() })
  .meta({ id: 'AdminBuildingSaveBody' });
export type AdminBuildingSaveBody = z.infer<typeof adminBuildingSaveBodySchema>;

// ---------------------------------------------------------------- classes

export const adminClassSchema = z
  .object({
    id: z.number().int().positive(),
    schoolId: z.number().int().positive(),
    name: z.string().describe('e.g. 7 «А»'),
    letter: z.string(),
    parallel: z.number().int(),
    buildingId: z.number().int().positive().nullable(),
    buildingName: z.string().nullable(),
    studentCount: count.describe('live (not deleted) students'),
  })
  .meta({ id: 'AdminClass' });
export type AdminClass = z.infer<typeof adminClassSchema>;

/** Class letters: `А`, `Б`, `1`, `ИТ`… — letters and digits, kept upper case. */
export const classLetterSchema = z
  .string()
  .trim()
  .regex(/^[\p{L}\p{N}]{1,10}$/u, 'letters or digits, at most 10')
  .transform((v) => v.toUpperCase());

/** The display name of a class when none is given: `7 «А»`. */
export const defaultClassName = (parallel: number, letter: string) => `${parallel} «${letter}»`;

/**
 * `POST /api/admin/schools/{id}/classes` (create) and `PUT /api/admin/classes/{id}` (update).
 * Without `name` the class is called `<parallel> «<letter>»`.
 */
export const adminClassSaveBodySchema = z
  .strictObject({
    parallel: gradeSchema,
    letter: classLetterSchema,
    name: optionalText(50).optional().describe('display name; default `7 «А»`'),
    buildingId: idSchema.nullable().optional().describe('a building of the same school'),
  })
  .meta({ id: 'AdminClassSaveBody' });
export type AdminClassSaveBody = z.infer<typeof adminClassSaveBodySchema>;

// ---------------------------------------------------------------- students

export const adminStudentSchema = staffStudentSchema
  .extend({
    schoolName: z.string(),
    participantTestCount: count.describe('live participant tests (registrations) of the student'),
  })
  .meta({ id: 'AdminStudent' });
export type AdminStudent = z.infer<typeof adminStudentSchema>;

export const ADMIN_STUDENT_SORT_FIELDS = [
  'surname',
  'name',
  'birthDate',
  'className',
  'schoolName',
  'createdAt',
  'id',
] as const;
export type AdminStudentSortField = (typeof ADMIN_STUDENT_SORT_FIELDS)[number];
export const adminStudentListFilterSchema = z.strictObject({
  search: searchSchema.optional().describe('beginning or part of the surname, or "surname name"'),
  schoolId: idSchema.optional(),
  classId: idSchema.optional(),
  parallel: gradeSchema.optional(),
});
export const adminStudentListRequestSchema = listRequestOf(
  ADMIN_STUDENT_SORT_FIELDS,
  adminStudentListFilterSchema,
).meta({ id: 'AdminStudentListRequest' });
export type AdminStudentListRequest = z.infer<typeof adminStudentListRequestSchema>;
export const adminStudentListResponseSchema = listResponseSchema(adminStudentSchema);

/**
 * `POST /api/admin/students` (create) and `PUT /api/admin/students/{id}` (update). The school is
 * the class's; a student moves only to another class of the same school. On update an omitted
 * optional field keeps its value.
 */
export const adminStudentSaveBodySchema = z
  .strictObject({
    classId: idSchema,
    surname: requiredText(100),
    name: requiredText(100),
    patronymic: optionalText(100).optional(),
    birthDate: calendarDateSchema.nullable().optional().describe('yyyy-mm-dd, from 1900, not in the future'),
    gender: staffGenderSchema.nullable().optional(),
  })
  .meta({ id: 'AdminStudentSaveBody' });
export type AdminStudentSaveBody = z.infer<typeof adminStudentSaveBodySchema>;

// ---------------------------------------------------------------- diagnostics

/** Every kind a diagnostic row may have: the event kinds and worker-test sittings. */
export const ADMIN_DIAGNOSTIC_KINDS = [...DIAGNOSTIC_KINDS, 'worker'] as const;
export const CREATOR_ROLES = ['admin', 'ugnik', 'coordinator'] as const;

export const adminDiagnosticSchema = z
  .object({
    id: z.number().int().positive(),
    code: z.string(),
    name: z.string(),
    kind: z.string(),
    createdByRole: z.string().nullable().describe('admin, ugnik, coordinator; null for imported data'),
    createdByLogin: z.string().nullable(),
    startsAt: isoInstant,
    endsAt: isoInstant,
    parallels: z.array(z.number().int()),
    status: staffDiagnosticStateSchema,
    resultsPublished: z.boolean(),
    publishedAt: isoInstant.nullable(),
    subjectTests: z.array(z.object({ id: z.number().int().positive(), name: z.string() })),
    schoolCount: count,
    participantTestCount: count.describe('live participant tests'),
    finishedWorkCount: count.describe('live exam works that are finished (or scored)'),
  })
  .meta({ id: 'AdminDiagnostic' });
export type AdminDiagnostic = z.infer<typeof adminDiagnosticSchema>;

export const ADMIN_DIAGNOSTIC_SORT_FIELDS = [
  'startsAt',
  'endsAt',
  'name',
  'code',
  'participantTestCount',
  'id',
] as const;
export type AdminDiagnosticSortField = (typeof ADMIN_DIAGNOSTIC_SORT_FIELDS)[number];
export const adminDiagnosticListFilterSchema = z.strictObject({
  dateFrom: calendarDateSchema.optional().describe('window ends on or after this day (Moscow)'),
  dateTo: calendarDateSchema.optional().describe('window starts on or before this day (Moscow)'),
  subjectTestId: idSchema.optional(),
  schoolId: idSchema.optional(),
  kind: z.enum(ADMIN_DIAGNOSTIC_KINDS).optional(),
  createdByRole: z.enum(CREATOR_ROLES).optional(),
  status: staffDiagnosticStateSchema.optional(),
  search: searchSchema.optional().describe('part of the name or code'),
});
export const adminDiagnosticListRequestSchema = listRequestOf(
  ADMIN_DIAGNOSTIC_SORT_FIELDS,
  adminDiagnosticListFilterSchema,
).meta({ id: 'AdminDiagnosticListRequest' });
export type AdminDiagnosticListRequest = z.infer<typeof adminDiagnosticListRequestSchema>;
export const adminDiagnosticListResponseSchema = listResponseSchema(adminDiagnosticSchema);

export const adminDiagnosticSchoolSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  code: z.string().nullable(),
  ooName: z.string(),
  participantTestCount: count,
  finishedWorkCount: count,
});
export type AdminDiagnosticSchool = z.infer<typeof adminDiagnosticSchoolSchema>;

export const adminDiagnosticDetailSchema = adminDiagnosticSchema
  .extend({ schools: z.array(adminDiagnosticSchoolSchema).describe('by name') })
  .meta({ id: 'AdminDiagnosticDetail' });
export type AdminDiagnosticDetail = z.infer<typeof adminDiagnosticDetailSchema>;
