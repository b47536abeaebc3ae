import {
  IMPORT_NOTE_CODES,
  IMPORT_NOTE_PARAMS,
  type ContentImportNote,
  type ImportNoteCode,
  type ImportNoteParams,
  type ImportNoteProblem,
  type ImportNoteValue,
} from '@attesta/contract';

/*
 * The notes of the content import (issue 11): what an item lost on the way, said in passing, or why
 * it was refused. Every note is made by `note(code, params)`, which writes both its code entry (the
 * report's `noteCodes`, shown by interfaces in their language) and its English text (the report's
 * `notes`, for other systems) from this one table, so the two cannot say different things. The
 * codes and their params are the contract's (IMPORT_NOTE_PARAMS); a code without a text here, or a
 * text without a code there, does not compile.
 */

/** A note of an item: its code, its params and its English text made of them. */
export interface ImportNote {
  code: ImportNoteCode;
  params?: Record<string, ImportNoteValue>;
  text: string;
}

type Texts = { [C in ImportNoteCode]: (p: ImportNoteParams<C>) => string };

const RP = 'response processing: ';
/** The English of a task field's word (task-issues.ts). */
const FIELD: Record<string, string> = {
  choices: 'choices',
  items: 'items',
  gaps: 'gaps',
  words: 'words',
  pairs: 'pairs',
  left_column: 'left column',
  right_column: 'right column',
  parts: 'parts',
  accepted_answers: 'accepted answers',
  answers: 'answers',
  criteria: 'criteria',
  full_marks: 'full marks',
  text: 'text',
  scoring: 'scoring',
  key: 'correct answer',
  task: 'task',
};
/** The English of what is wrong with a field (task-issues.ts problemWord). */
const PROBLEM: Record<ImportNoteProblem, string> = {
  missing: 'missing',
  wrong_kind: 'of the wrong kind',
  value_not_allowed: 'a value this kind of question does not allow',
  repeated: 'one identifier used twice',
  too_small: 'below the smallest value allowed',
  too_big: 'above the largest value allowed',
  wrong_form: 'not written in the form expected',
  inconsistent: 'does not agree with the rest of the question',
};
/** "(choices: one identifier used twice)": a field's word and its problem word in English. */
const wrong = (p: { what: ImportNoteValue; problem: ImportNoteValue }) =>
  `(${FIELD[String(p.what)] ?? p.what}: ${PROBLEM[p.problem as ImportNoteProblem] ?? p.problem})`;
const VARIABLE_ATTRIBUTE: Record<string, string> = {
  tolerance: 'a tolerance',
  figures: 'the figures',
  pattern: 'a pattern',
  'min/max': 'min or max',
};

