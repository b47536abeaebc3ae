import { z } from 'zod';

/*
 * Item analysis of a subject test in a diagnostic (GET /api/reports/itemAnalysis, issue 12):
 * classical statistics per task and a Rasch (1PL) calibration across the variants. What each
 * figure means for a teacher: docs/item-analysis.md.
 */

const positiveId = z.number().int().positive().max(2_147_483_647);
/** Ids in a query string arrive as text; anything but a positive int4 is a 400. */
const queryId = z
  .string()
  .regex(/^\d{1,10}$/, 'a positive integer')
  .transform(Number)
  .pipe(positiveId);

export const itemAnalysisQuerySchema = z.strictObject({
  subjectTestId: queryId.describe('the subject test analysed'),
  diagnosticId: queryId.describe('the diagnostic whose participants are analysed'),
});
export type ItemAnalysisQuery = z.infer<typeof itemAnalysisQuerySchema>;

export const ITEM_ANALYSIS_WITHHELD_REASONS = ['awaiting_grading', 'diagnostic_running'] as const;
/**
 * Below this many participants the statistics are unreliable: the web warns (classical test theory's
 * usual rule of thumb, docs/item-analysis.md).
 */
export const ITEM_ANALYSIS_MIN_PARTICIPANTS = 30;
export const ITEM_FLAGS = ['none_solved', 'all_solved', 'negative_discrimination', 'misfit'] as const;

const share = z.number().min(0).max(1);
const nullableNumber = z.number().nullable();

export const scoreCountSchema = z.object({
  score: z.number().describe('a score (points)'),
  count: z.number().int().describe('participants with exactly this score'),
});

export const distractorSchema = z
  .object({
    option: z.string().describe('option id (`null` answers are counted in `noAnswer`)'),
    text: z
      .string()
      .describe(
        "the option's text: plain text of its html, powers and indices marked (x^2, a_1), at most 80 " +
          'characters (a longer one is cut at a word with «…»); empty when the option has no text (a picture)',
      ),
    key: z.boolean().describe('whether the option is (part of) the right answer'),
    share: share.describe('share of the participants who had the task that chose this option'),
    upper: share.describe('the same share in the upper 27 % group (by total score)'),
    lower: share.describe('the same share in the lower 27 % group'),
  })
  .meta({ id: 'ItemDistractor' });

export const itemRaschSchema = z
  .object({
    difficulty: z.number().describe('Rasch difficulty in logits (sum of calibrated difficulties 0)'),
    se: z.number().describe('standard error of the difficulty (logits)'),
    infit: z.number().describe('infit mean square (information weighted; 1 expected, 0.7–1.3 fine)'),
    outfit: z.number().describe('outfit mean square (unweighted; sensitive to surprising answers)'),
    infitT: z
      .number()
      .optional()
      .describe('partial credit model: infit as a t statistic (cube-root standardised, eRm’s infit t)'),
    outfitT: z
      .number()
      .optional()
      .describe('partial credit model: outfit as a t statistic (cube-root standardised, eRm’s outfit t)'),
    thresholds: z
      .array(
        z.object({
          score: z.number().describe('the score this step reaches (from the score observed below it)'),
          threshold: z
            .number()
            .describe('ability (logits) at which this score and the one below are equally likely'),
          se: z.number().describe('standard error of the threshold'),
        }),
      )
      .optional()
      .describe(
        'partial credit model: one threshold per step between the scores observed on the task; ' +
          '`difficulty` is then their mean (the task location) and `se` its standard error',
      ),
  })
  .meta({ id: 'ItemRasch' });

/** Groupings of the DIF checks (docs/item-analysis.md, «Проверка на предвзятость»). */
export const DIF_GROUPINGS = ['school', 'area', 'grade', 'gender', 'accommodations'] as const;
export const ETS_CLASSES = ['A', 'B', 'C'] as const;
/** No DIF flag while the reference or the focal group has fewer participants who had the task. */
export const DIF_MIN_GROUP_SIZE = 100;

const difGroupFields = {
  grouping: z
    .enum(DIF_GROUPINGS)
    .describe(
      'school, area, grade (class parallel): each group against all the other participants; ' +
        'gender: female (focal) against male (reference); accommodations: with (focal) against without',
    ),
  group: z
    .string()
    .describe(
      'the focal group: a school or area id, a grade, `female`, `with` (accommodations); `label` names a school or area',
    ),
  label: z.string().nullable().describe('the name of a school or area; null for the other groupings'),
  reference: z
    .string()
    .nullable()
    .describe('the reference group (`male`, `without`); null: every other participant of the grouping'),
  nFocal: z.number().int().describe('participants of the focal group'),
  nReference: z.number().int().describe('participants of the reference group'),
};

