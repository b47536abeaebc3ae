import { z } from 'zod';
import {
  coordsProblem,
  HOTSPOT_SHAPES,
  qtiBindingProblem,
  qtiScoringSchema,
  type QtiScoring,
  type QtiSlot,
} from './content-qti.js';

export {
  ANSWER_TYPES,
  answerTypeSchema,
  IMPORTED_ANSWER_TYPES,
  TASK_ANSWER_TYPES,
  taskAnswerTypeSchema,
  PART_ANSWER_TYPES,
  type AnswerType,
  type TaskAnswerType,
  type PartAnswerType,
} from './answer-types.js';
import {
  PART_ANSWER_TYPES,
  type AnswerType,
  type TaskAnswerType,
  type PartAnswerType,
} from './answer-types.js';

/** Answer types scored by experts rather than automatically. */
export const MANUAL_ANSWER_TYPES: readonly AnswerType[] = ['extended_text', 'file'];
/** Whether a task (or a composite part) of this type goes to experts. */
export const isManualAnswerType = (type: string): boolean =>
  (MANUAL_ANSWER_TYPES as readonly string[]).includes(type);

export const SUBJECT_EXAM_KINDS = ['diagnostic', 'preprof', 'preschool', 'worker'] as const;
export type SubjectExamKind = (typeof SUBJECT_EXAM_KINDS)[number];

export const PARTICIPANT_TEST_STATUSES = [
  'planned',
  'active',
  'in_progress',
  'finished',
  'scored',
  'published',
  'absent',
  'annulled',
] as const;
export type ParticipantTestStatus = (typeof PARTICIPANT_TEST_STATUSES)[number];

/*
 * Task model (docs/design.md §2, §4). A task is stored as html + answerType + four JSON parts:
 * - `content`   what a participant sees besides the html (options, items, blanks, limits);
 * - `reference` the secret key;
 * - `scoring`   the secret rule turning an answer into points;
 * - the answer `value` the runner saves (PUT /api/exam/test/saveanswer).
 * `content` may leave the server before publication; `reference` and `scoring` never do.
 * Ids inside a task (options, items, blanks) are short opaque strings assigned in display order,
 * so they never hint at the key. The shapes follow what QTI/Moodle items express
 * (choiceInteraction, orderInteraction, matchInteraction, inlineChoice/textEntry, extendedText,
 * uploadInteraction, gapMatch, associate, hottext, hotspot/selectPoint, items with several
 * interactions) so imports map onto them; every automatically scored type may instead carry the
 * item's own QTI response processing (`scoring.method: 'qti'`, content-qti.ts). The whole model,
 * per type and per source format: docs/content-model.md.
 */

const itemIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,32}$/)
  .describe('Id of an option, item or blank, unique within its task (1–32 of A-Z a-z 0-9 _ -)');

const htmlSchema = z
  .string()
  .min(1)
  .max(20_000)
  .describe('Html fragment authored by content staff: simple tags, <sup>/<sub>, MathML');

const labelledSchema = z
  .object({ id: itemIdSchema, html: htmlSchema })
  .describe('A labelled piece of the task: option, item or matching side');

const distinctIds = (list: readonly { id: string }[]) => new Set(list.map((x) => x.id)).size === list.length;
const labelledListSchema = (min: number, max: number) =>
  z.array(labelledSchema).min(min).max(max).refine(distinctIds, { message: 'ids must be distinct' });

const shuffleSchema = z
  .boolean()
  .default(false)
  .describe('Show in a random order per participant (ids stay the same)');

// ---------------------------------------------------------------- content (participant sees)

const choiceContentSchema = z
  .object({ options: labelledListSchema(2, 26), shuffle: shuffleSchema })
  .describe('Options to choose from, in display order');

const multipleChoiceContentSchema = choiceContentSchema
  .extend({
    minChoices: z.number().int().min(1).optional().describe('Fewest options the runner lets one pick'),
    maxChoices: z.number().int().min(1).optional().describe('Most options the runner lets one pick'),
  })
  .describe('Options of which one or several are correct');

const shortTextContentSchema = z
  .object({
    maxLength: z.number().int().min(1).max(1000).default(100).describe('Longest accepted answer, characters'),
  })
  .describe('A one-line text answer (a word, a phrase)');

const numberContentSchema = z
  .object({ unit: z.string().max(32).optional().describe('Unit shown after the field, e.g. "см", "км/ч"') })
  .describe('A numeric answer; comma or point as the decimal separator');

const digitSequenceContentSchema = z
  .object({
    length: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .describe('Number of digit cells (the answer-form grid); absent — free length'),
  })
  .describe('An answer written as digits: numbers of statements, a correspondence table, a binary number');

const orderingContentSchema = z
  .object({ items: labelledListSchema(2, 20), shuffle: shuffleSchema })
  .describe('Items to put in order, in their initial display order');

const matchingContentSchema = z
  .object({
    left: labelledListSchema(1, 20).describe('Left column (questions), each gets one right item'),
    right: labelledListSchema(1, 26).describe('Right column (answers); may hold distractors'),
    shuffle: shuffleSchema,
  })
  .describe('Two columns to match');

const clozeBlankSchema = z.discriminatedUnion('kind', [
  z
    .object({
      id: itemIdSchema,
      kind: z.literal('text'),
      width: z.number().int().min(1).max(100).optional().describe('Field width hint, characters'),
    })
    .describe('A typed-in gap (QTI textEntryInteraction)'),
  z
    .object({
      id: itemIdSchema,
      kind: z.literal('choice'),
      options: z
        .array(
          z.object({
            id: itemIdSchema,
            text: z.string().min(1).max(200).describe('The option as plain text (the drop-down shows it)'),
            html: z
              .string()
              .max(2000)
              .optional()
              .describe(
                'The option with its markup (MathML, sub/sup…), when it has some (a QTI inlineChoice holding ' +
                  'a formula); shown instead of `text` where markup can be shown',
              ),
          }),
        )
        .min(2)
        .max(26)
        .refine(distinctIds, { message: 'ids must be distinct' })
        .describe('Options of the drop-down'),
    })
    .describe('A drop-down gap (QTI inlineChoiceInteraction)'),
  z
    .object({
      id: itemIdSchema,
      kind: z.literal('number'),
      width: z.number().int().min(1).max(100).optional().describe('Field width hint, characters'),
    })
    .describe('A typed-in numeric gap (Moodle cloze NUMERICAL, a float textEntryInteraction)'),
]);

