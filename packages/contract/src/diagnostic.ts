import { z } from 'zod';

/*
 * Creating a diagnostic and printing its participants' codes: shapes of /api/createDiagnostic/*
 * and of the participant-code reports (/api/reports/{coordinator,organizator}/participantCodes).
 */

const instant = z.string().describe('ISO instant (UTC, Z)');
const positiveId = z.number().int().positive().max(2_147_483_647);
/** Ids in a query string arrive as text; anything but a positive int4 is a 400. */
const queryId = z
  .string()
  .regex(/^\d{1,10}$/, 'a positive integer')
  .transform(Number)
  .pipe(positiveId);

export const DIAGNOSTIC_KINDS = ['diagnostic', 'inspection', 'preprof', 'preschool'] as const;
export const diagnosticKindSchema = z.enum(DIAGNOSTIC_KINDS);
export type DiagnosticKind = z.infer<typeof diagnosticKindSchema>;

/** `D-2026-0001` when generated; a given code is letters, digits, `.`, `_` and `-`. */
export const diagnosticCodeSchema = z
  .string()
  .trim()
  .regex(/^[\p{L}\p{N}._-]{1,50}$/u, 'letters, digits, ".", "_" and "-" only, at most 50');

const distinct = (list: readonly number[]) => new Set(list).size === list.length;

/** `POST /api/createDiagnostic/create` body. */
export const createDiagnosticBodySchema = z
  .strictObject({
    name: z.string().trim().min(1).max(300),
    kind: diagnosticKindSchema
      .optional()
      .describe('default diagnostic; a supervision authority (ugnik) always creates an inspection'),
    startsAt: z.iso.datetime({ offset: true }).describe('ISO instant the window opens'),
    endsAt: z.iso.datetime({ offset: true }).describe('ISO instant the window closes; after startsAt'),
    parallels: z
      .array(z.number().int().min(0).max(11))
      .min(1)
      .max(12)
      .refine(distinct, { message: 'parallels must be distinct' })
      .describe('grades 0 (preschool) – 11'),
    subjectTestIds: z
      .array(positiveId)
      .min(1)
      .max(100)
      .refine(distinct, { message: 'ids must be distinct' })
      .describe('existing subject tests, each offered for at least one of the parallels'),
    schoolIds: z
      .array(positiveId)
      .max(5000)
      .refine(distinct, { message: 'ids must be distinct' })
      .optional()
      .describe('a coordinator: only their own school (the default); ugnik and admin: at least one'),
    specificationId: positiveId
      .optional()
      .describe('an existing specification (checked, recorded in the audit)'),
    code: diagnosticCodeSchema.optional().describe('unique; generated as D-YYYY-NNNN when absent'),
  })
  .meta({ id: 'CreateDiagnosticBody' });
export type CreateDiagnosticBody = z.infer<typeof createDiagnosticBodySchema>;

export const diagnosticSchema = z
  .object({
    id: z.number().int().positive(),
    code: z.string(),
    name: z.string(),
    kind: z.string(),
    startsAt: instant,
    endsAt: instant,
    parallels: z.array(z.number().int()),
    subjectTestIds: z.array(z.number().int()),
    schoolIds: z.array(z.number().int()),
    createdBy: z.number().int().nullable(),
    createdByRole: z.string().nullable(),
    resultsPublished: z.boolean(),
    createdAt: instant,
  })
  .meta({ id: 'Diagnostic' });
export type Diagnostic = z.infer<typeof diagnosticSchema>;

/** `GET /api/createDiagnostic/excel` query. */
export const diagnosticExcelQuerySchema = z.strictObject({ diagnosticId: queryId });

/** `GET /api/createDiagnostic/specifications` item. */
export const specificationOptionSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    subjectId: z.number().int().nullable(),
    subjectName: z.string().nullable(),
    parallel: z.number().int().nullable(),
    description: z.string().nullable(),
    elementCount: z.number().int(),
  })
  .meta({ id: 'SpecificationOption' });
export type SpecificationOption = z.infer<typeof specificationOptionSchema>;

/** `GET /api/createDiagnostic/subjectTests` query. */
export const subjectTestOptionsQuerySchema = z.strictObject({
  parallel: z
    .string()
    .regex(/^\d{1,2}$/, 'a grade 0–11')
    .transform(Number)
    .pipe(z.number().int().min(0).max(11))
    .optional()
    .describe('only subject tests offered for this grade'),
});

/** `GET /api/createDiagnostic/subjectTests` item. */
export const subjectTestOptionSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    subjectId: z.number().int(),
    subjectName: z.string(),
    kind: z.string().describe('diagnostic | preprof | preschool | worker'),
    parallels: z.array(z.number().int()),
    durationMinutes: z.number().int(),
    variantCount: z.number().int(),
    specificationId: z.number().int().nullable(),
  })
  .meta({ id: 'SubjectTestOption' });
export type SubjectTestOption = z.infer<typeof subjectTestOptionSchema>;

/** Query of the participant-code reports (slips to cut out and hand over). */
export const participantCodesQuerySchema = z.strictObject({
  diagnosticId: queryId,
  classId: queryId.optional().describe('only this class'),
  format: z.enum(['pdf', 'xlsx']).default('pdf'),
});
export type ParticipantCodesQuery = z.infer<typeof participantCodesQuerySchema>;
