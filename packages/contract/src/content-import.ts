import { z } from 'zod';
import { errorCodeSchema } from './errors.js';
import { idParamSchema } from './user.js';

/*
 * Content import and export (issue 11): tasks and tests come in as a QTI 2.1/2.2/3.0 package, a
 * Moodle XML file or a GIFT file, through a queue item of type `import`; a subject test goes out as
 * a QTI 3.0 package. Shapes of POST /api/admin/content/import, GET /api/admin/content/import/{importId}
 * and GET /api/admin/content/subjectTests/{id}/export.
 */

/** Largest file `POST /api/admin/content/import` accepts. */
export const CONTENT_IMPORT_MAX_BYTES = 50 * 1024 * 1024;

/** Kinds of file the import reads, by extension. */
export const CONTENT_IMPORT_EXTENSIONS = ['zip', 'xml', 'gift', 'txt'] as const;

/**
 * The multipart form of `POST /api/admin/content/import` (documentation and the server's check of
 * the text field): `subjectId` first (optional), then the one `file`.
 */
export const contentImportFormSchema = z
  .strictObject({
    subjectId: idParamSchema
      .optional()
      .describe(
        'the subject whose task pool receives the tasks; absent: a subject named after the top category or the file',
      ),
  })
  .describe(
    'Form fields before the file part `file` (.zip QTI package, .xml Moodle XML or QTI item, .gift/.txt GIFT)',
  )
  .meta({ id: 'ContentImportForm' });
export type ContentImportForm = z.infer<typeof contentImportFormSchema>;

/** `202` of `POST /api/admin/content/import`: the queue item to poll. */
export const contentImportQueuedSchema = z
  .strictObject({
    importId: z
      .number()
      .int()
      .positive()
      .describe('the queue item (type `import`); poll GET .../import/{importId}'),
  })
  .meta({ id: 'ContentImportQueued' });
export type ContentImportQueued = z.infer<typeof contentImportQueuedSchema>;

export const contentImportParamsSchema = z.strictObject({ importId: idParamSchema });

export const CONTENT_IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const CONTENT_IMPORT_OUTCOMES = ['imported', 'converted', 'refused'] as const;

/**
 * The notes of an import report as codes (issue 11): what an item lost or why it was refused, one
 * code per kind of note with the names of its params. The server writes each note's English text
 * from its code and params (`notes`), and the same note as `{ code, params }` (`noteCodes`); an
 * interface shows `noteCodes` in its own language. A code may be added in a later version: an
 * interface that does not know it shows the English text. Params named `details` are technical
 * (English, for developers): a translation may leave them out.
 */
/**
 * The words a note's `what` param may be (task_too_few…, task_invalid): a field of a task as its
 * author knows it, which an interface says in its own language.
 */
export const IMPORT_NOTE_FIELDS = [
  'choices',
  'items',
  'gaps',
  'words',
  'pairs',
  'left_column',
  'right_column',
  'parts',
  'accepted_answers',
  'answers',
  'criteria',
  'full_marks',
  'text',
  'scoring',
  'key',
  'task',
] as const;
export type ImportNoteField = (typeof IMPORT_NOTE_FIELDS)[number];

/**
 * The words a note's `problem` param may be (task_invalid, qti_task_invalid, qti_rp_invalid): what
 * is wrong with the field `what`, said by an interface in its own language. The schema's own
 * messages never reach the report (issue 27, defect 7g).
 */
export const IMPORT_NOTE_PROBLEMS = [
  'missing',
  'wrong_kind',
  'value_not_allowed',
  'repeated',
  'too_small',
  'too_big',
  'wrong_form',
  'inconsistent',
] as const;
export type ImportNoteProblem = (typeof IMPORT_NOTE_PROBLEMS)[number];