export const itemDifSchema = z
  .object({
    ...difGroupFields,
    nFocal: z.number().int().describe('participants of the focal group who had the task'),
    nReference: z.number().int().describe('participants of the reference group who had the task'),
    mantelHaenszel: z
      .object({
        alpha: z.number().describe('common odds ratio α_MH (> 1: the task favours the reference group)'),
        chiSquare: z.number().describe('MH chi-square (1 df, continuity corrected)'),
        p: z.number().describe('its p-value'),
        delta: z.number().describe('ETS delta, −2.35 ln α_MH (negative: harder for the focal group)'),
        seDelta: z.number().describe('standard error of delta (Robins–Breslow–Greenland)'),
        ets: z
          .enum(ETS_CLASSES)
          .describe(
            'A: |Δ| < 1 or χ² not significant at 5 %; C: |Δ| ≥ 1.5 and significantly above 1 (one-sided 5 %); B: otherwise',
          ),
        favours: z.enum(['reference', 'focal']).describe('whom the task favours at equal total score'),
      })
      .nullable()
      .describe('Mantel–Haenszel on full marks, matched on the variant total; null when no estimate'),
    smd: z
      .number()
      .nullable()
      .describe(
        'standardized mean difference of score ÷ max, focal − reference at equal totals (focal weights)',
      ),
    rasch: z
      .object({
        focal: z.number().describe('difficulty in the focal group (logits), the other tasks anchored'),
        reference: z.number().describe('difficulty in the reference group'),
        difference: z.number().describe('focal − reference (positive: harder for the focal group)'),
        se: z.number(),
        z: z.number(),
        flagged: z.boolean().describe('|difference| > 0.5 logit and |z| > 1.96'),
      })
      .nullable()
      .describe('Rasch check on full marks; null when the task was not calibrated or has no estimate'),
  })
  .meta({ id: 'ItemDif' });

export const difComparisonSchema = z
  .object({
    ...difGroupFields,
    checked: z
      .boolean()
      .describe('both groups reach `minGroupSize` (per task the counts may be smaller: then no flag)'),
    flaggedTaskIds: z.array(z.number().int()).describe('tasks flagged in this comparison'),
  })
  .meta({ id: 'DifComparison' });

export const itemAnalysisTaskSchema = z
  .object({
    taskId: z.number().int(),
    answerType: z.string(),
    maxScore: z.number().describe('the most points of the task'),
    variantIds: z.array(z.number().int()).describe('variants that contain the task'),
    n: z.number().int().describe('participants who had the task (its variant)'),
    facility: nullableNumber.describe('mean score ÷ max score over `n` (0–1); null when n = 0'),
    meanScore: nullableNumber,
    sd: nullableNumber.describe('standard deviation of the score'),
    fullMarks: nullableNumber.describe('share of `n` with the full mark'),
    discrimination: nullableNumber.describe(
      'corrected point-biserial: correlation of the task score with the rest of the variant total ' +
        '(total minus this task), pooled over the variants containing the task; null without variance',
    ),
    upperLower: nullableNumber.describe(
      'facility in the upper 27 % minus facility in the lower 27 % (groups by total percent)',
    ),
    alphaIfDeleted: nullableNumber.describe(
      "Cronbach's α of the task's variants without this task (mean over its variants, by participants)",
    ),
    scoreDistribution: z.array(scoreCountSchema).describe('participants per score of this task'),
    distractors: z
      .object({ options: z.array(distractorSchema), noAnswer: share })
      .nullable()
      .describe('single and multiple choice tasks: who chose what (from the answers); null otherwise'),
    rasch: itemRaschSchema
      .nullable()
      .describe('null when the task could not be calibrated (solved fully by no one or by everyone)'),
    dif: z
      .array(itemDifSchema)
      .optional()
      .describe(
        'DIF flags: the comparisons in which this task is flagged (ETS B or C, or the Rasch check), ' +
          'with the counts they rest on; none below the minimum group size',
      ),
    flags: z
      .array(z.enum(ITEM_FLAGS))
      .describe(
        'none_solved: no one got full marks; all_solved: everyone did; negative_discrimination: ' +
          'discrimination < 0; misfit: infit or outfit outside 0.7–1.3',
      ),
  })
  .meta({ id: 'ItemAnalysisTask' });

const wrightBinSchema = z.object({
  from: z.number(),
  to: z.number(),
  persons: z.number().int().describe('participants whose ability falls in [from, to)'),
  taskIds: z.array(z.number().int()).describe('tasks whose difficulty falls in [from, to)'),
});