const clozeContentSchema = z
  .object({
    blanks: z
      .array(clozeBlankSchema)
      .min(1)
      .max(50)
      .refine(distinctIds, { message: 'ids must be distinct' })
      .describe('Gaps; the task html marks the place of each as {{id}}'),
  })
  .describe('Text with gaps to fill in or to pick from a drop-down');

const extendedTextContentSchema = z
  .object({
    maxLength: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(10_000)
      .describe('Longest accepted answer, characters'),
  })
  .describe('A free-text answer graded by experts');

const fileContentSchema = z
  .object({
    accept: z
      .array(
        z
          .string()
          .regex(/^[a-z]+\/([a-z0-9.+-]+|\*)$/i)
          .describe('MIME type or pattern: "image/*", "application/pdf"'),
      )
      .min(1)
      .max(20),
    maxFiles: z.number().int().min(1).max(20).default(1),
    maxSizeMb: z.number().positive().max(100).default(10).describe('Per file, megabytes'),
  })
  .describe('Attached files (a photo of written work, a document) graded by experts');

const matchMaxSchema = z
  .number()
  .int()
  .min(0)
  .max(50)
  .default(1)
  .describe('How many times it may be used (0 — any number; QTI matchMax)');

const gapMatchContentSchema = z
  .object({
    words: z
      .array(z.object({ id: itemIdSchema, html: htmlSchema, matchMax: matchMaxSchema }))
      .min(1)
      .max(50)
      .refine(distinctIds, { message: 'ids must be distinct' })
      .describe('Words (texts or images) to drag into the gaps, in display order'),
    gaps: z
      .array(z.object({ id: itemIdSchema }))
      .min(1)
      .max(50)
      .refine(distinctIds, { message: 'ids must be distinct' })
      .describe('Gaps; the task html marks the place of each as {{id}}'),
    shuffle: shuffleSchema,
  })
  .describe('Words dragged into gaps of the text (QTI gapMatchInteraction, Moodle ddwtos)');

const associateContentSchema = z
  .object({
    items: z
      .array(z.object({ id: itemIdSchema, html: htmlSchema, matchMax: matchMaxSchema }))
      .min(2)
      .max(30)
      .refine(distinctIds, { message: 'ids must be distinct' })
      .describe('Items to pair with each other, in display order'),
    maxAssociations: z
      .number()
      .int()
      .min(0)
      .max(100)
      .default(0)
      .describe('Most pairs one may make (0 — any number; QTI maxAssociations, whose own default is 1)'),
    minAssociations: z.number().int().min(0).max(100).optional().describe('Fewest pairs the runner asks for'),
    shuffle: shuffleSchema,
  })
  .describe('Items joined into unordered pairs (QTI associateInteraction)');

const hottextContentSchema = z
  .object({
    choices: labelledListSchema(1, 100).describe(
      'Selectable spans; the task html marks the place of each as {{id}}',
    ),
    minChoices: z.number().int().min(0).optional().describe('Fewest spans the runner lets one pick'),
    maxChoices: z.number().int().min(1).optional().describe('Most spans the runner lets one pick'),
  })
  .describe('Words or phrases of the text to select (QTI hottextInteraction)');

const hotspotAreaSchema = z
  .object({
    id: itemIdSchema,
    shape: z.enum(HOTSPOT_SHAPES),
    coords: z.array(z.number().finite()).max(200).describe('Pixels of the image, as in an html <area>'),
  })
  .superRefine((a, ctx) => {
    const problem = coordsProblem(a.shape, a.coords);
    if (problem) ctx.addIssue({ code: 'custom', path: ['coords'], message: problem });
  })
  .describe('A region of the image');

const hotspotContentSchema = z
  .object({
    image: z
      .object({
        fileId: z.number().int().positive().optional().describe('An uploaded file of the task'),
        src: z.string().min(1).max(2000).optional().describe('Or a path inside the task package'),
        width: z.number().positive().max(10_000),
        height: z.number().positive().max(10_000),
        alt: z.string().max(500).optional(),
      })
      .refine((i) => i.fileId !== undefined || i.src !== undefined, { message: 'needs fileId or src' }),
    areas: z.array(hotspotAreaSchema).min(1).max(50).refine(distinctIds, { message: 'ids must be distinct' }),
    select: z
      .enum(['areas', 'points'])
      .default('areas')
      .describe(
        'areas: one clicks regions (QTI hotspotInteraction); points: one sets points "x y" (selectPointInteraction)',
      ),
    minChoices: z.number().int().min(0).optional(),
    maxChoices: z.number().int().min(1).optional(),
  })
  .describe('Regions of an image to select (QTI hotspot / selectPoint, Moodle ddmarker)');

// ---------------------------------------------------------------- reference (secret key)

const singleChoiceReferenceSchema = z.object({ correct: itemIdSchema }).describe('Id of the correct option');

const multipleChoiceReferenceSchema = z
  .object({ correct: z.array(itemIdSchema).min(1) })
  .describe('Ids of all correct options');

const acceptedTextSchema = z.string().trim().min(1).max(200);

/** Points are absolute points of the task (a Moodle fraction × the task's maxScore), not fractions. */
const pointsSchema = z.number().finite().min(-1000).max(1000).describe('Points (fractions allowed)');

const scoredTextSchema = z
  .object({ text: acceptedTextSchema, points: pointsSchema })
  .describe('An answer and the points it gives (Moodle: fraction × maxScore)');