/** The English text of every code (short; shown to the admin as it is in the English report). */
const TEXTS: Texts = {
  unclassified: (p) => String(p.text),
  not_an_item: () => 'not an item',
  duplicate_id: () => 'another item of the file has the same identifier',
  refused_without_reason: () => 'refused by the parser',
  task_missing: () => 'no task could be made of this item',
  question_text_missing: () => 'the item has no question text',
  question_text_too_long: (p) => `the question text is longer than ${p.max} characters`,
  question_text_not_allowed: () => 'nothing of the question text is allowed html',
  task_invalid: (p) => `the task does not fit the model ${wrong(p)}`,
  task_key_wrong: () =>
    'the correct answer does not fit the question: it is missing or names a choice, item or gap the question does not have',
  task_full_marks_range: () => 'the full marks must be more than 0 and at most 100 points',
  task_too_few: (p) => `too few ${FIELD[String(p.what)] ?? p.what}: at least ${p.min} are needed`,
  task_too_many: (p) => `too many ${FIELD[String(p.what)] ?? p.what}: at most ${p.max} are allowed`,
  task_too_long: (p) => `the ${FIELD[String(p.what)] ?? p.what} is too long: at most ${p.max} characters`,
  task_empty: (p) => `the ${FIELD[String(p.what)] ?? p.what} is empty`,
  media_missing: (p) => `media left out: ${p.ref}: not found in the package`,
  media_empty: (p) => `media left out: ${p.name}: empty file`,
  media_too_large: (p) => `media left out: ${p.name}: larger than ${p.mb} MB`,
  media_svg_unreadable: (p) => `media left out: ${p.name}: not a readable SVG image`,
  media_type_not_kept: (p) =>
    `media left out: ${p.name}: only images (png, jpeg, gif, webp, svg), PDF and html are kept`,

  feedback_dropped: () => 'feedback to participants dropped (Attesta shows no answer feedback)',
  hints_dropped: () => 'hints dropped (Attesta has no retries)',
  penalty_ignored: () => 'penalty for wrong tries ignored (Attesta has no retries)',
  essay_one_criterion: (p) =>
    `essay graded by experts with one rubric criterion worth the whole grade of ${p.points} (Moodle grades an essay as a whole)`,
  description_no_question: () => 'description carries no question',
  duplicate_name: (p) => `another question of the file has the same name: identified as "${p.name}"`,
  grade_not_positive: (p) => `the question's grade is ${p.grade}: a task needs a positive maximum score`,
  grade_too_high: (p) => `the question's grade is ${p.grade}: a task may give at most 100 points`,
  choices_too_few: () => 'a choice question needs at least two choices',
  choices_too_many: (p) => `the question has ${p.count} choices: a task may have at most 26`,
  choices_no_marks: () => 'no choice gives any marks',
  answers_none: () => 'the question has no answers',
  answers_too_many: (p) => `the question has ${p.count} answers: a task may list at most 50`,
  answer_too_long: (p) => `an answer is longer than ${p.max} characters`,
  answers_no_marks: () => 'no answer gives any marks',
  full_marks_unreachable: (p) =>
    `no answer gives full marks: the best gives ${p.best} % of them (Moodle refuses to save such a question; make one answer worth 100 % and import it again)`,
  choices_sum_short: (p) =>
    `the right choices together give ${p.sum} % of full marks, not 100 % (Moodle refuses to save such a question; make their percentages add up to 100 and import it again)`,
  numeric_answers_none: () => 'the question has no numeric answers',
  answer_not_number: (p) => `the answer "${p.answer}" is not a number`,
  matching_no_pairs: () => 'a matching question needs at least one question with an answer',
  matching_too_many_stems: (p) =>
    `the question has ${p.count} questions to match: a task may have at most 20`,
  matching_too_many_answers: (p) =>
    `the question has ${p.count} answers to match: a task may have at most 26`,
  essay_grade_fractional: (p) => `the essay's grade is ${p.grade}: expert-graded tasks give whole points`,
  media_not_in_file: (p) => `${p.name} is referred to but not included in the file: left out`,
  picture_not_in_file: (p) => `the picture ${p.name} is not included in the file: left out`,
  truefalse_answer_count: () => 'a true/false question needs exactly two answers',
  truefalse_no_correct: () => 'neither answer is the correct one',
  units_dropped: (p) =>
    `only the base unit is accepted: other units and their multipliers dropped (${p.units})`,
  unit_penalty_ignored: () => 'the penalty for a wrong unit is not applied',
  unit_too_long: (p) => `the unit is longer than ${p.max} characters`,
  essay_word_limits_dropped: () => 'word limits dropped',
  essay_template_dropped: () => 'response template dropped',
  essay_attachments_dropped: () => 'attachments dropped: the answer is the written text only',
  essay_file_types_dropped: (p) => `file types not accepted here: ${p.types}`,
  essay_any_file: () => 'Moodle accepted any file: photos and PDF accepted here',
  gaps_none: () => 'the question has no [[n]] gaps',
  gaps_too_many: (p) => `the question has ${p.count} gaps: a task may have at most 50`,
  gap_no_choice: (p) => `gap ${p.gap} names no choice`,
  gap_choice_count: (p) => `gap ${p.gap} needs 2 to 26 choices`,
  gap_choice_empty: (p) => `a choice of gap ${p.gap} has no text`,
  gaps_not_shuffled: () => 'the choices of each gap are shown in the order written, not shuffled',
  dragdrop_choice_count: () => 'a drag-and-drop question needs 1 to 50 choices',
  choice_empty: () => 'a choice has no text',
  choice_groups_dropped: () => 'choice groups dropped: any choice may be dropped into any gap',
  ordering_partial_unsupported: (p) => `ordering graded by ${p.grading} (partial marks) is not supported`,
  ordering_subset_unsupported: () => 'ordering of a random subset of the items is not supported',
  ordering_item_count: () => 'an ordering question needs 2 to 20 items',
  qtype_random: (p) => `Moodle question type "${p.qtype}" draws questions at attempt time: not supported`,
  qtype_calculated: (p) =>
    `Moodle question type "${p.qtype}" computes its answers from random values: not supported`,
  qtype_unsupported: (p) => `Moodle question type "${p.qtype}" is not supported`,

  cloze_no_gaps: () => 'the cloze question has no embedded answers',
  cloze_composite_too_many_gaps: (p) =>
    `the question has ${p.count} gaps: a task with several kinds of answers may have at most 20`,
  cloze_no_marks: () => 'the gaps of the question are worth no marks',
  cloze_grade_too_high: (p) => `the gaps are worth ${p.grade} marks: a task may give at most 100 points`,
  cloze_feedback_dropped: () => 'feedback of the gaps dropped (Attesta shows no answer feedback)',
  cloze_dropdown_as_list: (p) => `gap ${p.gap}: its drop-down is shown as a list of choices`,
  cloze_buttons_as_dropdown: (p) =>
    `gap ${p.gap}: its choices are shown as a drop-down instead of ${p.layout} buttons`,
  cloze_gap_not_shuffled: (p) => `gap ${p.gap}: its choices are shown in the order written, not shuffled`,
  cloze_gap_no_marks: (p) => `gap ${p.gap}: no answer gives any marks`,
  cloze_gap_too_many_answers: (p) => `gap ${p.gap}: more than 50 answers`,
  cloze_gap_answer_length: (p) => `gap ${p.gap}: an answer is empty or longer than ${p.max} characters`,
  cloze_gap_not_number: (p) => `gap ${p.gap}: an answer is not a number`,
  cloze_gap_numeric_none: (p) => `gap ${p.gap}: the question has no numeric answers`,
  cloze_gap_answers_too_many: (p) =>
    `gap ${p.gap}: the question has ${p.count} answers: a task may list at most 50`,
  cloze_gap_dropdown_too_few: (p) => `gap ${p.gap}: a drop-down needs at least two choices`,
  cloze_gap_dropdown_too_many: (p) => `gap ${p.gap}: a drop-down may have at most 26 choices`,
  cloze_gap_choice_empty: (p) => `gap ${p.gap}: a choice has no text`,
  cloze_gap_zero_weight: (p) => `gap ${p.gap} is worth no marks: a part of a task needs a positive score`,
  cloze_gap_choice_count: (p) => `gap ${p.gap}: a choice needs 2 to 26 options`,
  cloze_gap_negative_choice: (p) =>
    `gap ${p.gap}: a negative choice takes marks from its own gap only, not from the other gaps`,

  gift_braces: () => 'the braces { } of the answers do not match',
  gift_choice_too_few: () => 'a multiple-choice question needs at least two answers',
  gift_matching_too_few: () => 'a matching question needs at least two pairs',
  gift_matching_arrow: () => 'a matching answer has no ->',
  gift_short_none: () => 'a short-answer question needs an answer',
  gift_numerical_none: () => 'a numerical question needs an answer',

  qti_xml_malformed: (p) => `the file is not well-formed XML: ${p.details}`,
  qti_file_encoding: (p) =>
    `the file's text cannot be read in its encoding ${p.encoding} (unknown, or bytes not valid in it): the file was skipped`,
  qti_not_item: (p) => `not a QTI item (${p.element})`,
  qti_map_entry_unreadable: (p) => `${p.response}: a map entry without a numeric mapped value`,
  qti_area_map_entry_unreadable: (p) =>
    `${p.response}: an area map entry whose shape, coords or value cannot be read`,
  qti_cardinality_unknown: (p) => `${p.response}: unknown cardinality ${p.cardinality}`,
  qti_base_type_unsupported: (p) => `${p.response}: responses of base type ${p.baseType} are not supported`,
  qti_no_body: () => 'the item has no body',
  interaction_unsupported: (p) => `unsupported interaction: ${p.name}`,
  qti_no_interaction: () => 'the item has no interaction: nothing to answer',
  qti_adaptive_unsupported: () =>
    'adaptive items (several attempts with feedback between them) are not supported',
  qti_template_processing_unsupported: () =>
    'template processing (cloned items with random values) is not supported',
  qti_template_variables_dropped: () => 'template variables dropped (the item has no template processing)',
  qti_feedback_dropped: () => 'feedback (modalFeedback, feedbackBlock, feedbackInline) dropped',
  qti_stimulus_dropped: () => 'shared stimuli (assessmentStimulusRef) dropped',
  qti_response_undeclared: (p) => `the response ${p.response} of a ${p.interaction} is not declared`,
  qti_interaction_no_response: (p) => `the response (none) of a ${p.interaction} is not declared`,
  qti_response_shared: () => 'two interactions share one response',
  qti_title_as_question: () => 'the item body has no text of its own: the title is the question',
  qti_task_invalid: (p) => `the task does not fit the model ${wrong(p)}`,
  qti_placeholders_wrong: (p) => `the task html is wrong: ${p.details}`,
  qti_expert_processing_dropped: () => 'the response processing of a human-scored item dropped',
  qti_max_score_rounded: (p) => `full marks rounded to ${p.points} (expert criteria are whole points)`,
  qti_no_rubric: () => 'no scoring rubric in the item: one criterion for the whole answer',
  qti_several_expert_interactions: () =>
    'several human-scored interactions and nothing scored automatically: not in the task model',
  qti_no_processing: () => 'the item has no response processing: there is no way to score it',
  qti_template_unknown: (p) => `unknown response processing template ${p.uri}`,
  qti_rp_variable_attribute: (p) =>
    `${RP}${p.operator}: ${VARIABLE_ATTRIBUTE[p.attribute] ?? p.attribute} given by a variable is not supported`,
  qti_rp_weights_unsupported: () => `${RP}variable: weights of test variables are not supported`,
  qti_rp_tolerance_unreadable: () => `${RP}equal: the tolerance cannot be read`,
  qti_rp_coords_unreadable: () => `${RP}inside: the coords cannot be read`,
  qti_rp_condition_missing: (p) => `${RP}${p.element} without a condition`,
  qti_rp_if_missing: () => `${RP}responseCondition without responseIf`,
  qti_rp_value_missing: () => `${RP}setOutcomeValue without a value`,
  qti_template_response_missing: (p) =>
    `the ${p.template} template scores RESPONSE, which the item does not declare`,
  qti_template_file_read: (p) => `response processing read from the template ${p.file}`,
  operator_unsupported: (p) => `unsupported QTI response processing: ${p.names}`,
  qti_rp_template_variable: (p) =>
    `the response processing uses the template variable ${p.id} (item cloning)`,
  qti_outcome_type_unsupported: (p) => `the outcome ${p.id} of base type ${p.baseType} is not supported`,
  qti_rp_builtin_variable: (p) => `the response processing uses the built-in variable ${p.id}`,
  qti_rp_undeclared_variable: (p) => `the response processing uses ${p.id}, which is not declared`,
  qti_too_many_declarations: () => 'more than 50 response or outcome declarations',
  qti_rp_invalid: (p) => `the response processing does not fit the model ${wrong(p)}`,
  qti_key_missing_part: (p) =>
    `no correct response for ${p.response}: the key shown after publication leaves it out`,
  qti_key_missing: (p) =>
    `no correct response or positive mapping for ${p.responses}: the key shown after publication cannot be made`,
  qti_max_score_from_key: (p) => `full marks ${p.points}: the score of the correct response`,
  qti_max_score_from_rules: (p) =>
    `full marks ${p.points}: the highest score the item's response processing can give`,
  qti_max_score_unknown: () =>
    'the full marks cannot be known (no mapping bound, normalMaximum, MAXSCORE or scoring correct response)',
  qti_max_score_needed: () =>
    'the full marks cannot be derived from the response processing: the task waits out of the test until you give them on this report',
  full_marks_given: (p) => `full marks ${p.points} given by an admin`,
  qti_max_score_too_high: (p) => `the item is worth ${p.points} points; at most 100 are allowed`,
  qti_media_outside_package: () => 'a media reference leaving the package was dropped',
  qti_rubric_as_solution: (p) => `a rubric block for ${p.views} kept as the solution`,
  qti_printed_variables_dropped: () => 'printed variables dropped',
  qti_template_blocks_dropped: () => 'template blocks and inlines dropped',
  qti_xinclude_dropped: () => 'XInclude references dropped',
  qti_info_controls_dropped: () => 'info controls (hidden hints) dropped',
  qti_audio_video_links: () => 'audio and video are shown as links',
  qti_objects_links: () => 'audio, video and other embedded objects are shown as links',
  shuffle_fixed_choices: () => 'shuffle turned off: the item fixes some choices in place',
  qti_order_subset_unsupported: () =>
    'an order interaction ordering only some of its choices (maxChoices) is not supported',
  qti_match_sets: () => 'a match interaction needs exactly two match sets',
  qti_match_several_targets: () =>
    'a match interaction whose correct response gives one source several targets is not in the task model (matching takes one target per source)',
  qti_match_max_dropped: () =>
    'each source of the match interaction takes one target here (QTI matchMax above 1)',
  qti_max_associations_dropped: (p) =>
    `the limit of ${p.max} associations is not kept: every source may be matched`,
  qti_gap_match_part_marks: () =>
    'the gaps of a gap match among other interactions are shown as numbered marks (the task model has no placeholders for the gaps of a part)',
  qti_hottext_part_choices: () =>
    'the spans of a hottext among other interactions are listed as choices (the task model has no placeholders for the spans of a part)',
  qti_graphic_no_image: () => 'a graphic interaction without its image',
  qti_graphic_image_missing: () => 'the image of a graphic interaction cannot be found',
  qti_image_size_from_areas: () => 'the image size is not known: taken from the areas',
  qti_hotspot_coords: () => 'hotspot coords that are not numbers (percentages?)',
  qti_select_point_areas: () =>
    'a select point interaction whose areas cannot be read from an areaMapping or inside expressions',
  qti_text_entry_pattern_dropped: () => 'the pattern mask of a text entry is not enforced',
  qti_inline_choice_no_shuffle: () => 'the options of a drop-down are shown in their order (no shuffle)',
  qti_extended_text_multiple: () => 'an extended text of several strings is answered as one text',
  qti_extended_text_pattern_dropped: () => 'the pattern mask of an extended text is not enforced',
  qti_graphic_order_labels: () =>
    'the areas of the picture are ordered by their labels (their positions on the picture are lost)',
  qti_slider_as_number: () => 'a slider is answered by typing the number',
};

