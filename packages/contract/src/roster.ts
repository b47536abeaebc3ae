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