const shortTextReferenceSchema = z
  .object({
    accepted: z
      .array(acceptedTextSchema)
      .min(1)
      .max(50)
      .describe('The full-mark answers (shown as the correct answer after publication)'),
    answers: z
      .array(scoredTextSchema)
      .min(1)
      .max(50)
      .optional()
      .describe('per_answer: answers in order; the first one the answer matches gives its points'),
  })
  .describe('Every accepted answer; compared after the normalisation of `scoring`');

const toleranceModeSchema = z
  .enum(['absolute', 'relative'])
  .default('absolute')
  .describe(
    'absolute: |x − value| ≤ tolerance; relative: |x − value| ≤ tolerance × |value| (a fraction, 0.05 = 5 %)',
  );

const numberValueKeySchema = z.object({
  value: z.number(),
  tolerance: z.number().min(0).default(0).describe('Accepted deviation (see toleranceMode)'),
  toleranceMode: toleranceModeSchema,
});
const numberRangeKeySchema = z.object({ min: z.number(), max: z.number() });

const scoredNumberSchema = z
  .union([
    numberValueKeySchema.extend({ points: pointsSchema }).describe('A value within a tolerance'),
    numberRangeKeySchema
      .extend({ points: pointsSchema })
      .refine((r) => r.min <= r.max, { message: 'min must not exceed max' })
      .describe('Any value in [min, max]'),
  ])
  .describe('A numeric answer and the points it gives');

const numberAnswersSchema = z
  .array(scoredNumberSchema)
  .min(1)
  .max(50)
  .optional()
  .describe(
    'per_answer: answers in order; the first one the number matches gives its points (Moodle numerical with several answers, GIFT {#=1822:0 =%50%1822:2})',
  );

const numberReferenceSchema = z
  .union([
    numberValueKeySchema
      .extend({ answers: numberAnswersSchema })
      .describe('A value, correct within the tolerance'),
    numberRangeKeySchema
      .extend({ answers: numberAnswersSchema })
      .refine((r) => r.min <= r.max, { message: 'min must not exceed max' })
      .describe('Any value in [min, max]'),
  ])
  .describe('The correct number (full marks); `answers` may give points to other numbers');

const digitSequenceReferenceSchema = z
  .object({ digits: z.string().regex(/^\d{1,50}$/) })
  .describe('The correct digits, in order (order matters unless scoring.anyOrder)');

const orderingReferenceSchema = z
  .object({ order: z.array(itemIdSchema).min(2) })
  .describe('Item ids in the correct order');

const matchingReferenceSchema = z
  .object({ pairs: z.record(itemIdSchema, itemIdSchema) })
  .describe('Left id → the right id it must be matched with');

const clozeReferenceSchema = z
  .object({
    blanks: z
      .record(itemIdSchema, z.array(acceptedTextSchema).min(1).max(50))
      .describe('Blank id → the full-mark values: texts (numbers) for typed gaps, option ids for drop-downs'),
    scored: z
      .record(
        itemIdSchema,
        z
          .array(z.union([scoredTextSchema, scoredNumberSchema]))
          .min(1)
          .max(50),
      )
      .optional()
      .describe(
        'weighted: blank id → answers in order with their points ({text} — a text or an option id; {value, tolerance} or {min, max} — numeric gaps); the first match counts',
      ),
  })
  .describe('Blank id → accepted values: texts for text gaps, option ids for drop-downs');

const gapMatchReferenceSchema = z
  .object({ pairs: z.record(itemIdSchema, itemIdSchema) })
  .describe('Gap id → the word id it must hold; a gap not listed must stay empty');

const idPairSchema = z.tuple([itemIdSchema, itemIdSchema]);

const associateReferenceSchema = z
  .object({ pairs: z.array(idPairSchema).min(1).max(100) })
  .describe('The pairs to make; a pair is unordered ([a, b] = [b, a])');

const selectionReferenceSchema = z
  .object({ correct: z.array(itemIdSchema).min(1) })
  .describe('Ids of all spans (areas) to select');

const manualReferenceSchema = z
  .null()
  .describe('None: experts grade by criteria; the model answer is the task solution html');

// ---------------------------------------------------------------- scoring (secret rule)

/**
 * Scoring methods. `all_or_nothing`: maxScore for a fully correct answer, else 0.
 * `one_mistake`: "one mistake — one point less": max(0, maxScore − mistakes), where a mistake is a
 * wrong or missing choice / digit / position / pair / blank. `per_choice`: sum of `map` over the
 * chosen options (within [lowerBound, upperBound] when given), clamped to [0, maxScore].
 * `per_pair` / `per_blank`: maxScore × share of correct pairs / blanks, rounded down to a whole
 * point. `share`: maxScore × share of correct pairs, exact. `per_answer`: the points of the first
 * listed answer the answer matches. `weighted`: the sum over blanks of the points of the first
 * matching answer of each blank. Scores are exact (rounded to 1e-6 against binary noise) and
 * clamped to [0, maxScore]. docs/content-model.md has the whole model.
 */
const methodSchema = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values).default(values[0]).describe('How points are given (see the task model notes)');

const textNormalisation = {
  caseSensitive: z.boolean().default(false).describe('Letter case matters (rarely: chemical formulas)'),
  distinguishYo: z.boolean().default(false).describe('ё and е differ (by default ё = е)'),
};

const choiceMapSchema = z
  .record(itemIdSchema, pointsSchema)
  .describe('per_choice: points for choosing each option (negative for distractors)');

const singleChoiceScoringSchema = z
  .object({
    method: methodSchema(['all_or_nothing', 'per_choice']),
    map: choiceMapSchema.optional(),
  })
  .refine((s) => s.method !== 'per_choice' || s.map !== undefined, {
    message: 'per_choice needs a map',
    path: ['map'],
  })
  .describe('The correct option gives maxScore, or each option its points (Moodle single-answer fractions)');