export const itemAnalysisVariantSchema = z
  .object({
    variantId: z.number().int(),
    number: z.number().int(),
    participants: z.number().int(),
    maxScore: z.number(),
    meanScore: nullableNumber,
    sd: nullableNumber,
    alpha: nullableNumber.describe(
      "Cronbach's α of the variant's tasks (null below 2 participants or tasks)",
    ),
    taskIds: z.array(z.number().int()).describe('tasks in position order'),
    totalDistribution: z.array(scoreCountSchema).describe('participants per total score'),
    meanDifficulty: nullableNumber.describe('mean Rasch difficulty of its calibrated tasks (logits)'),
    wrightMap: z
      .array(wrightBinSchema)
      .optional()
      .describe(
        "this variant's Wright map: its participants and its calibrated tasks on the common scale, " +
          'bins as in rasch.wrightMap; absent without a calibration or participants',
      ),
    expected: z
      .array(
        z.object({
          ability: z.number().describe('ability (logits, on the item scale)'),
          tasksSolved: z.number().describe('expected number of tasks solved with full marks'),
          percent: z
            .number()
            .describe(
              'expected points as a percent of the max (dichotomous model: all-or-nothing tasks; ' +
                'partial credit model: from the probabilities of each score)',
            ),
        }),
      )
      .describe(
        'test characteristic curve: what a participant of the same ability is expected to score on ' +
          'this variant; a harder variant scores less at every ability',
      ),
  })
  .meta({ id: 'ItemAnalysisVariant' });

export const itemAnalysisRaschSchema = z
  .object({
    model: z
      .enum(['rasch_dichotomous', 'partial_credit'])
      .describe(
        'rasch_dichotomous: Rasch 1PL, every task scored right/wrong (a task with two scores; a ' +
          'fractional score below the max counts as not solved); partial_credit: the partial credit ' +
          'model (as eRm’s PCM), used when some task has three or more different scores',
      ),
    estimation: z.literal('cml').describe('conditional maximum likelihood (as eRm), Newton–Raphson'),
    linking: z
      .enum(['common_items', 'random_groups'])
      .describe(
        'common_items: variants linked by shared tasks; random_groups: unlinked parts placed so that ' +
          'their participants have the same mean ability (variants are spread at random)',
      ),
    iterations: z.number().int(),
    converged: z.boolean(),
    logLikelihood: z.number().describe('conditional log-likelihood at the estimate'),
    personsUsed: z.number().int().describe('participants with a non-extreme score (they inform CML)'),
    excludedTaskIds: z.array(z.number().int()).describe('tasks left out (no finite difficulty)'),
    wrightMap: z
      .array(wrightBinSchema)
      .describe(
        'person–item map in 0.5-logit bins; a score of 0 or full marks is placed at the ability of ' +
          '0.5 or max − 0.5 solved tasks',
      ),
  })
  .meta({ id: 'ItemAnalysisRasch' });

export const itemAnalysisSchema = z
  .object({
    subjectTestId: z.number().int(),
    diagnosticId: z.number().int(),
    withheld: z.boolean().describe('true while the figures would be provisional; then no statistics'),
    reason: z
      .enum(ITEM_ANALYSIS_WITHHELD_REASONS)
      .optional()
      .describe(
        'awaiting_grading: expert grading of the subject test in the diagnostic is unfinished (or ' +
          'finished works are not scored yet); diagnostic_running: its window is open and results unpublished',
      ),
    message: z.string().optional(),
    participants: z.number().int().describe('scored results analysed (the caller’s scope)'),
    alpha: nullableNumber.describe("Cronbach's α: the variants' α averaged by participants"),
    variants: z.array(itemAnalysisVariantSchema),
    tasks: z.array(itemAnalysisTaskSchema),
    rasch: itemAnalysisRaschSchema.nullable().describe('null when withheld or nothing could be calibrated'),
    dif: z
      .object({
        minGroupSize: z.number().int().describe('no flag while either group has fewer participants'),
        comparisons: z.array(difComparisonSchema),
      })
      .nullable()
      .optional()
      .describe(
        'bias checks (differential item functioning) of the tasks by school, area, grade, gender and ' +
          'accommodations: every comparison made, with its counts; null when withheld',
      ),
  })
  .meta({ id: 'ItemAnalysis' });
export type ItemAnalysis = z.infer<typeof itemAnalysisSchema>;
export type ItemAnalysisTask = z.infer<typeof itemAnalysisTaskSchema>;
export type ItemAnalysisVariant = z.infer<typeof itemAnalysisVariantSchema>;
export type ItemAnalysisRasch = z.infer<typeof itemAnalysisRaschSchema>;
export type ItemRasch = z.infer<typeof itemRaschSchema>;
export type ItemDif = z.infer<typeof itemDifSchema>;
export type DifComparison = z.infer<typeof difComparisonSchema>;