export const IMPORT_NOTE_PARAMS = {
  // Any file: the report's own checks.
  unclassified: ['text'],
  not_an_item: [],
  duplicate_id: [],
  refused_without_reason: [],
  task_missing: [],
  question_text_missing: [],
  question_text_too_long: ['max'],
  question_text_not_allowed: [],
  task_invalid: ['what', 'problem'],
  // A task's schema issue in the author's words: `what` is one of TASK_FIELD_WORDS (translated).
  task_key_wrong: [],
  task_full_marks_range: [],
  task_too_few: ['what', 'min'],
  task_too_many: ['what', 'max'],
  task_too_long: ['what', 'max'],
  task_empty: ['what'],
  media_missing: ['ref'],
  media_empty: ['name'],
  media_too_large: ['name', 'mb'],
  media_svg_unreadable: ['name'],
  media_type_not_kept: ['name'],
  // Moodle XML and GIFT.
  feedback_dropped: [],
  hints_dropped: [],
  penalty_ignored: [],
  essay_one_criterion: ['points'],
  description_no_question: [],
  duplicate_name: ['name'],
  grade_not_positive: ['grade'],
  grade_too_high: ['grade'],
  choices_too_few: [],
  choices_too_many: ['count'],
  choices_no_marks: [],
  answers_none: [],
  answers_too_many: ['count'],
  answer_too_long: ['max'],
  answers_no_marks: [],
  // Questions Moodle itself refuses to save (its edit forms' checks): full marks out of reach.
  full_marks_unreachable: ['best'],
  choices_sum_short: ['sum'],
  numeric_answers_none: [],
  answer_not_number: ['answer'],
  matching_no_pairs: [],
  matching_too_many_stems: ['count'],
  matching_too_many_answers: ['count'],
  essay_grade_fractional: ['grade'],
  media_not_in_file: ['name'],
  picture_not_in_file: ['name'],
  truefalse_answer_count: [],
  truefalse_no_correct: [],
  units_dropped: ['units'],
  unit_penalty_ignored: [],
  unit_too_long: ['max'],
  essay_word_limits_dropped: [],
  essay_template_dropped: [],
  essay_attachments_dropped: [],
  essay_file_types_dropped: ['types'],
  essay_any_file: [],
  gaps_none: [],
  gaps_too_many: ['count'],
  gap_no_choice: ['gap'],
  gap_choice_count: ['gap'],
  gap_choice_empty: ['gap'],
  gaps_not_shuffled: [],
  dragdrop_choice_count: [],
  choice_empty: [],
  choice_groups_dropped: [],
  ordering_partial_unsupported: ['grading'],
  ordering_subset_unsupported: [],
  ordering_item_count: [],
  qtype_random: ['qtype'],
  qtype_calculated: ['qtype'],
  qtype_unsupported: ['qtype'],
  // Moodle's embedded answers (cloze).
  cloze_no_gaps: [],
  cloze_composite_too_many_gaps: ['count'],
  cloze_no_marks: [],
  cloze_grade_too_high: ['grade'],
  cloze_feedback_dropped: [],
  cloze_dropdown_as_list: ['gap'],
  cloze_buttons_as_dropdown: ['gap', 'layout'],
  cloze_gap_not_shuffled: ['gap'],
  cloze_gap_no_marks: ['gap'],
  cloze_gap_too_many_answers: ['gap'],
  cloze_gap_answer_length: ['gap', 'max'],
  cloze_gap_not_number: ['gap'],
  cloze_gap_numeric_none: ['gap'],
  cloze_gap_answers_too_many: ['gap', 'count'],
  cloze_gap_dropdown_too_few: ['gap'],
  cloze_gap_dropdown_too_many: ['gap'],
  cloze_gap_choice_empty: ['gap'],
  cloze_gap_zero_weight: ['gap'],
  cloze_gap_choice_count: ['gap'],
  cloze_gap_negative_choice: ['gap'],
  // GIFT.
  gift_braces: [],
  gift_choice_too_few: [],
  gift_matching_too_few: [],
  gift_matching_arrow: [],
  gift_short_none: [],
  gift_numerical_none: [],
  // QTI.
  qti_xml_malformed: ['details'],
  qti_file_encoding: ['encoding'],
  qti_not_item: ['element'],
  qti_map_entry_unreadable: ['response'],
  qti_area_map_entry_unreadable: ['response'],
  qti_cardinality_unknown: ['response', 'cardinality'],
  qti_base_type_unsupported: ['response', 'baseType'],
  qti_no_body: [],
  interaction_unsupported: ['name'],
  qti_no_interaction: [],
  qti_adaptive_unsupported: [],
  qti_template_processing_unsupported: [],
  qti_template_variables_dropped: [],
  qti_feedback_dropped: [],
  qti_stimulus_dropped: [],
  qti_response_undeclared: ['response', 'interaction'],
  qti_interaction_no_response: ['interaction'],
  qti_response_shared: [],
  qti_title_as_question: [],
  qti_task_invalid: ['what', 'problem'],
  qti_placeholders_wrong: ['details'],
  qti_expert_processing_dropped: [],
  qti_max_score_rounded: ['points'],
  qti_no_rubric: [],
  qti_several_expert_interactions: [],
  qti_no_processing: [],
  qti_template_unknown: ['uri'],
  qti_rp_variable_attribute: ['operator', 'attribute'],
  qti_rp_weights_unsupported: [],
  qti_rp_tolerance_unreadable: [],
  qti_rp_coords_unreadable: [],
  qti_rp_condition_missing: ['element'],
  qti_rp_if_missing: [],
  qti_rp_value_missing: [],
  qti_template_response_missing: ['template'],
  qti_template_file_read: ['file'],
  operator_unsupported: ['names'],
  qti_rp_template_variable: ['id'],
  qti_outcome_type_unsupported: ['id', 'baseType'],
  qti_rp_builtin_variable: ['id'],
  qti_rp_undeclared_variable: ['id'],
  qti_too_many_declarations: [],
  qti_rp_invalid: ['what', 'problem'],
  qti_key_missing_part: ['response'],
  qti_key_missing: ['responses'],
  qti_max_score_from_key: ['points'],
  qti_max_score_from_rules: ['points'],
  qti_max_score_unknown: [],
  // Full marks not derived: the task is held out of the file's test until an admin gives them.
  qti_max_score_needed: [],
  full_marks_given: ['points'],
  qti_max_score_too_high: ['points'],
  qti_media_outside_package: [],
  qti_rubric_as_solution: ['views'],
  qti_printed_variables_dropped: [],
  qti_template_blocks_dropped: [],
  qti_xinclude_dropped: [],
  qti_info_controls_dropped: [],
  qti_audio_video_links: [],
  qti_objects_links: [],
  shuffle_fixed_choices: [],
  qti_order_subset_unsupported: [],
  qti_match_sets: [],
  qti_match_several_targets: [],
  qti_match_max_dropped: [],
  qti_max_associations_dropped: ['max'],
  qti_gap_match_part_marks: [],
  qti_hottext_part_choices: [],
  qti_graphic_no_image: [],
  qti_graphic_image_missing: [],
  qti_image_size_from_areas: [],
  qti_hotspot_coords: [],
  qti_select_point_areas: [],
  qti_text_entry_pattern_dropped: [],
  qti_inline_choice_no_shuffle: [],
  qti_extended_text_multiple: [],
  qti_extended_text_pattern_dropped: [],
  qti_graphic_order_labels: [],
  qti_slider_as_number: [],
} as const satisfies Record<string, readonly string[]>;

