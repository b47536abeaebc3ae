import { z } from 'zod';

/*
 * The roster import (issue 13): students with their ОО, school, building and class from one
 * spreadsheet (.xlsx or .csv), one row per student. docs/roster.md gives the rules.
 */

/** The columns of a roster file, by their English names (the Russian ones are in docs/roster.md). */
export const ROSTER_COLUMNS = [
  'oo',
  'school',
  'building',
  'grade',
  'class',
  'surname',
  'name',
  'patronymic',
  'birthDate',
  'externalId',
] as const;
export type RosterColumn = (typeof ROSTER_COLUMNS)[number];

/** What a row of a roster file can get wrong. */
export const ROSTER_ROW_ERROR_CODES = [
  'required',
  'invalid_grade',
  'invalid_class',
  'invalid_date',
  'school_out_of_scope',
  'duplicate_row',
  'class_grade_mismatch',
  'too_long',
] as const;
export type RosterRowErrorCode = (typeof ROSTER_ROW_ERROR_CODES)[number];

/** Form fields before the file part `file` of `POST /api/admin/roster/import`. */
export const rosterImportFormSchema = z
  .strictObject({
    dryRun: z
      .enum(['true', 'false'])
      .optional()
      .describe('`true`: check and count, write nothing (default `false`)'),
  })
  .describe('Form fields before the file part `file` (.xlsx, or .csv in UTF-8 with commas or semicolons)')
  .meta({ id: 'RosterImportForm' });

const count = z.number().int().nonnegative();
const rosterCountsSchema = z
  .strictObject({
    oo: count,
    schools: count,
    buildings: count,
    classes: count,
    students: count,
  })
  .meta({ id: 'RosterCounts' });
export type RosterCounts = z.infer<typeof rosterCountsSchema>;

export const rosterRowErrorSchema = z
  .strictObject({
    row: z.number().int().positive().describe('the spreadsheet row, 1-based; the header is row 1'),
    column: z.enum(ROSTER_COLUMNS).optional().describe('the column, by its English name'),
    code: z.enum(ROSTER_ROW_ERROR_CODES),
    message: z.string().describe('English, for developers; interfaces show a text chosen by `code`'),
  })
  .meta({ id: 'RosterRowError' });
export type RosterRowError = z.infer<typeof rosterRowErrorSchema>;

/**
 * The answer of a roster import. With `errors` nothing was written; `created`, `updated` and
 * `unchanged` then count what the rows without errors would have done.
 */
export const rosterImportResultSchema = z
  .strictObject({
    dryRun: z.boolean(),
    created: rosterCountsSchema,
    updated: rosterCountsSchema,
    unchanged: count.describe('rows whose student was already as the file says'),
    errors: z.array(rosterRowErrorSchema),
  })
  .meta({ id: 'RosterImportResult' });
export type RosterImportResult = z.infer<typeof rosterImportResultSchema>;

/** The query of `GET /api/admin/roster/template` (no `.meta` id: query schemas are inlined). */
export const rosterTemplateQuerySchema = z.strictObject({
  format: z.enum(['xlsx', 'csv']).default('xlsx').describe('the template as a workbook or a UTF-8 csv'),
});
export type RosterTemplateQuery = z.infer<typeof rosterTemplateQuerySchema>;

/*
 * The staff import (issue 13): organizators, coordinators and workers of schools from one
 * spreadsheet of the same kind, one row per person. docs/roster.md («Staff») gives the rules.
 */

/** The columns of a staff file, by their English names (the Russian ones are in docs/roster.md). */
export const STAFF_COLUMNS = [
  'oo',
  'school',
  'role',
  'surname',
  'name',
  'patronymic',
  'email',
  'login',
  'position',
  'externalId',
] as const;
export type StaffColumn = (typeof STAFF_COLUMNS)[number];

/** What a row of a staff file names a person as (the `role` column, English or Russian). */
export const STAFF_IMPORT_ROLES = ['organizator', 'coordinator', 'worker'] as const;
export type StaffImportRole = (typeof STAFF_IMPORT_ROLES)[number];

/** What a row of a staff file can get wrong. */
export const STAFF_ROW_ERROR_CODES = [
  'required',
  'too_long',
  'invalid_role',
  'invalid_email',
  'duplicate_row',
  'school_out_of_scope',
  'role_not_allowed',
  'login_taken',
  'email_taken',
  'external_id_taken',
  'login_for_worker',
] as const;
export type StaffRowErrorCode = (typeof STAFF_ROW_ERROR_CODES)[number];

const staffCountsSchema = z
  .strictObject({
    oo: count,
    schools: count,
    users: count.describe('accounts (organizators and coordinators log in; workers have none)'),
    organizators: count,
    coordinators: count,
    workers: count,
  })
  .meta({ id: 'StaffCounts' });
export type StaffCounts = z.infer<typeof staffCountsSchema>;

export const staffRowErrorSchema = z
  .strictObject({
    row: z.number().int().positive().describe('the spreadsheet row, 1-based; the header is row 1'),
    column: z.enum(STAFF_COLUMNS).optional().describe('the column, by its English name'),
    code: z.enum(STAFF_ROW_ERROR_CODES),
    message: z.string().describe('English, for developers; interfaces show a text chosen by `code`'),
  })
  .meta({ id: 'StaffRowError' });
export type StaffRowError = z.infer<typeof staffRowErrorSchema>;

/**
 * The answer of a staff import, shaped like the student import's. With `errors` nothing was
 * written. Never a password or a token: new accounts set their password from an e-mailed link.
 */
export const staffImportResultSchema = z
  .strictObject({
    dryRun: z.boolean(),
    created: staffCountsSchema,
    updated: staffCountsSchema,
    unchanged: count.describe('rows whose person was already as the file says'),
    errors: z.array(staffRowErrorSchema),
  })
  .meta({ id: 'StaffImportResult' });
export type StaffImportResult = z.infer<typeof staffImportResultSchema>;