/** The params of a code as `note` takes them: none for a code without params. */
type ParamsArg<C extends ImportNoteCode> = (typeof IMPORT_NOTE_PARAMS)[C] extends readonly []
  ? []
  : [params: ImportNoteParams<C>];

/** The English text of a code with its params (a param it names but lacks reads as empty). */
function textOf(code: ImportNoteCode, params: Record<string, ImportNoteValue>): string {
  const full: Record<string, ImportNoteValue> = {};
  for (const name of IMPORT_NOTE_PARAMS[code] as readonly string[]) full[name] = params[name] ?? '';
  return (TEXTS[code] as (p: Record<string, ImportNoteValue>) => string)(full);
}

/** A note: its code entry and its English text, made of the same code and params. */
export function note<C extends ImportNoteCode>(code: C, ...[params]: ParamsArg<C>): ImportNote {
  const values = (params ?? {}) as Record<string, ImportNoteValue>;
  const named = IMPORT_NOTE_PARAMS[code] as readonly string[];
  const kept = Object.fromEntries(named.flatMap((n) => (n in values ? [[n, values[n]!]] : [])));
  return {
    code,
    ...(named.length ? { params: kept } : {}),
    text: textOf(code, kept),
  };
}

const CODES = new Set<string>(IMPORT_NOTE_CODES);
export const isImportNoteCode = (code: unknown): code is ImportNoteCode =>
  typeof code === 'string' && CODES.has(code);

