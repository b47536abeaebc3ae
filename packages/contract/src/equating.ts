import { z } from 'zod';
import { itemAnalysisQuerySchema } from './item-analysis.js';

/*
 * Equating the variants of a subject test in a diagnostic to one scale (issue 28, item 2):
 * GET /api/reports/equating (the proposed tables from the current calibration, the adopted ones,
 * the levels), POST /api/reports/equating/adopt, PUT /api/reports/equating/cutScores. Method and
 * limits: docs/item-analysis.md, "Equating".
 */

const positiveId = z.number().int().positive().max(2_147_483_647);

export const equatingQuerySchema = itemAnalysisQuerySchema;
export type EquatingQuery = z.infer<typeof equatingQuerySchema>;

export const EQUATING_STATUSES = ['reference', 'common_items', 'random_groups', 'not_linked'] as const;
export const EQUATING_LEVELS = ['below_basic', 'basic', 'advanced', 'high'] as const;
export type EquatingLevel = (typeof EQUATING_LEVELS)[number];
/** Why no tables are proposed. */
export const EQUATING_UNAVAILABLE = [
  'awaiting_grading',
  'diagnostic_running',
  'no_calibration',
  'no_participants',
] as const;

export const equatingRowSchema = z
  .object({
    primary: z.number().describe('primary score on the variant'),
    theta: z
      .number()
      .nullable()
      .describe(
        'ability (logits) whose expected score on the variant is `primary`; null for 0 and full marks',
      ),
    scaled: z.number().describe('equated score: the expected score on the reference variant at that ability'),
    csem: z.number().describe('conditional standard error of `scaled` (points of the scale)'),
  })
  .meta({ id: 'EquatingRow' });

export const equatingVariantSchema = z
  .object({
    variantId: z.number().int(),
    number: z.number().int(),
    participants: z.number().int(),
    maxScore: z.number(),
    status: z
      .enum(EQUATING_STATUSES)
      .describe(
        'reference: the scale’s variant (scaled = primary); common_items: linked to it through shared ' +
          'tasks; random_groups: no shared task, placed by equal mean ability (variants handed out at ' +
          'random); not_linked: no shared task and no random assignment — no table',
      ),
    rows: z
      .array(equatingRowSchema)
      .describe('one row per primary score from 0 to the max; empty when not linked'),
  })
  .meta({ id: 'EquatingVariant' });

export const equatingTablesSchema = z
  .object({
    method: z
      .literal('irt_true_score')
      .describe('IRT true-score equating through the test characteristic curves'),
    model: z.enum(['rasch_dichotomous', 'partial_credit']),
    referenceVariantId: z.number().int(),
    referenceNumber: z.number().int(),
    scaleMin: z.number(),
    scaleMax: z.number(),
    step: z.number().describe('primary scores are tabled at multiples of this'),
    variants: z.array(equatingVariantSchema),
  })
  .meta({ id: 'EquatingTables' });
export type EquatingTablesDto = z.infer<typeof equatingTablesSchema>;

export const cutScoresSchema = z
  .strictObject({
    basic: z.number().describe('lowest scaled score of «базовый»'),
    advanced: z.number().describe('lowest scaled score of «повышенный»'),
    high: z.number().describe('lowest scaled score of «высокий»'),
  })
  .meta({ id: 'CutScores' });
export type CutScoresDto = z.infer<typeof cutScoresSchema>;

export const levelShareSchema = z.object({
  level: z.enum(EQUATING_LEVELS),
  participants: z.number().int(),
  share: z.number().min(0).max(1),
});

export const adoptedEquatingSchema = z
  .object({
    id: z.number().int().describe('the adopted table’s id (results name it)'),
    version: z.number().int().describe('1 for the first adoption, +1 for each re-adoption'),
    adoptedAt: z.string().describe('ISO timestamp'),
    adoptedBy: z.string().nullable().describe('who adopted it (surname and initials)'),
    tables: equatingTablesSchema,
    cutScores: cutScoresSchema.nullable().describe('null until the admin sets them'),
    levels: z
      .array(levelShareSchema)
      .describe('participants per level under the adopted table and cut scores; empty without cut scores'),
  })
  .meta({ id: 'AdoptedEquating' });
export type AdoptedEquating = z.infer<typeof adoptedEquatingSchema>;

export const equatingSchema = z
  .object({
    subjectTestId: z.number().int(),
    diagnosticId: z.number().int(),
    proposed: equatingTablesSchema
      .nullable()
      .describe('tables from the current calibration; null when unavailable'),
    unavailable: z.enum(EQUATING_UNAVAILABLE).nullable().describe('why nothing is proposed'),
    adopted: adoptedEquatingSchema.nullable(),
  })
  .meta({ id: 'Equating' });
export type Equating = z.infer<typeof equatingSchema>;

export const equatingAdoptBodySchema = z.strictObject({
  subjectTestId: positiveId,
  diagnosticId: positiveId,
});

export const equatingCutScoresBodySchema = z.strictObject({
  subjectTestId: positiveId,
  diagnosticId: positiveId,
  cutScores: cutScoresSchema,
});

/** What a result shows once a table is adopted (results, reports, exports). */
export const scaledScoreSchema = z
  .object({
    scaled: z.number().describe('scaled score (points of the reference variant), to 0.1'),
    csem: z.number().describe('its conditional standard error, to 0.1'),
    level: z.enum(EQUATING_LEVELS).nullable().describe('null until cut scores are set'),
    equatingId: z.number().int().describe('the adopted table used'),
    equatingVersion: z.number().int(),
    referenceNumber: z.number().int().describe('number of the variant whose points the scale counts'),
  })
  .meta({ id: 'ScaledScore' });
export type ScaledScore = z.infer<typeof scaledScoreSchema>;
