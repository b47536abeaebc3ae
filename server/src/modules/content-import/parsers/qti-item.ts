import {
  isManualAnswerType,
  placeholderProblems,
  qtiMaxScore,
  qtiRulesMaximum,
  qtiScoringSchema,
  taskDefinitionSchema,
  unsupportedQtiOperators,
  type QtiResponseDeclaration,
  type QtiScalar,
  type QtiScoring,
  type QtiSlot,
} from '@attesta/contract';
import {
  answerFromQti,
  bindResponses,
  compileQti,
  qtiCorrectAnswer,
  referenceFromAnswer,
  runQti,
} from '../../scoring/index.js';
import {
  BodyRenderer,
  buildInteraction,
  escText,
  IdAllocator,
  INLINE_KINDS,
  isInteraction,
  kindOf,
  MediaCollector,
  Notes,
  tidy,
  type Built,
  type InteractionKind,
} from './qti-body.js';
import { note, type ImportNote } from '../notes.js';
import { taskIssueNote } from '../task-issues.js';
import { nativeEquivalent } from './qti-native.js';
import { literalsOf, readDeclarations, readProcessing, renameIdentifiers } from './qti-rp.js';
import { attr, boolAttr, kid, kids, readQtiXml, textOf, type XElement } from './qti-xml.js';
import type { ParsedItem, ParsedTask, SafePackage, SourceFormat } from './types.js';

/*
 * One QTI item (assessmentItem, QTI 2.1/2.2/3.0) as a task of the model:
 * - the interactions decide the answer type: only inline ones (textEntry, inlineChoice) → `cloze`
 *   with a blank each; one other interaction → its type; several → `composite`, a part each;
 * - scoring is the item's own response processing (`method: 'qti'`): declarations, the template or
 *   the rules, the binding of the answer (or each blank/part) to its response, all with the
 *   choices' identifiers renamed to the task's ids; extended text and upload alone are graded by
 *   experts;
 * - maxScore is the item's own maximum (mapping upper bound, normalMaximum, 1 for match_correct —
 *   `qtiMaxScore`), else the MAXSCORE outcome's default, else the score of the correct response,
 *   else the highest score the rules can reach (`qtiRulesMaximum`: interval analysis of the rules);
 * - the reference (the key shown after publication) comes from the correct responses, or the best
 *   entries of the mappings.
 * Anything lost is a note (`converted`); what the model cannot hold refuses the item with the
 * reason. The task is checked with taskDefinitionSchema and placeholderProblems here, so a refusal
 * names the QTI reason rather than a schema path where possible.
 */

export interface ItemSource {
  root: XElement;
  format: SourceFormat;
  /** Path of the item file (in the package; the file name for a loose file). */
  path: string;
  pkg?: SafePackage;
}

export interface QtiItemResult {
  item: ParsedItem;
  /** QTI identifier of a choice (gap, span, area…) → its id in the task. */
  ids: ReadonlyMap<string, string>;
}

const MANUAL_KINDS: readonly InteractionKind[] = ['extendedText', 'upload'];
const BUILT_IN = new Set(['numAttempts', 'duration', 'completionStatus']);

type Json = Record<string, unknown>;

/** The rules of a standard template on another response than RESPONSE. */
function templateAsRules(template: string, id: string): Json[] {
  const response = { op: 'variable', id };
  const set = (value: Json) => ({ rule: 'setOutcomeValue', id: 'SCORE', value });
  const zero = set({ op: 'baseValue', baseType: 'float', value: '0' });
  if (template === 'match_correct')
    return [
      {
        rule: 'responseCondition',
        if: {
          cond: { op: 'match', args: [response, { op: 'correct', id }] },
          then: [set({ op: 'baseValue', baseType: 'float', value: '1' })],
        },
        else: [zero],
      },
    ];
  return [
    {
      rule: 'responseCondition',
      if: { cond: { op: 'isNull', args: [response] }, then: [zero] },
      else: [set({ op: template === 'map_response' ? 'mapResponse' : 'mapResponsePoint', id })],
    },
  ];
}

/** Every node of the rules (rules and expressions), depth first. */
function walk(node: unknown, visit: (n: Json) => void): void {
  if (Array.isArray(node)) node.forEach((n) => walk(n, visit));
  else if (node && typeof node === 'object') {
    visit(node as Json);
    for (const v of Object.values(node as Json)) walk(v, visit);
  }
}

