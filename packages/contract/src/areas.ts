/**
 * Areas of the region and the supervision authority's view of them (docs/ugnik.md): an area
 * (район, округ) holds schools; an ugnik user bound to an area sees the school diagnostics of its
 * schools, read-only. The admin keeps the list of areas and sets a school's and an ugnik's area.
 */
import { z } from 'zod';

const id = z.number().int().positive();

export const areaSchema = z
  .object({
    id,
    name: z.string(),
    schoolCount: z.number().int().describe('schools in the area'),
  })
  .meta({ id: 'Area' });
export type Area = z.infer<typeof areaSchema>;
export const areaListSchema = z.object({ items: z.array(areaSchema) });
export type AreaList = z.infer<typeof areaListSchema>;

/** `POST /api/admin/areas`: a new area. */
export const areaCreateBodySchema = z.strictObject({
  name: z.string().trim().min(1).max(200).describe('unique among areas'),
});
export type AreaCreateBody = z.infer<typeof areaCreateBodySchema>;

/** A diagnostic's state by its dates (the server's clock). */
export const AREA_DIAGNOSTIC_STATUSES = ['planned', 'active', 'finished'] as const;
export type AreaDiagnosticStatus = (typeof AREA_DIAGNOSTIC_STATUSES)[number];

const areaDiagnosticBase = {
  diagnosticId: id,
  code: z.string(),
  name: z.string(),
  kind: z.string(),
  status: z.enum(AREA_DIAGNOSTIC_STATUSES),
  startsAt: z.string().describe('ISO instant'),
  endsAt: z.string().describe('ISO instant'),
};
const schoolCounts = {
  schoolId: id,
  schoolName: z.string(),
  participantCount: z.number().int().describe("the school's live participant tests"),
  finishedCount: z.number().int().describe('of them, those with a finished work'),
};

/** One row of the ugnik's list: a school diagnostic in one school of its area. */
export const ugnikAreaDiagnosticSchema = z
  .object({ ...areaDiagnosticBase, ...schoolCounts })
  .meta({ id: 'UgnikAreaDiagnostic' });
export type UgnikAreaDiagnostic = z.infer<typeof ugnikAreaDiagnosticSchema>;

export const ugnikAreaDiagnosticsQuerySchema = z.strictObject({
  search: z
    .string()
    .trim()
    .max(200)
    .optional()
    .describe('part of the diagnostic name or code, or of the school name'),
});
export const ugnikAreaDiagnosticsSchema = z
  .object({
    area: z
      .object({ id, name: z.string() })
      .nullable()
      .describe('null: the user is bound to no area (empty list)'),
    items: z.array(ugnikAreaDiagnosticSchema),
  })
  .meta({ id: 'UgnikAreaDiagnostics' });
export type UgnikAreaDiagnostics = z.infer<typeof ugnikAreaDiagnosticsSchema>;

/** `GET /api/ugnik/area/diagnostic/{id}`: one school diagnostic with the area's schools in it. */
export const ugnikAreaDiagnosticDetailSchema = z
  .object({ ...areaDiagnosticBase, schools: z.array(z.object(schoolCounts)) })
  .meta({ id: 'UgnikAreaDiagnosticDetail' });
export type UgnikAreaDiagnosticDetail = z.infer<typeof ugnikAreaDiagnosticDetailSchema>;