const boundsSchema = {
  lowerBound: pointsSchema
    .optional()
    .describe('per_choice: the sum is raised to at least this (QTI mapping lowerBound)'),
  upperBound: pointsSchema
    .optional()
    .describe('per_choice: the sum is cut to at most this (QTI mapping upperBound)'),
};
const boundsInOrder = (s: { lowerBound?: number; upperBound?: number }) =>
  s.lowerBound === undefined || s.upperBound === undefined || s.lowerBound <= s.upperBound;

const multipleChoiceScoringSchema = z
  .object({
    method: methodSchema(['all_or_nothing', 'one_mistake', 'per_choice']),
    map: choiceMapSchema.optional(),
    ...boundsSchema,
  })
  .refine((s) => s.method !== 'per_choice' || s.map !== undefined, {
    message: 'per_choice needs a map',
    path: ['map'],
  })
  .refine(boundsInOrder, { message: 'lowerBound must not exceed upperBound', path: ['lowerBound'] })
  .describe('Exact set, one point less per wrong/missing option, or a per-option map');

const wildcardsSchema = z
  .boolean()
  .default(false)
  .describe('In accepted answers * stands for any run of characters, \\* for a star (Moodle short answer)');

const shortTextScoringSchema = z
  .object({
    method: methodSchema(['all_or_nothing', 'per_answer']),
    ...textNormalisation,
    wildcards: wildcardsSchema,
  })
  .describe('Surrounding and repeated spaces are always ignored; per_answer scores by reference.answers');

const numberScoringSchema = z
  .object({ method: methodSchema(['all_or_nothing', 'per_answer']) })
  .describe(
    'Comma or point as the decimal separator, spaces between digit groups ignored; per_answer scores by reference.answers',
  );

const digitSequenceScoringSchema = z
  .object({
    method: methodSchema(['all_or_nothing', 'one_mistake']),
    anyOrder: z.boolean().default(false).describe('The digits form a set ("write the numbers of ...")'),
  })
  .describe('Digits compared position by position, or as a set');

const orderingScoringSchema = z
  .object({ method: methodSchema(['all_or_nothing', 'one_mistake']) })
  .describe('one_mistake counts items out of their place');

const matchingScoringSchema = z
  .object({ method: methodSchema(['all_or_nothing', 'one_mistake', 'per_pair', 'share']) })
  .describe('Mistake = a left item matched wrongly or not at all; share = maxScore × right / all left items');

const clozeScoringSchema = z
  .object({
    method: methodSchema(['all_or_nothing', 'one_mistake', 'per_blank', 'weighted']),
    ...textNormalisation,
    wildcards: wildcardsSchema,
  })
  .describe('Mistake = a blank filled wrongly or left empty; weighted scores by reference.scored');

const gapMatchScoringSchema = z
  .object({ method: methodSchema(['all_or_nothing', 'one_mistake', 'per_pair', 'share']) })
  .describe(
    'Mistake = a gap holding a wrong word, or empty when it needs one, or filled when it must stay empty',
  );

const associateScoringSchema = z
  .object({ method: methodSchema(['all_or_nothing', 'per_pair']) })
  .describe('per_pair: maxScore × (right pairs − wrong pairs) / pairs of the key, exact, at least 0');

const manualScoringSchema = z
  .object({
    method: z.literal('expert').default('expert'),
    thirdCheckThreshold: z
      .number()
      .min(0)
      .default(1)
      .describe('A third expert grades when the two experts differ by more than this many points'),
  })
  .describe('Graded by two experts by the criteria (docs/design.md §3)');

// ---------------------------------------------------------------- answer values (participant)

const singleChoiceValueSchema = z.string().max(32).describe('Id of the chosen option ("" — none)');
const multipleChoiceValueSchema = z.array(itemIdSchema).max(26).describe('Ids of the chosen options');
const shortTextValueSchema = z.string().max(1000).describe('The typed text');
const numberValueSchema = z
  .string()
  .max(50)
  .describe('The number as typed, e.g. "2,5", "-3", "1 250"; parsed by scoring');
const digitSequenceValueSchema = z
  .string()
  .regex(/^\d{0,50}$/)
  .describe('The typed digits, e.g. "312"');
const orderingValueSchema = z.array(itemIdSchema).max(20).describe('Item ids in the chosen order');
const matchingValueSchema = z
  .record(itemIdSchema, itemIdSchema)
  .describe('Left id → chosen right id; unmatched left ids are absent');
const clozeValueSchema = z
  .record(itemIdSchema, z.string().max(200))
  .describe('Blank id → typed text, or the chosen option id for a drop-down');
const extendedTextValueSchema = z.string().max(100_000).describe('The written answer, plain text');
const fileValueSchema = z
  .object({ fileIds: z.array(z.number().int().positive()).max(20) })
  .describe('Ids of the uploaded files attached to this answer');

const gapMatchValueSchema = z
  .record(itemIdSchema, itemIdSchema)
  .describe('Gap id → the word id put there; empty gaps are absent');
const associateValueSchema = z
  .array(idPairSchema)
  .max(100)
  .describe('The pairs made, each [id, id] (order within a pair does not matter)');
const hottextValueSchema = z.array(itemIdSchema).max(100).describe('Ids of the selected spans');
/** A point of the image as QTI writes it: "x y", whole pixels. */
export const QTI_POINT_RE = /^-?\d{1,6} -?\d{1,6}$/;
const hotspotValueSchema = z
  .array(z.string().regex(/^(?:[A-Za-z0-9_-]{1,32}|-?\d{1,6} -?\d{1,6})$/))
  .max(50)
  .describe('select areas: ids of the chosen areas; select points: the points set, each "x y"');

/**
 * A native rule, or QTI response processing (`method: 'qti'`, content-qti.ts) for any
 * automatically scored type.
 */
const withQti = <N extends z.ZodObject<{ method: z.ZodType }>>(native: N) =>
  z.discriminatedUnion('method', [qtiScoringSchema, native]);