/** A code of an import note (`noteCodes[].code`). */
export type ImportNoteCode = keyof typeof IMPORT_NOTE_PARAMS;
/** Every code the server writes; an interface has a text for each (a newer server may add some). */
export const IMPORT_NOTE_CODES = Object.keys(IMPORT_NOTE_PARAMS) as ImportNoteCode[];
/** A param's value: a text as written in the source (an identifier, a file name…) or a number. */
export type ImportNoteValue = string | number;
/** The params of a code, by name. */
export type ImportNoteParams<C extends ImportNoteCode> = {
  [K in (typeof IMPORT_NOTE_PARAMS)[C][number]]: ImportNoteValue;
};

const noteCodeList = Object.entries(IMPORT_NOTE_PARAMS)
  .map(([code, params]) => (params.length ? `${code} {${params.join(', ')}}` : code))
  .join(', ');

/** One note of an item as a code: `notes[i]` of the same item is its English text. */
export const contentImportNoteSchema = z
  .strictObject({
    code: z
      .string()
      .describe(
        'what the note says, as a stable code; a code not known to the reader (added later) is shown by ' +
          `its English text (notes[i]). Codes {params}: ${noteCodeList}`,
      ),
    params: z
      .record(z.string(), z.union([z.string(), z.number()]))
      .optional()
      .describe(
        'the values the text names (identifiers, file names, counts, points), by the names the code lists; ' +
          'absent for a code without params. `details` is technical English',
      ),
  })
  .meta({ id: 'ContentImportNote' });
