import { z } from 'zod';

/** Answer types of docs/design.md §4. */
export const ANSWER_TYPES = [
  'single_choice',
  'multiple_choice',
  'short_text',
  'number',
  'digit_sequence',
  'ordering',
  'matching',
  'cloze',
  'extended_text',
  'file',
] as const;
export const answerTypeSchema = z.enum(ANSWER_TYPES);
export type AnswerType = z.infer<typeof answerTypeSchema>;

/** Answer types scored by experts rather than automatically. */
export const MANUAL_ANSWER_TYPES: readonly AnswerType[] = ['extended_text', 'file'];

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
 * uploadInteraction) so imports can map onto them.
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
        .array(z.object({ id: itemIdSchema, text: z.string().min(1).max(200) }))
        .min(2)
        .max(26)
        .refine(distinctIds, { message: 'ids must be distinct' })
        .describe('Plain-text options of the drop-down'),
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

/** Every part of the task model, per answer type. */
export const TASK_SCHEMAS = {
  single_choice: {
    content: choiceContentSchema,
    reference: singleChoiceReferenceSchema,
    scoring: singleChoiceScoringSchema,
    value: singleChoiceValueSchema,
  },
  multiple_choice: {
    content: multipleChoiceContentSchema,
    reference: multipleChoiceReferenceSchema,
    scoring: multipleChoiceScoringSchema,
    value: multipleChoiceValueSchema,
  },
  short_text: {
    content: shortTextContentSchema,
    reference: shortTextReferenceSchema,
    scoring: shortTextScoringSchema,
    value: shortTextValueSchema,
  },
  number: {
    content: numberContentSchema,
    reference: numberReferenceSchema,
    scoring: numberScoringSchema,
    value: numberValueSchema,
  },
  digit_sequence: {
    content: digitSequenceContentSchema,
    reference: digitSequenceReferenceSchema,
    scoring: digitSequenceScoringSchema,
    value: digitSequenceValueSchema,
  },
  ordering: {
    content: orderingContentSchema,
    reference: orderingReferenceSchema,
    scoring: orderingScoringSchema,
    value: orderingValueSchema,
  },
  matching: {
    content: matchingContentSchema,
    reference: matchingReferenceSchema,
    scoring: matchingScoringSchema,
    value: matchingValueSchema,
  },
  cloze: {
    content: clozeContentSchema,
    reference: clozeReferenceSchema,
    scoring: clozeScoringSchema,
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
} as const satisfies Record<
  AnswerType,
  { content: z.ZodType; reference: z.ZodType; scoring: z.ZodType; value: z.ZodType }
>;

type TaskSchemas = typeof TASK_SCHEMAS;
export type TaskContent<T extends AnswerType = AnswerType> = z.output<TaskSchemas[T]['content']>;
export type TaskReference<T extends AnswerType = AnswerType> = z.output<TaskSchemas[T]['reference']>;
export type TaskScoring<T extends AnswerType = AnswerType> = z.output<TaskSchemas[T]['scoring']>;
export type AnswerValue<T extends AnswerType = AnswerType> = z.output<TaskSchemas[T]['value']>;

export const contentSchemaFor = <T extends AnswerType>(type: T): TaskSchemas[T]['content'] =>
  TASK_SCHEMAS[type].content;
export const referenceSchemaFor = <T extends AnswerType>(type: T): TaskSchemas[T]['reference'] =>
  TASK_SCHEMAS[type].reference;
export const scoringSchemaFor = <T extends AnswerType>(type: T): TaskSchemas[T]['scoring'] =>
  TASK_SCHEMAS[type].scoring;
/** The shape of `value` in saveanswer for a task of this answer type. */
export const answerValueSchemaFor = <T extends AnswerType>(type: T): TaskSchemas[T]['value'] =>
  TASK_SCHEMAS[type].value;

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

/** Gap ids in the order the `{{id}}` placeholders appear in a cloze task's html. */
export function clozePlaceholders(html: string): string[] {
  return [...html.matchAll(/\{\{([A-Za-z0-9_-]{1,32})\}\}/g)].map((m) => m[1]!);
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && new Set(a).size === a.length && a.every((x) => b.includes(x));

/**
 * A whole task definition (everything but the html), checked for consistency: the key only names
 * ids the content has, a partial-credit map covers the options, rubrics add up to maxScore.
 */
export const taskDefinitionSchema = z
  .discriminatedUnion('answerType', [
    z.object({
      answerType: z.literal('single_choice'),
      content: TASK_SCHEMAS.single_choice.content,
      reference: TASK_SCHEMAS.single_choice.reference,
      scoring: TASK_SCHEMAS.single_choice.scoring,
      maxScore: maxScoreSchema,
      criteria: criteriaSchema,
    }),
    z.object({
      answerType: z.literal('multiple_choice'),
      content: TASK_SCHEMAS.multiple_choice.content,
      reference: TASK_SCHEMAS.multiple_choice.reference,
      scoring: TASK_SCHEMAS.multiple_choice.scoring,
      maxScore: maxScoreSchema,
      criteria: criteriaSchema,
    }),
    z.object({
      answerType: z.literal('short_text'),
      content: TASK_SCHEMAS.short_text.content,
      reference: TASK_SCHEMAS.short_text.reference,
      scoring: TASK_SCHEMAS.short_text.scoring,
      maxScore: maxScoreSchema,
      criteria: criteriaSchema,
    }),
    z.object({
      answerType: z.literal('number'),
      content: TASK_SCHEMAS.number.content,
      reference: TASK_SCHEMAS.number.reference,
      scoring: TASK_SCHEMAS.number.scoring,
      maxScore: maxScoreSchema,
      criteria: criteriaSchema,
    }),
    z.object({
      answerType: z.literal('digit_sequence'),
      content: TASK_SCHEMAS.digit_sequence.content,
      reference: TASK_SCHEMAS.digit_sequence.reference,
      scoring: TASK_SCHEMAS.digit_sequence.scoring,
      maxScore: maxScoreSchema,
      criteria: criteriaSchema,
    }),
    z.object({
      answerType: z.literal('ordering'),
      content: TASK_SCHEMAS.ordering.content,
      reference: TASK_SCHEMAS.ordering.reference,
      scoring: TASK_SCHEMAS.ordering.scoring,
      maxScore: maxScoreSchema,
      criteria: criteriaSchema,
    }),
    z.object({
      answerType: z.literal('matching'),
      content: TASK_SCHEMAS.matching.content,
      reference: TASK_SCHEMAS.matching.reference,
      scoring: TASK_SCHEMAS.matching.scoring,
      maxScore: maxScoreSchema,
      criteria: criteriaSchema,
    }),
    z.object({
      answerType: z.literal('cloze'),
      content: TASK_SCHEMAS.cloze.content,
      reference: TASK_SCHEMAS.cloze.reference,
      scoring: TASK_SCHEMAS.cloze.scoring,
      maxScore: maxScoreSchema,
      criteria: criteriaSchema,
    }),
    z.object({
      answerType: z.literal('extended_text'),
      content: TASK_SCHEMAS.extended_text.content,
      reference: TASK_SCHEMAS.extended_text.reference,
      scoring: TASK_SCHEMAS.extended_text.scoring,
      maxScore: maxScoreSchema,
      criteria: criteriaSchema,
    }),
    z.object({
      answerType: z.literal('file'),
      content: TASK_SCHEMAS.file.content,
      reference: TASK_SCHEMAS.file.reference,
      scoring: TASK_SCHEMAS.file.scoring,
      maxScore: maxScoreSchema,
      criteria: criteriaSchema,
    }),
  ])
  .superRefine((task, ctx) => {
    const problem = (path: (string | number)[], message: string) =>
      ctx.addIssue({ code: 'custom', path, message });
    const ids = (list: readonly { id: string }[]) => list.map((x) => x.id);
    const usesWholeMistakes =
      'method' in task.scoring &&
      (task.scoring.method === 'one_mistake' || task.scoring.method === 'per_pair');
    if (usesWholeMistakes && !Number.isInteger(task.maxScore))
      problem(['maxScore'], 'must be a whole number for this scoring method');

    switch (task.answerType) {
      case 'single_choice':
        if (!ids(task.content.options).includes(task.reference.correct))
          problem(['reference', 'correct'], 'not an option id');
        if (task.scoring.map && !sameSet(Object.keys(task.scoring.map), ids(task.content.options)))
          problem(['scoring', 'map'], 'must give points for every option');
        break;
      case 'short_text':
        if (task.scoring.method === 'per_answer' && !task.reference.answers)
          problem(['reference', 'answers'], 'per_answer needs scored answers');
        break;
      case 'number':
        if (task.scoring.method === 'per_answer' && !task.reference.answers)
          problem(['reference', 'answers'], 'per_answer needs scored answers');
        break;
      case 'multiple_choice': {
        const options = ids(task.content.options);
        if (task.reference.correct.some((id) => !options.includes(id)))
          problem(['reference', 'correct'], 'not an option id');
        if (task.scoring.map && !sameSet(Object.keys(task.scoring.map), options))
          problem(['scoring', 'map'], 'must give points for every option');
        break;
      }
      case 'digit_sequence':
        if (task.content.length !== undefined && task.content.length !== task.reference.digits.length)
          problem(['content', 'length'], 'differs from the length of the key');
        break;
      case 'ordering':
        if (!sameSet(task.reference.order, ids(task.content.items)))
          problem(['reference', 'order'], 'must list every item exactly once');
        break;
      case 'matching': {
        const right = ids(task.content.right);
        if (!sameSet(Object.keys(task.reference.pairs), ids(task.content.left)))
          problem(['reference', 'pairs'], 'must match every left item');
        if (Object.values(task.reference.pairs).some((id) => !right.includes(id)))
          problem(['reference', 'pairs'], 'not a right item id');
        break;
      }
      case 'cloze': {
        if (!sameSet(Object.keys(task.reference.blanks), ids(task.content.blanks)))
          problem(['reference', 'blanks'], 'must give accepted values for every blank');
        const scored = task.reference.scored;
        if (
          task.scoring.method === 'weighted' &&
          (!scored || !sameSet(Object.keys(scored), ids(task.content.blanks)))
        )
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
    }
  })
  .describe('A task definition: answer type, content, key, scoring rule, max score, rubric');
export type TaskDefinition = z.output<typeof taskDefinitionSchema>;
export type TaskDefinitionInput = z.input<typeof taskDefinitionSchema>;