/**
 * A note from an untrusted source (a parser's output, a stored report) checked and written again:
 * a known code keeps its declared params (texts cleaned by `clean`, numbers finite) and gets its text
 * from the table; anything else (a bare string) is an `unclassified` note of that text.
 */
export function recheckNote(raw: unknown, clean: (text: string) => string): ImportNote | null {
  if (typeof raw === 'string') {
    const text = clean(raw);
    return text ? note('unclassified', { text }) : null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const { code, params } = raw as { code?: unknown; params?: unknown };
  if (!isImportNoteCode(code)) {
    const text = clean(String((raw as { text?: unknown }).text ?? ''));
    return text ? note('unclassified', { text }) : null;
  }
  const given = params && typeof params === 'object' ? (params as Record<string, unknown>) : {};
  const values: Record<string, ImportNoteValue> = {};
  for (const name of IMPORT_NOTE_PARAMS[code] as readonly string[]) {
    const v = given[name];
    if (typeof v === 'number' && Number.isFinite(v)) values[name] = v;
    else if (typeof v === 'string') values[name] = clean(v);
  }
  return (note as (c: ImportNoteCode, p?: Record<string, ImportNoteValue>) => ImportNote)(code, values);
}

/** The code entry of a note as the report has it (`noteCodes[i]`). */
export const noteCode = (n: ImportNote): ContentImportNote =>
  n.params && Object.keys(n.params).length ? { code: n.code, params: n.params } : { code: n.code };

/** Notes without repeats (the same text once), in order. */
export function uniqueNotes(notes: readonly ImportNote[]): ImportNote[] {
  const seen = new Set<string>();
  return notes.filter((n) => !seen.has(n.text) && !!seen.add(n.text));
}