/** The best values a response's mapping gives: the top entries of a single one, the positive ones of a container. */
function bestMapped(decl: QtiResponseDeclaration): QtiScalar[] | null {
  const entries = decl.mapping?.entries ?? [];
  const positive = entries.filter((e) => e.value > 0);
  if (!positive.length) return null;
  if (decl.cardinality !== 'single') return positive.map((e) => e.key);
  const top = Math.max(...positive.map((e) => e.value));
  return positive.filter((e) => e.value === top).map((e) => e.key);
}

interface Slot {
  /** Part or blank id ('' for a single interaction). */
  id: string;
  responseId: string;
  built: Built;
  kind: InteractionKind;
}

/** The key of one slot from its response's correct values (or best mapped values). */
function slotReference(
  slot: QtiSlot,
  content: unknown,
  decl: QtiResponseDeclaration,
  values: QtiScalar[],
): unknown {
  if (slot === 'short_text') return { accepted: values.map((v) => String(v).trim()).filter(Boolean) };
  if (slot === 'hotspot' && decl.baseType === 'point' && !decl.correct && decl.areaMapping) {
    const entries = decl.areaMapping.entries;
    const top = Math.max(...entries.map((e) => e.value));
    const ids = entries.flatMap((e, i) =>
      e.value > 0 && (decl.cardinality !== 'single' || e.value === top) ? [`z${i + 1}`] : [],
    );
    return ids.length ? { correct: ids } : null;
  }
  return referenceFromAnswer(slot, content, answerFromQti(slot, decl, values));
}