/** The parts of the task model, per answer type a composite part may have. */
const PART_SCHEMAS = {
  single_choice: {
    content: choiceContentSchema,
    reference: singleChoiceReferenceSchema,
    scoring: withQti(singleChoiceScoringSchema),
    value: singleChoiceValueSchema,
  },
  multiple_choice: {
    content: multipleChoiceContentSchema,
    reference: multipleChoiceReferenceSchema,
    scoring: withQti(multipleChoiceScoringSchema),
    value: multipleChoiceValueSchema,
  },
  short_text: {
    content: shortTextContentSchema,
    reference: shortTextReferenceSchema,
    scoring: withQti(shortTextScoringSchema),
    value: shortTextValueSchema,
  },
  number: {
    content: numberContentSchema,
    reference: numberReferenceSchema,
    scoring: withQti(numberScoringSchema),
    value: numberValueSchema,
  },
  digit_sequence: {
    content: digitSequenceContentSchema,
    reference: digitSequenceReferenceSchema,
    scoring: withQti(digitSequenceScoringSchema),
    value: digitSequenceValueSchema,
  },
  ordering: {
    content: orderingContentSchema,
    reference: orderingReferenceSchema,
    scoring: withQti(orderingScoringSchema),
    value: orderingValueSchema,
  },
  matching: {
    content: matchingContentSchema,
    reference: matchingReferenceSchema,
    scoring: withQti(matchingScoringSchema),
    value: matchingValueSchema,
  },
  cloze: {
    content: clozeContentSchema,
    reference: clozeReferenceSchema,
    scoring: withQti(clozeScoringSchema),
    value: clozeValueSchema,
  },
  extended_text: {
    content: extendedTextContentSchema,
    reference: manualReferenceSchema,
    scoring: manualScoringSchema,
    value: extendedTextValueSchema,
  },
  file: {
    content: fileContentSchema,
    reference: manualReferenceSchema,
    scoring: manualScoringSchema,
    value: fileValueSchema,
  },
  gap_match: {
    content: gapMatchContentSchema,
    reference: gapMatchReferenceSchema,
    scoring: withQti(gapMatchScoringSchema),
    value: gapMatchValueSchema,
  },
  associate: {
    content: associateContentSchema,
    reference: associateReferenceSchema,
    scoring: withQti(associateScoringSchema),
    value: associateValueSchema,
  },
  hottext: {
    content: hottextContentSchema,
    reference: selectionReferenceSchema,
    scoring: withQti(multipleChoiceScoringSchema),
    value: hottextValueSchema,
  },
  hotspot: {
    content: hotspotContentSchema,
    reference: selectionReferenceSchema,
    scoring: withQti(multipleChoiceScoringSchema),
    value: hotspotValueSchema,
  },
} as const satisfies Record<
  PartAnswerType,
  { content: z.ZodType; reference: z.ZodType; scoring: z.ZodType; value: z.ZodType }
>;

type PartSchemas = typeof PART_SCHEMAS;
type PartContent<T extends PartAnswerType> = z.output<PartSchemas[T]['content']>;

// ---------------------------------------------------------------- composite (several interactions)

/** A part of a composite task: its own answer type and content; the html marks its place {{id}}. */
export type CompositePart = {
  [T in PartAnswerType]: { id: string; answerType: T; content: PartContent<T> };
}[PartAnswerType];

const compositePartSchema = z
  .object({ id: itemIdSchema, answerType: z.enum(PART_ANSWER_TYPES), content: z.unknown() })
  .transform((part, ctx): CompositePart => {
    const parsed = PART_SCHEMAS[part.answerType].content.safeParse(part.content);
    if (parsed.success) return { ...part, content: parsed.data } as CompositePart;
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: 'custom', path: ['content', ...issue.path], message: issue.message });
    return z.NEVER;
  })
  .describe('A part: { id, answerType, content } with the content of that answer type');

const compositeContentSchema = z
  .object({
    parts: z
      .array(compositePartSchema)
      .min(1)
      .max(20)
      .refine(distinctIds, { message: 'ids must be distinct' })
      .describe('Interactions of the task in display order; the task html marks the place of each as {{id}}'),
  })
  .describe('Several interactions in one task (a QTI item with several interactions)');

const compositeReferenceSchema = z
  .object({
    parts: z
      .record(itemIdSchema, z.unknown())
      .describe("Part id → that part's reference (the reference shape of its answer type)"),
  })
  .describe('The key of every automatically scored part');

const compositeSumScoringSchema = z
  .object({
    method: z.literal('sum'),
    parts: z
      .record(
        itemIdSchema,
        z.object({
          scoring: z.unknown().describe("The part's scoring rule (the scoring shape of its answer type)"),
          maxScore: z.number().positive().max(100).describe("The part's full marks"),
        }),
      )
      .describe('Part id → its native rule; every automatically scored part is listed'),
  })
  .describe('The sum of the parts, each scored by its own rule, clamped to maxScore');

const compositeScoringSchema = z
  .discriminatedUnion('method', [qtiScoringSchema, compositeSumScoringSchema])
  .describe('QTI response processing over the parts, or the sum of the parts’ own rules');

/** Any value a part may hold (each checked against its own type when scored). */
const partValueSchema = z.union(
  Object.values(PART_SCHEMAS).map((s) => s.value) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]],
);
const compositeValueSchema = z
  .record(itemIdSchema, partValueSchema)
  .describe("Part id → that part's value (the value shape of its answer type)");

/** Every part of the task model, per answer type. */
export const TASK_SCHEMAS = {
  ...PART_SCHEMAS,
  composite: {
    content: compositeContentSchema,
    reference: compositeReferenceSchema,
    scoring: compositeScoringSchema,
    value: compositeValueSchema,
  },
} as const satisfies Record<
  TaskAnswerType,
  { content: z.ZodType; reference: z.ZodType; scoring: z.ZodType; value: z.ZodType }
>;