export type ContentImportNote = z.infer<typeof contentImportNoteSchema>;

/** What became of one item of the source. */
export const contentImportItemSchema = z
  .strictObject({
    sourceId: z
      .string()
      .describe(
        'its identifier in the source (QTI identifier, Moodle question, GIFT title); two files of a package may share one',
      ),
    file: z
      .string()
      .optional()
      .describe('the file of the package the item was read from (a QTI resource); absent for a single file'),
    title: z.string(),
    taskId: z.number().int().nullable().describe('the task created; null when refused'),
    answerType: z.string().nullable().describe('the answer type it was mapped to; null when refused'),
    outcome: z
      .enum(CONTENT_IMPORT_OUTCOMES)
      .describe('imported: as written; converted: with losses (see notes); refused: not created (see notes)'),
    fullMarksNeeded: z
      .boolean()
      .optional()
      .describe(
        "true: the importer could not derive the full marks from the item's rules; the task is created " +
          "but held out of the file's test until an admin gives them (POST …/import/{importId}/fullMarks)",
      ),
    notes: z.array(z.string()).describe('what was lost or changed, or why it was refused (English)'),
    noteCodes: z
      .array(contentImportNoteSchema)
      .describe(
        'the same notes as codes with their params, in the same order (noteCodes[i] is notes[i]): an ' +
          'interface shows them in its own language',
      ),
  })
  .meta({ id: 'ContentImportItem' });
export type ContentImportItem = z.infer<typeof contentImportItemSchema>;

/** `GET /api/admin/content/import/{importId}`. */
export const contentImportStatusSchema = z
  .strictObject({
    status: z.enum(CONTENT_IMPORT_STATUSES),
    error: z
      .strictObject({
        code: errorCodeSchema,
        message: z.string().describe('for developers (English); interfaces show a text chosen by `code`'),
      })
      .optional()
      .describe('why the import failed (or why its last attempt failed, while a retry is queued)'),
    items: z
      .array(contentImportItemSchema)
      .describe('one per source item, in source order; empty until done'),
    subjectTestIds: z
      .array(z.number().int())
      .describe('the subject tests (drafts) created from the tests of the file; empty until done'),
  })
  .meta({ id: 'ContentImportStatus' });
export type ContentImportStatus = z.infer<typeof contentImportStatusSchema>;

/** `POST /api/admin/content/import/{importId}/fullMarks`: the full marks of a held task of the report. */
export const contentImportFullMarksBodySchema = z
  .strictObject({
    taskId: z.number().int().positive().describe('the task of a report item with fullMarksNeeded'),
    maxScore: z
      .number()
      .finite()
      .gt(0)
      .max(100)
      .multipleOf(0.01)
      .describe('its full marks, more than 0 and at most 100 points'),
  })
  .meta({ id: 'ContentImportFullMarks' });
export type ContentImportFullMarks = z.infer<typeof contentImportFullMarksBodySchema>;

export const CONTENT_EXPORT_FORMATS = ['qti3'] as const;

/** `GET /api/admin/content/subjectTests/{id}/export` query. */
export const contentExportQuerySchema = z.strictObject({
  format: z
    .enum(CONTENT_EXPORT_FORMATS)
    .default('qti3')
    .describe('qti3: an IMS QTI 3.0 content package (zip)'),
});
export type ContentExportQuery = z.infer<typeof contentExportQuerySchema>;