/** One item as a ParsedItem (refused with the reason when it does not fit the task model). */
export function parseQtiItem(src: ItemSource): QtiItemResult {
  const { root, pkg } = src;
  const notes = new Notes();
  const sourceId = (attr(root, 'identifier') ?? '').trim() || src.path;
  const title = (attr(root, 'title') ?? '').trim() || sourceId;
  const refused = (): QtiItemResult => ({
    item: { sourceId, title, outcome: 'refused', notes: notes.all, media: [] },
    ids: new Map(),
  });

  if (root.name !== 'assessmentItem') {
    notes.refuse(note('qti_not_item', { element: root.name }));
    return refused();
  }
  const decls = readDeclarations(root);
  decls.problems.forEach((p) => notes.refuse(p));
  const body = kid(root, 'itemBody');
  if (!body) notes.refuse(note('qti_no_body'));
  const found = body ? interactionsOf(body) : [];
  const unsupported = [...new Set(found.filter(({ el }) => !kindOf(el.name)).map(({ el }) => el.name))];
  unsupported.forEach((name) => notes.refuse(note('interaction_unsupported', { name })));
  if (body && !found.length) notes.refuse(note('qti_no_interaction'));
  if (notes.refusals.length || !body) return refused();

  if (boolAttr(root, 'adaptive', false)) notes.refuse(note('qti_adaptive_unsupported'));
  if (kid(root, 'templateProcessing')) notes.refuse(note('qti_template_processing_unsupported'));
  else if (decls.templateIds.length) notes.drop(note('qti_template_variables_dropped'));
  if (kids(root, 'modalFeedback').length) notes.drop(note('qti_feedback_dropped'));
  if (kids(root, 'assessmentStimulusRef').length) notes.drop(note('qti_stimulus_dropped'));

  const declared = new Map(decls.responses.map((r) => [r.id, r]));
  const interactions = found.map(({ el, parent }) => ({
    el,
    parent,
    kind: kindOf(el.name)!,
    responseId: attr(el, 'responseIdentifier') ?? '',
  }));
  for (const i of interactions)
    if (!declared.has(i.responseId))
      notes.refuse(
        i.responseId
          ? note('qti_response_undeclared', { response: i.responseId, interaction: i.el.name })
          : note('qti_interaction_no_response', { interaction: i.el.name }),
      );
  if (new Set(interactions.map((i) => i.responseId)).size !== interactions.length)
    notes.refuse(note('qti_response_shared'));
  if (notes.refusals.length) return refused();

  // Response processing first: a select point interaction takes its areas from it.
  const problems: ImportNote[] = [];
  const processing = readProcessing(root, problems, (location) => {
    const path = pkg?.resolve(src.path, location);
    if (!pkg || !path || !pkg.has(path)) return null;
    const doc = readQtiXml(pkg.read(path), path);
    return doc.root.name === 'responseProcessing' ? doc.root : null;
  });
  const insideAreas: { shape: string; coords: number[] }[] = [];
  if (processing.kind === 'rules')
    walk(processing.rules, (n) => {
      if (n.op === 'inside')
        insideAreas.push({ shape: String(n.shape), coords: (n.coords as number[]) ?? [] });
    });

  // A text entry standing alone in its block is a short text (number); in running text, a gap.
  const lone =
    interactions.length === 1 &&
    interactions[0]!.kind === 'textEntry' &&
    interactions[0]!.parent.children.every(
      (c) => c === interactions[0]!.el || (c.kind === 'text' && !c.text.trim()),
    );
  const shape = lone
    ? 'single'
    : interactions.every((i) => INLINE_KINDS.includes(i.kind))
      ? 'cloze'
      : interactions.length === 1
        ? 'single'
        : 'composite';
  const ids = new IdAllocator(literalsOf(root));
  const media = new MediaCollector(pkg, src.path, notes);
  const r = new BodyRenderer(media, notes);
  const slots: Slot[] = interactions.map((i, n) => {
    const id = shape === 'cloze' ? `b${n + 1}` : shape === 'composite' ? `p${n + 1}` : '';
    const mode = shape === 'cloze' ? 'cloze' : shape === 'composite' ? 'part' : 'single';
    const built = buildInteraction(
      { r, ids, notes, decl: declared.get(i.responseId), mode, slotId: id },
      i.el,
      i.kind,
      insideAreas,
    );
    return { id, responseId: i.responseId, built, kind: i.kind };
  });
  const byElement = new Map(interactions.map((i, n) => [i.el, slots[n]!]));
  let html = tidy(r.children(body, (el) => byElement.get(el)?.built.html));
  if (!html.replace(/<[^>]*>/g, '').trim() && !/<img\b|\{\{/.test(html)) {
    html = `<p>${escText(title)}</p>${html}`;
    notes.say(note('qti_title_as_question'));
  }
  if (notes.refusals.length) return refused();

  const solutionHtml = r.solution.join('') || null;
  let held = false;
  const task = (def: Omit<ParsedTask, 'html' | 'solutionHtml'>): QtiItemResult => {
    const full = { ...def, html, solutionHtml } as ParsedTask;
    const checked = taskDefinitionSchema.safeParse(full);
    if (!checked.success) notes.refuse(taskIssueNote(checked.error.issues, 'qti_task_invalid'));
    const placeholders = placeholderProblems(def.answerType, def.content, html);
    if (placeholders.length)
      notes.refuse(note('qti_placeholders_wrong', { details: placeholders.slice(0, 3).join('; ') }));
    if (notes.refusals.length) return refused();
    // Our opaque ids → the item's identifiers, for the export to write back (defect 7d).
    const choiceIds = Object.fromEntries(
      [...ids.entries].filter(([qti, ours]) => qti !== ours && qti).map(([qti, ours]) => [ours, qti]),
    );
    return {
      item: {
        sourceId,
        title,
        outcome: notes.lost.size ? 'converted' : 'imported',
        notes: notes.all,
        task: full,
        media: media.list,
        ...(Object.keys(choiceIds).length ? { choiceIds } : {}),
        ...(held ? { fullMarksNeeded: true } : {}),
      },
      ids: ids.entries,
    };
  };

  // The answer type and content.
  let answerType: string;
  let content: Json;
  let bind: QtiScoring['bind'];
  if (shape === 'cloze') {
    answerType = 'cloze';
    content = { blanks: slots.map((s) => (s.built.kind === 'blank' ? s.built.blank : {})) };
    bind = { parts: Object.fromEntries(slots.map((s) => [s.id, s.responseId])) };
  } else if (shape === 'single') {
    const built = slots[0]!.built as Extract<Built, { kind: 'task' }>;
    answerType = built.answerType;
    content = built.content;
    bind = { response: slots[0]!.responseId };
  } else {
    answerType = 'composite';
    content = {
      parts: slots.map((s) => {
        const built = s.built as Extract<Built, { kind: 'task' }>;
        return { id: s.id, answerType: built.answerType, content: built.content };
      }),
    };
    bind = { parts: Object.fromEntries(slots.map((s) => [s.id, s.responseId])) };
  }

  // Graded by experts: an extended text or upload alone.
  if (interactions.every((i) => MANUAL_KINDS.includes(i.kind))) {
    if (interactions.length > 1) {
      notes.refuse(note('qti_several_expert_interactions'));
      return refused();
    }
    if (processing.kind !== 'none') notes.drop(note('qti_expert_processing_dropped'));
    const score = decls.outcomes.find((o) => o.id === 'SCORE');
    const declaredMax =
      score?.normalMaximum ?? Number(decls.outcomes.find((o) => o.id === 'MAXSCORE')?.defaultValue ?? NaN);
    const maxScore =
      Number.isFinite(declaredMax) && declaredMax >= 1 ? Math.min(100, Math.round(declaredMax)) : 1;
    if (Number.isFinite(declaredMax) && declaredMax !== maxScore)
      notes.drop(note('qti_max_score_rounded', { points: maxScore }));
    const rubric = r.solution.length
      ? textOf(readRubric(r.solution.join('')))
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, 4000)
      : '';
    if (!rubric) notes.say(note('qti_no_rubric'));
    return task({
      answerType,
      content,
      reference: null,
      scoring: { method: 'expert' },
      maxScore,
      criteria: [{ code: 'К1', text: rubric || 'Ответ в целом', maxScore }],
    } as Omit<ParsedTask, 'html' | 'solutionHtml'>);
  }

  // Scored by the item's response processing.
  if (processing.kind === 'none') {
    notes.refuse(note('qti_no_processing'));
    return refused();
  }
  if (processing.kind === 'unknownTemplate') {
    notes.refuse(note('qti_template_unknown', { uri: processing.uri }));
    return refused();
  }
  problems.forEach((p) => notes.refuse(p));
  let template: string | undefined;
  let rules: Json[] | undefined;
  if (processing.kind === 'template') {
    if (declared.has('RESPONSE')) template = processing.template;
    else if (declared.size === 1) rules = templateAsRules(processing.template, decls.responses[0]!.id);
    else notes.refuse(note('qti_template_response_missing', { template: processing.template }));
  } else {
    rules = processing.rules;
    if (processing.fromTemplate) notes.say(note('qti_template_file_read', { file: processing.fromTemplate }));
  }
  if (rules) {
    const unknown = unsupportedQtiOperators(rules);
    if (unknown.length) notes.refuse(note('operator_unsupported', { names: unknown.join(', ') }));
    const outcomeIds = new Set([...decls.outcomes.map((o) => o.id), 'SCORE']);
    const skipped = new Map(decls.skippedOutcomes.map((o) => [o.id, o.baseType]));
    const templates = new Set(decls.templateIds);
    const read = new Set<string>();
    const written = new Set<string>();
    walk(rules, (n) => {
      if (typeof n.op === 'string' && typeof n.id === 'string') read.add(n.id);
      if (n.rule === 'setOutcomeValue' && typeof n.id === 'string') written.add(n.id);
    });
    for (const id of [...read, ...written]) {
      if (declared.has(id) || outcomeIds.has(id)) continue;
      if (templates.has(id)) notes.refuse(note('qti_rp_template_variable', { id }));
      else if (skipped.has(id))
        notes.refuse(note('qti_outcome_type_unsupported', { id, baseType: skipped.get(id)! }));
      else if (BUILT_IN.has(id)) notes.refuse(note('qti_rp_builtin_variable', { id }));
      else notes.refuse(note('qti_rp_undeclared_variable', { id }));
    }
  }
  if (decls.responses.length > 50 || decls.outcomes.length > 50)
    notes.refuse(note('qti_too_many_declarations'));
  if (notes.refusals.length) return refused();

  const raw = renameIdentifiers(
    {
      method: 'qti',
      responses: decls.responses,
      outcomes: decls.outcomes,
      ...(template ? { template } : {}),
      ...(rules ? { rules } : {}),
      bind,
      scoreOutcome: 'SCORE',
    },
    ids.rename,
  );
  const parsed = qtiScoringSchema.safeParse(raw);
  if (!parsed.success) {
    notes.refuse(taskIssueNote(parsed.error.issues, 'qti_rp_invalid'));
    return refused();
  }
  const scoring = parsed.data;
  const responses = new Map(scoring.responses.map((d) => [d.id, d]));

  // The key: correct responses, else the best mapped values.
  const valuesOf = (decl: QtiResponseDeclaration) => decl.correct ?? bestMapped(decl);
  const slotOf = (s: Slot): QtiSlot =>
    s.built.kind === 'blank' ? (`gap_${String(s.built.blank.kind)}` as QtiSlot) : s.built.answerType;
  const missingKey: string[] = [];
  const noKey = (responseId: string) => notes.say(note('qti_key_missing_part', { response: responseId }));
  const refOf = (s: Slot): unknown => {
    const decl = responses.get(s.responseId)!;
    const values = valuesOf(decl);
    const slot = slotOf(s);
    const ref =
      values || (slot === 'hotspot' && decl.areaMapping)
        ? slotReference(slot, s.built.kind === 'task' ? s.built.content : s.built.blank, decl, values ?? [])
        : null;
    if (ref !== null) return ref;
    if (shape === 'single') missingKey.push(s.responseId);
    else noKey(s.responseId);
    return ref;
  };
  let reference: unknown;
  if (shape === 'cloze') {
    reference = {
      blanks: Object.fromEntries(
        slots.flatMap((s) => {
          const decl = responses.get(s.responseId)!;
          const values = (valuesOf(decl) ?? []).map((v) => String(v).trim()).filter(Boolean);
          if (!values.length) noKey(s.responseId);
          return values.length ? [[s.id, values.slice(0, 50)]] : [];
        }),
      ),
    };
  } else if (shape === 'single') reference = refOf(slots[0]!);
  else
    reference = {
      parts: Object.fromEntries(
        slots
          .filter((s) => s.built.kind === 'task' && !isManualAnswerType(s.built.answerType))
          .flatMap((s) => {
            const ref = refOf(s);
            return ref === null ? [] : [[s.id, ref]];
          }),
      ),
    };
  if (missingKey.length) {
    notes.refuse(note('qti_key_missing', { responses: missingKey.join(', ') }));
    return refused();
  }

  // Full marks.
  let maxScore = qtiMaxScore(scoring);
  if (maxScore === null) {
    const declaredMax = scoring.outcomes.find((o) => o.id === 'MAXSCORE' && o.cardinality === 'single');
    const x = Number(declaredMax?.defaultValue);
    if (declaredMax && Number.isFinite(x) && x > 0) maxScore = x;
  }
  if (maxScore === null) {
    // The correct response's score is reachable, so it is full marks when every response has its
    // correct value. Custom processing (SCORE = SCORE + 1 … capped, round(mapResponsePoint),
    // SCORE1 + SCORE2) may score a response the key leaves out: then the highest score its rules
    // can reach says more, and it says something where there is no key at all.
    const keyWhole = slots.every((s) => (responses.get(s.responseId)?.correct?.length ?? 0) > 0);
    const answer = qtiCorrectAnswer(answerType, content, scoring);
    const run =
      answer === null
        ? null
        : runQti(compileQti(scoring), bindResponses(answerType, content, scoring, answer));
    const keyScores = run !== null && run.score > 0;
    const fromRules = keyWhole && keyScores ? null : qtiRulesMaximum(scoring);
    if (keyScores && (keyWhole || fromRules === null)) {
      maxScore = Math.round(run!.score * 1e6) / 1e6;
      notes.say(note('qti_max_score_from_key', { points: maxScore }));
    } else if (fromRules !== null) {
      maxScore = fromRules;
      notes.say(note('qti_max_score_from_rules', { points: maxScore }));
    }
  }
  if (maxScore === null || !(maxScore > 0)) {
    // Nothing says the full marks: the task is made (1 point until told) but held out of the file's
    // test, and the report asks the admin for them (POST …/import/{importId}/fullMarks).
    held = true;
    maxScore = 1;
    notes.drop(note('qti_max_score_needed'));
  }
  if (maxScore > 100) {
    notes.refuse(note('qti_max_score_too_high', { points: maxScore }));
    return refused();
  }
  const native = nativeEquivalent({ answerType, content, reference, scoring, maxScore });
  return task({
    answerType,
    content,
    reference: native?.reference ?? reference,
    scoring: native?.scoring ?? scoring,
    maxScore,
  } as Omit<ParsedTask, 'html' | 'solutionHtml'>);
}

/** The interactions of a body in document order, with their parents (an interaction's own descendants are its own). */
function interactionsOf(body: XElement): { el: XElement; parent: XElement }[] {
  const out: { el: XElement; parent: XElement }[] = [];
  const visit = (el: XElement) => {
    for (const c of el.children) {
      if (c.kind !== 'element') continue;
      if (isInteraction(c.name)) out.push({ el: c, parent: el });
      else visit(c);
    }
  };
  visit(body);
  return out;
}

/** Rubric html read back as text nodes (for a criterion's text). */
function readRubric(html: string): XElement {
  try {
    return readQtiXml(`<div>${html}</div>`, 'rubric').root;
  } catch {
    return {
      kind: 'element',
      name: 'div',
      attrs: {},
      children: [{ kind: 'text', text: html.replace(/<[^>]*>/g, ' ') }],
    };
  }
}