type TaskSchemas = typeof TASK_SCHEMAS;
/** Parts of the model per type; without a type argument, those of the types the API serves. */
export type TaskContent<T extends TaskAnswerType = AnswerType> = z.output<TaskSchemas[T]['content']>;
export type TaskReference<T extends TaskAnswerType = AnswerType> = z.output<TaskSchemas[T]['reference']>;
export type TaskScoring<T extends TaskAnswerType = AnswerType> = z.output<TaskSchemas[T]['scoring']>;
export type AnswerValue<T extends TaskAnswerType = AnswerType> = z.output<TaskSchemas[T]['value']>;

export const contentSchemaFor = <T extends TaskAnswerType>(type: T): TaskSchemas[T]['content'] =>
  TASK_SCHEMAS[type].content;
export const referenceSchemaFor = <T extends TaskAnswerType>(type: T): TaskSchemas[T]['reference'] =>
  TASK_SCHEMAS[type].reference;
export const scoringSchemaFor = <T extends TaskAnswerType>(type: T): TaskSchemas[T]['scoring'] =>
  TASK_SCHEMAS[type].scoring;
/** The shape of `value` in saveanswer for a task of this answer type. */
export const answerValueSchemaFor = <T extends TaskAnswerType>(type: T): TaskSchemas[T]['value'] =>
  TASK_SCHEMAS[type].value;

/**
 * Answer values compare as the database's jsonb does: by canonical JSON (sorted keys, undefined
 * left out), so equal values are equal whatever their key order — a retried save, a form unchanged.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** A rubric criterion of a manually graded task: «К1 — тезис сформулирован», 1 балл. */
export const criterionSchema = z
  .object({
    code: z.string().min(1).max(16).describe('Short code shown to experts, e.g. К1'),
    text: z.string().min(1).max(4000).describe('What earns the points'),
    maxScore: z.number().int().min(1).max(100),
  })
  .describe('Rubric criterion');
export type Criterion = z.infer<typeof criterionSchema>;

const maxScoreSchema = z.number().positive().max(100).describe('Points for a fully correct answer');

const criteriaSchema = z
  .array(criterionSchema)
  .max(20)
  .optional()
  .describe('Rubric; required for manually graded types, points add up to maxScore');

/** Ids in the order the `{{id}}` placeholders appear in a task's html (gaps, spans, parts). */
export function clozePlaceholders(html: string): string[] {
  return [...html.matchAll(/\{\{([A-Za-z0-9_-]{1,32})\}\}/g)].map((m) => m[1]!);
}
export const htmlPlaceholders = clozePlaceholders;

/**
 * The ids a task's html marks as `{{id}}`, each exactly once: cloze and gap-match gaps, hottext
 * spans, composite parts; null for types whose html holds no placeholder.
 */
export function placeholderIdsOf(answerType: string, content: unknown): string[] | null {
  const c = (content ?? {}) as Record<string, unknown>;
  const ids = (list: unknown) =>
    Array.isArray(list) ? list.map((x) => String((x as { id?: unknown } | null)?.id)) : [];
  switch (answerType) {
    case 'cloze':
      return ids(c.blanks);
    case 'gap_match':
      return ids(c.gaps);
    case 'hottext':
      return ids(c.choices);
    case 'composite':
      return ids(c.parts);
    default:
      return null;
  }
}

/** What is wrong with the placeholders of a task's html (importers check this before saving). */
export function placeholderProblems(answerType: string, content: unknown, html: string): string[] {
  const expected = placeholderIdsOf(answerType, content);
  if (!expected) return [];
  const found = clozePlaceholders(html);
  const problems: string[] = [];
  for (const id of expected) {
    const n = found.filter((x) => x === id).length;
    if (n !== 1)
      problems.push(n === 0 ? `{{${id}}} is missing from the html` : `{{${id}}} appears ${n} times`);
  }
  for (const id of new Set(found))
    if (!expected.includes(id)) problems.push(`{{${id}}} names nothing of the task`);
  return problems;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && new Set(a).size === a.length && a.every((x) => b.includes(x));

const definitionBranch = <T extends TaskAnswerType>(answerType: T) =>
  z.object({
    answerType: z.literal(answerType),
    content: TASK_SCHEMAS[answerType].content as TaskSchemas[T]['content'],
    reference: TASK_SCHEMAS[answerType].reference as TaskSchemas[T]['reference'],
    scoring: TASK_SCHEMAS[answerType].scoring as TaskSchemas[T]['scoring'],
    maxScore: maxScoreSchema,
    criteria: criteriaSchema,
  });

const definitionUnion = z.discriminatedUnion('answerType', [
  definitionBranch('single_choice'),
  definitionBranch('multiple_choice'),
  definitionBranch('short_text'),
  definitionBranch('number'),
  definitionBranch('digit_sequence'),
  definitionBranch('ordering'),
  definitionBranch('matching'),
  definitionBranch('cloze'),
  definitionBranch('extended_text'),
  definitionBranch('file'),
  definitionBranch('gap_match'),
  definitionBranch('associate'),
  definitionBranch('hottext'),
  definitionBranch('hotspot'),
  definitionBranch('composite'),
]);
type Definition = z.output<typeof definitionUnion>;
type Problem = (path: (string | number)[], message: string) => void;

/** An unordered pair as one key: [b, a] and [a, b] are the same pair. */
export const pairKey = (a: string, b: string): string => (a <= b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/** Ids used more often than their matchMax allows (0 — any number). */
function overused(items: readonly { id: string; matchMax: number }[], used: readonly string[]): string[] {
  return items
    .filter((it) => it.matchMax > 0 && used.filter((u) => u === it.id).length > it.matchMax)
    .map((it) => it.id);
}

/**
 * Consistency of one task (or composite part): the key names what the content has, and so on.
 * Under QTI processing (the task's, or its composite's) the key only shows the correct answer, so
 * it may leave items out (a partial order, an unmatched source, a gap without a correct value).
 */
function checkTask(task: Definition, problem: Problem, underQti = false): void {
  const ids = (list: readonly { id: string }[]) => list.map((x) => x.id);
  const scoring = task.scoring as { method?: string; map?: Record<string, number> } | undefined;
  const method = scoring?.method;
  const partialKey = underQti || method === 'qti';
  const within = (some: readonly string[], all: readonly string[]) =>
    new Set(some).size === some.length && some.every((x) => all.includes(x));
  const covers = (some: readonly string[], all: readonly string[]) =>
    partialKey ? within(some, all) : sameSet(some, all);
  const floorsShares =
    (task.answerType === 'matching' || task.answerType === 'gap_match') && method === 'per_pair';
  if ((method === 'one_mistake' || floorsShares) && !Number.isInteger(task.maxScore))
    problem(['maxScore'], 'must be a whole number for this scoring method');
  const selection = (choices: string[], correct: readonly string[]) => {
    if (correct.some((id) => !choices.includes(id)))
      problem(['reference', 'correct'], 'not an id of the task');
    if (scoring?.map && !sameSet(Object.keys(scoring.map), choices))
      problem(['scoring', 'map'], 'must give points for every option');
  };
  const limits = (c: { minChoices?: number; maxChoices?: number }, correct: readonly string[]) => {
    if (c.minChoices !== undefined && c.maxChoices !== undefined && c.minChoices > c.maxChoices)
      problem(['content', 'minChoices'], 'exceeds maxChoices');
    if (c.maxChoices !== undefined && correct.length > c.maxChoices)
      problem(['content', 'maxChoices'], 'is less than the number of correct choices');
  };

  if (method === 'qti') checkQtiBinding(task, task.scoring as QtiScoring, problem);

  switch (task.answerType) {
    case 'single_choice':
      if (!ids(task.content.options).includes(task.reference.correct))
        problem(['reference', 'correct'], 'not an option id');
      if (scoring?.map && !sameSet(Object.keys(scoring.map), ids(task.content.options)))
        problem(['scoring', 'map'], 'must give points for every option');
      break;
    case 'multiple_choice': {
      const options = ids(task.content.options);
      if (task.reference.correct.some((id) => !options.includes(id)))
        problem(['reference', 'correct'], 'not an option id');
      if (scoring?.map && !sameSet(Object.keys(scoring.map), options))
        problem(['scoring', 'map'], 'must give points for every option');
      break;
    }
    case 'short_text':
      if (method === 'per_answer' && !task.reference.answers)
        problem(['reference', 'answers'], 'per_answer needs scored answers');
      break;
    case 'number':
      if (method === 'per_answer' && !task.reference.answers)
        problem(['reference', 'answers'], 'per_answer needs scored answers');
      break;
    case 'digit_sequence':
      if (task.content.length !== undefined && task.content.length !== task.reference.digits.length)
        problem(['content', 'length'], 'differs from the length of the key');
      break;
    case 'ordering':
      if (!covers(task.reference.order, ids(task.content.items)))
        problem(['reference', 'order'], 'must list every item exactly once');
      break;
    case 'matching': {
      const right = ids(task.content.right);
      if (!covers(Object.keys(task.reference.pairs), ids(task.content.left)))
        problem(['reference', 'pairs'], 'must match every left item');
      if (Object.values(task.reference.pairs).some((id) => !right.includes(id)))
        problem(['reference', 'pairs'], 'not a right item id');
      break;
    }
    case 'cloze': {
      if (!covers(Object.keys(task.reference.blanks), ids(task.content.blanks)))
        problem(['reference', 'blanks'], 'must give accepted values for every blank');
      const scored = task.reference.scored;
      if (method === 'weighted' && (!scored || !sameSet(Object.keys(scored), ids(task.content.blanks))))
        problem(['reference', 'scored'], 'weighted needs scored answers for every blank');
      for (const blank of task.content.blanks) {
        const answers = scored?.[blank.id] ?? [];
        if (blank.kind !== 'number' && answers.some((a) => !('text' in a)))
          problem(['reference', 'scored', blank.id], 'numeric answers only suit a number gap');
        if (blank.kind !== 'choice') continue;
        const options = ids(blank.options);
        const accepted = task.reference.blanks[blank.id] ?? [];
        if (accepted.some((id) => !options.includes(id)))
          problem(['reference', 'blanks', blank.id], 'not an option id of the drop-down');
        if (answers.some((a) => 'text' in a && !options.includes(a.text)))
          problem(['reference', 'scored', blank.id], 'not an option id of the drop-down');
      }
      break;
    }
    case 'extended_text':
    case 'file': {
      const criteria = task.criteria ?? [];
      if (!criteria.length) problem(['criteria'], 'manually graded tasks need rubric criteria');
      else if (criteria.reduce((sum, c) => sum + c.maxScore, 0) !== task.maxScore)
        problem(['criteria'], 'criteria points must add up to maxScore');
      break;
    }
    case 'gap_match': {
      const words = ids(task.content.words);
      const gaps = ids(task.content.gaps);
      if (words.some((id) => gaps.includes(id))) problem(['content'], 'words and gaps need distinct ids');
      const pairs = Object.entries(task.reference.pairs);
      if (pairs.length === 0) problem(['reference', 'pairs'], 'must fill at least one gap');
      if (pairs.some(([gap]) => !gaps.includes(gap))) problem(['reference', 'pairs'], 'not a gap id');
      if (pairs.some(([, word]) => !words.includes(word))) problem(['reference', 'pairs'], 'not a word id');
      const over = overused(
        task.content.words,
        pairs.map(([, word]) => word),
      );
      if (over.length)
        problem(['reference', 'pairs'], `uses ${over.join(', ')} more often than its matchMax`);
      break;
    }
    case 'associate': {
      const items = ids(task.content.items);
      const pairs = task.reference.pairs;
      if (pairs.some(([a, b]) => !items.includes(a) || !items.includes(b)))
        problem(['reference', 'pairs'], 'not an item id');
      if (pairs.some(([a, b]) => a === b)) problem(['reference', 'pairs'], 'an item cannot pair with itself');
      if (new Set(pairs.map(([a, b]) => pairKey(a, b))).size !== pairs.length)
        problem(['reference', 'pairs'], 'a pair is listed twice');
      const over = overused(task.content.items, pairs.flat());
      if (over.length)
        problem(['reference', 'pairs'], `uses ${over.join(', ')} more often than its matchMax`);
      const max = task.content.maxAssociations;
      if (max > 0 && pairs.length > max)
        problem(['content', 'maxAssociations'], 'is less than the pairs of the key');
      break;
    }
    case 'hottext':
      selection(ids(task.content.choices), task.reference.correct);
      limits(task.content, task.reference.correct);
      break;
    case 'hotspot':
      selection(ids(task.content.areas), task.reference.correct);
      limits(task.content, task.reference.correct);
      break;
    case 'composite':
      checkComposite(task, problem);
      break;
  }
}

/** A QTI rule binds the answer to responses that can hold it (content-qti.ts `qtiBindingProblem`). */
function checkQtiBinding(task: Definition, scoring: QtiScoring, problem: Problem): void {
  const responses = new Map(scoring.responses.map((r) => [r.id, r]));
  const bind = scoring.bind;
  const check = (slot: QtiSlot, responseId: string, content: unknown, path: (string | number)[]) => {
    const decl = responses.get(responseId);
    const bad = decl && qtiBindingProblem(slot, decl, content);
    if (bad) problem(path, bad);
  };
  if (task.answerType === 'cloze' || task.answerType === 'composite') {
    if (!('parts' in bind)) return problem(['scoring', 'bind'], 'cloze and composite tasks bind { parts }');
    const slots = new Map<string, [QtiSlot, unknown]>(
      task.answerType === 'cloze'
        ? task.content.blanks.map((b) => [b.id, [`gap_${b.kind}` as QtiSlot, b]])
        : task.content.parts.map((p) => [p.id, [p.answerType, p.content]]),
    );
    const bound = Object.entries(bind.parts);
    if (!bound.length) problem(['scoring', 'bind', 'parts'], 'binds nothing');
    for (const [id, responseId] of bound) {
      const slot = slots.get(id);
      if (!slot) problem(['scoring', 'bind', 'parts', id], 'not a gap or part of the task');
      else check(slot[0], responseId, slot[1], ['scoring', 'bind', 'parts', id]);
    }
    if (new Set(bound.map(([, r]) => r)).size !== bound.length)
      problem(['scoring', 'bind', 'parts'], 'two gaps or parts bound to one response');
    return;
  }
  if (!('response' in bind)) return problem(['scoring', 'bind'], 'a single interaction binds { response }');
  check(task.answerType as QtiSlot, bind.response, task.content, ['scoring', 'bind', 'response']);
}

/** Each part as a task of its own: its key (and, under `sum`, its rule) checked like one. */
function checkComposite(task: Extract<Definition, { answerType: 'composite' }>, problem: Problem): void {
  const parts = task.content.parts;
  const refs = task.reference.parts;
  const rules = task.scoring.method === 'sum' ? task.scoring.parts : null;
  const underQti = task.scoring.method === 'qti';
  const auto = parts.filter((part) => !isManualAnswerType(part.answerType)).map((part) => part.id);
  for (const id of Object.keys(refs))
    if (!parts.some((part) => part.id === id)) problem(['reference', 'parts', id], 'not a part id');
  if (rules)
    for (const id of Object.keys(rules))
      if (!auto.includes(id)) problem(['scoring', 'parts', id], 'not an automatically scored part');
  if (!auto.length) problem(['content', 'parts'], 'needs an automatically scored part');
  parts.forEach((part, i) => {
    if (isManualAnswerType(part.answerType)) return;
    const schemas = PART_SCHEMAS[part.answerType];
    const reference = schemas.reference.safeParse(refs[part.id]);
    if (refs[part.id] === undefined)
      return underQti ? undefined : problem(['reference', 'parts', part.id], 'missing');
    if (!reference.success) {
      for (const issue of reference.error.issues)
        problem(['reference', 'parts', part.id, ...issue.path.map(String)], issue.message);
      return;
    }
    let scoring: unknown;
    let maxScore = task.maxScore;
    if (rules) {
      const rule = rules[part.id];
      if (!rule) return problem(['scoring', 'parts', part.id], 'missing');
      const parsed = schemas.scoring.safeParse(rule.scoring);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          problem(['scoring', 'parts', part.id, 'scoring', ...issue.path.map(String)], issue.message);
        return;
      }
      scoring = parsed.data;
      maxScore = rule.maxScore;
    }
    const where = (path: (string | number)[]): (string | number)[] => {
      const [head, ...rest] = path;
      if (head === 'content') return ['content', 'parts', i, 'content', ...rest];
      if (head === 'scoring') return ['scoring', 'parts', part.id, 'scoring', ...rest];
      if (head === 'maxScore') return ['scoring', 'parts', part.id, 'maxScore'];
      return [String(head), 'parts', part.id, ...rest];
    };
    const asTask = {
      answerType: part.answerType,
      content: part.content,
      reference: reference.data,
      scoring,
      maxScore,
    };
    checkTask(asTask as Definition, (path, message) => problem(where(path), message), underQti);
  });
}

/**
 * A whole task definition (everything but the html), checked for consistency: the key only names
 * ids the content has, a partial-credit map covers the options, rubrics add up to maxScore, each
 * part of a composite task is consistent on its own. `placeholderProblems` checks the html.
 */
export const taskDefinitionSchema = definitionUnion
  .superRefine((task, ctx) =>
    checkTask(task, (path, message) => ctx.addIssue({ code: 'custom', path, message })),
  )
  .describe('A task definition: answer type, content, key, scoring rule, max score, rubric');
export type TaskDefinition = z.output<typeof taskDefinitionSchema>;
export type TaskDefinitionInput = z.input<typeof taskDefinitionSchema>;
