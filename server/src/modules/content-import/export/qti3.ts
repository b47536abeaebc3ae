import archiver from 'archiver';
import { XMLValidator } from 'fast-xml-parser';
import type {
  QtiExpression,
  QtiOutcomeDeclaration,
  QtiResponseDeclaration,
  QtiRule,
  QtiScalar,
  QtiScoring,
} from '@attesta/contract';
import { htmlToText, sanitizeHtml } from '../../../lib/sanitize.js';
import { normalizeSpaces } from '../../scoring/index.js';
import { renameIdentifiers } from '../parsers/qti-rp.js';

/*
 * A subject test as an IMS QTI 3.0 content package (issue 11): imsmanifest.xml, one item file per
 * task (items/<identifier>.xml), the assessment test (assessment-test.xml; with several variants a
 * section per variant under a parent section that selects one of them), and the tasks' media
 * (items/media/…), the html's /api/files/{id} references rewritten to them.
 *
 * Each answer type is ONE function of ITEM_WRITERS: its response declarations, the interaction in
 * the item body and its response processing — a standard template where it fits (match_correct,
 * map_response), custom processing otherwise (one mistake, one point less; per pair; weighted gaps).
 * Whoever adds an answer type adds its writer here; a type without one is exported with its html and
 * an externally scored outcome (and an XML comment saying so).
 */

export interface ExportTask {
  id: number;
  answerType: string;
  html: string;
  content: Record<string, unknown>;
  reference: unknown;
  scoring: Record<string, unknown>;
  solutionHtml: string | null;
  criteria: { code: string; text: string; maxScore: number }[] | null;
  /** Points of the task in the test (the variant's). */
  maxScore: number;
  title: string | null;
  sourceId: string | null;
  /** The source's identifiers of the task's choices by our ids (an imported task): written back. */
  choiceIds?: Record<string, string> | null;
}

export interface ExportFile {
  id: number;
  ownerId: number | null;
  name: string;
  mime: string;
  data: Buffer;
}

export interface ExportTest {
  id: number;
  name: string;
  sourceId: string | null;
  /** Current variants in order, each with its task ids in order. */
  variants: { number: number; taskIds: number[] }[];
}

const QTI_NS = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';
const QTI_XSD = 'https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd';
const CP_NS = 'http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1';
const CP_XSD = 'https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqtiv3p0_imscpv1p2_v1p0.xsd';
const MATHML_NS = 'http://www.w3.org/1998/Math/MathML';
const TEMPLATE = (name: string) => `https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/${name}.xml`;

// ---------------------------------------------------------------- xml helpers

export const esc = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');

// Exact (the shortest text that reads back as the same number): thirds of a point must add up
// to the whole point again after a round trip.
const num = (n: number) => (Number.isFinite(n) ? String(n) : '0');

const NCNAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
/** An id of the task model (options, items, gaps) as a QTI identifier. */
export const qid = (id: string) => (NCNAME.test(id) ? id : `_${id}`);

const value = (v: string) => `<qti-value>${esc(v)}</qti-value>`;
const base = (type: string, v: string | number) =>
  `<qti-base-value base-type="${type}">${esc(typeof v === 'number' ? num(v) : v)}</qti-base-value>`;
const variable = (id: string) => `<qti-variable identifier="${id}"/>`;
const setOutcome = (id: string, expr: string) =>
  `<qti-set-outcome-value identifier="${id}">${expr}</qti-set-outcome-value>`;
const ifThen = (cond: string, then: string, otherwise?: string) =>
  `<qti-response-condition><qti-response-if>${cond}${then}</qti-response-if>${
    otherwise ? `<qti-response-else>${otherwise}</qti-response-else>` : ''
  }</qti-response-condition>`;
/** if / else-if … chain: the first matching condition's action. */
const chain = (branches: { cond: string; then: string }[], otherwise?: string) =>
  branches.length
    ? `<qti-response-condition>${branches
        .map((b, i) => {
          const tag = i === 0 ? 'qti-response-if' : 'qti-response-else-if';
          return `<${tag}>${b.cond}${b.then}</${tag}>`;
        })
        .join(
          '',
        )}${otherwise ? `<qti-response-else>${otherwise}</qti-response-else>` : ''}</qti-response-condition>`
    : (otherwise ?? '');
const rp = (...rules: string[]) => `<qti-response-processing>${rules.join('')}</qti-response-processing>`;
const template = (name: string) => `<qti-response-processing template="${TEMPLATE(name)}"/>`;

const score = (expr: string) => setOutcome('SCORE', expr);
/** No response given (every one of these NULL). */
const allNull = (ids: string[]) =>
  ids.length === 1
    ? `<qti-is-null>${variable(ids[0]!)}</qti-is-null>`
    : `<qti-and>${ids.map((id) => `<qti-is-null>${variable(id)}</qti-is-null>`).join('')}</qti-and>`;
/**
 * The rules run only when something was answered; a null (unanswered) response scores 0. No
 * exitResponse: the rules of a composite task's parts run one after another in one item.
 */
const nullGuard = (ids: string[], ...rules: string[]) =>
  ifThen(allNull(ids), score(base('float', 0)), rules.join(''));
const guarded = (ids: string[], ...rules: string[]) => rp(nullGuard(ids, ...rules));
/** SCORE kept within [0, max]. */
const clamp = (max: number) =>
  ifThen(`<qti-lt>${variable('SCORE')}${base('float', 0)}</qti-lt>`, score(base('float', 0))) +
  ifThen(`<qti-gt>${variable('SCORE')}${base('float', max)}</qti-gt>`, score(base('float', max)));

/** maxScore when the response matches the correct response (the template when it gives exactly that). */
const matchCorrect = (max: number, id = 'RESPONSE') =>
  max === 1 && id === 'RESPONSE'
    ? template('match_correct')
    : rp(
        ifThen(
          `<qti-match>${variable(id)}<qti-correct identifier="${id}"/></qti-match>`,
          score(base('float', max)),
          score(base('float', 0)),
        ),
      );

interface Mapping {
  entries: { key: string; value: number; caseSensitive?: boolean }[];
  /** The points of a value without an entry (default 0). */
  default?: number;
  lower?: number;
  upper?: number;
}
const mapping = (m: Mapping) =>
  `<qti-mapping default-value="${num(m.default ?? 0)}"${m.lower !== undefined ? ` lower-bound="${num(m.lower)}"` : ''}${
    m.upper !== undefined ? ` upper-bound="${num(m.upper)}"` : ''
  }>${m.entries
    .map(
      (e) =>
        `<qti-map-entry map-key="${esc(e.key)}" mapped-value="${num(e.value)}"${
          e.caseSensitive !== undefined ? ` case-sensitive="${e.caseSensitive}"` : ''
        }/>`,
    )
    .join('')}</qti-mapping>`;

const responseDecl = (
  id: string,
  cardinality: 'single' | 'multiple' | 'ordered',
  baseType: string,
  correct: string[],
  map?: Mapping,
) =>
  `<qti-response-declaration identifier="${id}" cardinality="${cardinality}" base-type="${baseType}">${
    correct.length ? `<qti-correct-response>${correct.map(value).join('')}</qti-correct-response>` : ''
  }${map ? mapping(map) : ''}</qti-response-declaration>`;

const outcomeDecl = (id: string, baseType: string, initial: string, extra = '') =>
  `<qti-outcome-declaration identifier="${id}" cardinality="single" base-type="${baseType}"${extra}><qti-default-value>${value(
    initial,
  )}</qti-default-value></qti-outcome-declaration>`;

/**
 * A text answer as Attesta compares it: every whitespace run one space, trimmed (scoring's
 * normalizeSpaces). A key written on two lines (a GIFT answer may be) matches «two lines» typed on
 * one; written as it is, its line break would make the exported key match nothing (defect 7e).
 */
const keyText = (text: string) => normalizeSpaces(text);

/**
 * An XSD regular expression matching a Moodle-style wildcard answer (* = any run). A space matches
 * any run of whitespace: Attesta reads «two  lines» as «two lines», another engine may not.
 */
export function wildcardPattern(text: string, caseSensitive: boolean): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      while (/\s/.test(text[i + 1] ?? '')) i++;
      out += '\\s+';
    } else if (c === '\\' && text[i + 1] === '*') {
      out += '\\*';
      i++;
    } else if (c === '*') out += '.*';
    else if (/[.\\?*+{}()[\]|^$-]/.test(c)) out += `\\${c}`;
    else if (!caseSensitive && c.toLowerCase() !== c.toUpperCase())
      out += `[${c.toLowerCase()}${c.toUpperCase()}]`;
    else out += c;
  }
  return out;
}
const patternMatch = (id: string, pattern: string) =>
  `<qti-pattern-match pattern="${esc(pattern)}">${variable(id)}</qti-pattern-match>`;

// ---------------------------------------------------------------- html

export interface HtmlContext {
  /** /api/files/{id} → the media path relative to the item file. */
  media: ReadonlyMap<number, string>;
  /** Task id → its files' names → their media paths (an image a task names by its package path). */
  byName?: ReadonlyMap<number, ReadonlyMap<string, string>>;
}

/**
 * Task html as well-formed XHTML for an item body: sanitised again (balanced tags, void elements
 * closed, only the allowlist), file references pointing into the package, MathML in its namespace.
 */
export function xhtml(html: string, ctx: HtmlContext): string {
  let out = sanitizeHtml(html)
    .replace(/(\s(?:src|href)=")\/api\/files\/(\d+)(")/g, (whole, pre: string, id: string, post: string) => {
      const path = ctx.media.get(Number(id));
      return path ? `${pre}${esc(path)}${post}` : whole;
    })
    .replace(/\s(?:target|rel)="[^"]*"/g, '')
    .replace(/<math(?![^>]*\sxmlns=)/g, `<math xmlns="${MATHML_NS}"`)
    .replace(/&nbsp;/g, '&#160;');
  if (XMLValidator.validate(`<div>${out}</div>`) !== true) out = `<p>${esc(htmlToText(html))}</p>`;
  return out;
}

// ---------------------------------------------------------------- answer types

interface Labelled {
  id: string;
  html: string;
}

export interface ItemParts {
  declarations: string[];
  /** Interactions and html of the item body. */
  body: string;
  processing: string;
  /** The item's own outcome declarations (SCORE among them); default: SCORE and MAXSCORE. */
  outcomes?: string[];
  /** Human-scored (extended text, files): SCORE is set outside the item. */
  external?: boolean;
  /** What the export could not express exactly (an XML comment in the item). */
  notes?: string[];
}

export type ItemWriter = (task: ExportTask, ctx: HtmlContext) => ItemParts;

const prompt = (task: ExportTask, ctx: HtmlContext) =>
  `<div class="attesta-task">${xhtml(task.html, ctx)}</div>`;
const choices = (tag: string, list: Labelled[], ctx: HtmlContext, extra = '') =>
  list.map((o) => `<${tag} identifier="${qid(o.id)}"${extra}>${xhtml(o.html, ctx)}</${tag}>`).join('');
const scoringMethod = (task: ExportTask) => String(task.scoring.method ?? 'all_or_nothing');

const singleChoice: ItemWriter = (task, ctx) => {
  const content = task.content as { options: Labelled[]; shuffle?: boolean };
  const ref = task.reference as { correct: string };
  const map = task.scoring.map as Record<string, number> | undefined;
  const perChoice = scoringMethod(task) === 'per_choice' && map;
  return {
    declarations: [
      responseDecl(
        'RESPONSE',
        'single',
        'identifier',
        [qid(ref.correct)],
        perChoice
          ? {
              entries: Object.entries(map).map(([k, v]) => ({ key: qid(k), value: v })),
              lower: 0,
              upper: task.maxScore,
            }
          : undefined,
      ),
    ],
    body: `${prompt(task, ctx)}<qti-choice-interaction response-identifier="RESPONSE" shuffle="${!!content.shuffle}" max-choices="1">${choices(
      'qti-simple-choice',
      content.options,
      ctx,
    )}</qti-choice-interaction>`,
    processing: perChoice ? template('map_response') : matchCorrect(task.maxScore),
  };
};

/** Scoring of a selection (multiple choice, hottext spans, hotspot areas) by its native method. */
function choiceScoring(
  task: ExportTask,
  optionIds: string[],
  correctIds: string[],
): { map?: Mapping; processing: string } {
  const s = task.scoring as {
    method?: string;
    map?: Record<string, number>;
    lowerBound?: number;
    upperBound?: number;
  };
  const correct = new Set(correctIds);
  const method = scoringMethod(task);
  if (method === 'per_choice' && s.map)
    return {
      map: {
        entries: Object.entries(s.map).map(([k, v]) => ({ key: qid(k), value: v })),
        lower: Math.max(0, s.lowerBound ?? 0),
        upper: Math.min(task.maxScore, s.upperBound ?? task.maxScore),
      },
      processing: template('map_response'),
    };
  if (method === 'one_mistake')
    // mistakes = wrong choices + missing correct ones: score = max − |correct| + Σ(+1 correct, −1 wrong chosen).
    return {
      map: { entries: optionIds.map((id) => ({ key: qid(id), value: correct.has(id) ? 1 : -1 })) },
      processing: guarded(
        ['RESPONSE'],
        score(
          `<qti-sum>${base('float', task.maxScore - correct.size)}<qti-map-response identifier="RESPONSE"/></qti-sum>`,
        ),
        clamp(task.maxScore),
      ),
    };
  return { processing: matchCorrect(task.maxScore) };
}

const multipleChoice: ItemWriter = (task, ctx) => {
  const content = task.content as {
    options: Labelled[];
    shuffle?: boolean;
    minChoices?: number;
    maxChoices?: number;
  };
  const ref = task.reference as { correct: string[] };
  const { map, processing } = choiceScoring(
    task,
    content.options.map((o) => o.id),
    ref.correct,
  );
  // Choosing more than maxChoices scores 0 in Attesta; the interaction does not let one choose more.
  return {
    declarations: [responseDecl('RESPONSE', 'multiple', 'identifier', ref.correct.map(qid), map)],
    body: `${prompt(task, ctx)}<qti-choice-interaction response-identifier="RESPONSE" shuffle="${!!content.shuffle}" max-choices="${
      content.maxChoices ?? 0
    }" min-choices="${content.minChoices ?? 0}">${choices('qti-simple-choice', content.options, ctx)}</qti-choice-interaction>`,
    processing,
  };
};

/** Scored texts (accepted answers or per-answer points) as a mapping, or pattern matches with wildcards. */
function textScoring(
  id: string,
  written: { text: string; points: number }[],
  s: { caseSensitive?: boolean; wildcards?: boolean },
  max: number,
): { map?: Mapping; rules: string } {
  const caseSensitive = !!s.caseSensitive;
  const answers = written.map((a) => ({ ...a, text: keyText(a.text) }));
  if (s.wildcards) {
    const branches = answers.map((a) => ({
      cond: patternMatch(id, wildcardPattern(a.text, caseSensitive)),
      then: score(base('float', a.points)),
    }));
    return { rules: nullGuard([id], chain(branches, score(base('float', 0))), clamp(max)) };
  }
  return {
    map: {
      entries: answers.map((a) => ({ key: a.text, value: a.points, caseSensitive })),
      lower: 0,
      upper: max,
    },
    rules: '',
  };
}

const textEntry = (id: string, length: number, extra = '') =>
  `<qti-text-entry-interaction response-identifier="${id}" expected-length="${Math.max(1, Math.min(length, 60))}"${extra}/>`;

const shortText: ItemWriter = (task, ctx) => {
  const content = task.content as { maxLength?: number };
  const ref = task.reference as { accepted: string[]; answers?: { text: string; points: number }[] };
  const s = task.scoring as {
    method?: string;
    caseSensitive?: boolean;
    wildcards?: boolean;
    distinguishYo?: boolean;
  };
  const answers =
    s.method === 'per_answer' && ref.answers
      ? ref.answers
      : ref.accepted.map((text) => ({ text, points: task.maxScore }));
  const scoring = textScoring('RESPONSE', answers, s, task.maxScore);
  const notes = s.distinguishYo ? [] : ['Attesta reads ё as е; QTI compares the letters as written'];
  return {
    declarations: [
      responseDecl('RESPONSE', 'single', 'string', ref.accepted.slice(0, 1).map(keyText), scoring.map),
    ],
    body: `${prompt(task, ctx)}<p>${textEntry('RESPONSE', Math.min(content.maxLength ?? 40, 40))}</p>`,
    processing: scoring.map ? template('map_response') : rp(scoring.rules),
    notes,
  };
};

type NumberKey =
  | { value: number; tolerance?: number; toleranceMode?: 'absolute' | 'relative' }
  | { min: number; max: number };
const numberCondition = (id: string, key: NumberKey) => {
  if ('min' in key)
    return `<qti-and><qti-gte>${variable(id)}${base('float', key.min)}</qti-gte><qti-lte>${variable(id)}${base(
      'float',
      key.max,
    )}</qti-lte></qti-and>`;
  const tolerance = key.tolerance ?? 0;
  if (!tolerance)
    return `<qti-equal tolerance-mode="exact">${variable(id)}${base('float', key.value)}</qti-equal>`;
  // QTI's relative tolerance is in percent; Attesta's a fraction.
  const t = key.toleranceMode === 'relative' ? tolerance * 100 : tolerance;
  return `<qti-equal tolerance-mode="${key.toleranceMode === 'relative' ? 'relative' : 'absolute'}" tolerance="${num(
    t,
  )} ${num(t)}">${variable(id)}${base('float', key.value)}</qti-equal>`;
};

const numberTask: ItemWriter = (task, ctx) => {
  const ref = task.reference as NumberKey & { answers?: (NumberKey & { points: number })[] };
  const content = task.content as { unit?: string };
  const keys =
    scoringMethod(task) === 'per_answer' && ref.answers
      ? ref.answers
      : [{ ...ref, points: task.maxScore } as NumberKey & { points: number }];
  // A range has no single correct value: its middle is shown as the key (the rules score the range).
  const correct = 'value' in ref ? [num(ref.value)] : 'min' in ref ? [num((ref.min + ref.max) / 2)] : [];
  return {
    declarations: [responseDecl('RESPONSE', 'single', 'float', correct)],
    body: `${prompt(task, ctx)}<p>${textEntry('RESPONSE', 12)}${content.unit ? ` ${esc(content.unit)}` : ''}</p>`,
    processing: guarded(
      ['RESPONSE'],
      chain(
        keys.map((k) => ({ cond: numberCondition('RESPONSE', k), then: score(base('float', k.points)) })),
        score(base('float', 0)),
      ),
      clamp(task.maxScore),
    ),
    notes: ['Attesta also accepts a decimal comma and spaces between digit groups'],
  };
};

/** Mistakes of a digit answer counted by pattern matches (Attesta's rules, see scoring/score.ts). */
function digitMistakes(digits: string, anyOrder: boolean): string {
  const add = (cond: string) =>
    ifThen(cond, setOutcome('MISTAKES', `<qti-sum>${variable('MISTAKES')}${base('integer', 1)}</qti-sum>`));
  const not = (expr: string) => `<qti-not>${expr}</qti-not>`;
  const rules: string[] = [];
  if (!anyOrder) {
    // Positions where the digits differ (a missing position too), then each digit beyond the key.
    for (let i = 0; i < digits.length; i++)
      rules.push(add(not(patternMatch('RESPONSE', `.{${i}}${digits[i]}.*`))));
    for (let k = digits.length + 1; k <= 50; k++) rules.push(add(patternMatch('RESPONSE', `.{${k},}`)));
  } else {
    // As multisets: for each digit, how many are missing and how many extra (up to 5 extra of a digit).
    for (let d = 0; d <= 9; d++) {
      const c = [...digits].filter((x) => x === String(d)).length;
      const atLeast = (k: number) => patternMatch('RESPONSE', `([^${d}]*${d}){${k}}.*`);
      for (let k = 1; k <= c; k++) rules.push(add(not(atLeast(k))));
      for (let k = c + 1; k <= c + 5; k++) rules.push(add(atLeast(k)));
    }
  }
  return rules.join('');
}

const digitSequence: ItemWriter = (task, ctx) => {
  const content = task.content as { length?: number };
  const ref = task.reference as { digits: string };
  const s = task.scoring as { method?: string; anyOrder?: boolean };
  const method = scoringMethod(task);
  const exact = !s.anyOrder && method === 'all_or_nothing';
  return {
    declarations: [
      responseDecl('RESPONSE', 'single', 'string', [ref.digits]),
      ...(exact ? [] : [outcomeDecl('MISTAKES', 'integer', '0')]),
    ],
    body: `${prompt(task, ctx)}<p>${textEntry('RESPONSE', content.length ?? ref.digits.length, ' pattern-mask="[0-9]*"')}</p>`,
    processing: exact
      ? matchCorrect(task.maxScore)
      : guarded(
          ['RESPONSE'],
          digitMistakes(ref.digits, !!s.anyOrder),
          method === 'one_mistake'
            ? score(`<qti-subtract>${base('float', task.maxScore)}${variable('MISTAKES')}</qti-subtract>`)
            : ifThen(
                `<qti-equal tolerance-mode="exact">${variable('MISTAKES')}${base('integer', 0)}</qti-equal>`,
                score(base('float', task.maxScore)),
                score(base('float', 0)),
              ),
          clamp(task.maxScore),
        ),
    notes: s.anyOrder ? ['extra digits beyond five of one digit are not counted'] : [],
  };
};

const ordering: ItemWriter = (task, ctx) => {
  const content = task.content as { items: Labelled[]; shuffle?: boolean };
  const ref = task.reference as { order: string[] };
  const method = scoringMethod(task);
  const decrement = score(`<qti-subtract>${variable('SCORE')}${base('float', 1)}</qti-subtract>`);
  const processing =
    method === 'one_mistake'
      ? guarded(
          ['RESPONSE'],
          score(base('float', task.maxScore)),
          // A position of the key holding another item or none…
          ...ref.order.map((id, i) => {
            const at = `<qti-index n="${i + 1}">${variable('RESPONSE')}</qti-index>`;
            return ifThen(
              `<qti-or><qti-is-null>${at}</qti-is-null><qti-not><qti-match>${at}${base('identifier', qid(id))}</qti-match></qti-not></qti-or>`,
              decrement,
            );
          }),
          clamp(task.maxScore),
        )
      : matchCorrect(task.maxScore);
  return {
    declarations: [responseDecl('RESPONSE', 'ordered', 'identifier', ref.order.map(qid))],
    body: `${prompt(task, ctx)}<qti-order-interaction response-identifier="RESPONSE" shuffle="${!!content.shuffle}">${choices(
      'qti-simple-choice',
      content.items,
      ctx,
    )}</qti-order-interaction>`,
    processing,
  };
};

const matching: ItemWriter = (task, ctx) => {
  const content = task.content as { left: Labelled[]; right: Labelled[]; shuffle?: boolean };
  const ref = task.reference as { pairs: Record<string, string> };
  const pairs = Object.entries(ref.pairs).map(([l, r]) => `${qid(l)} ${qid(r)}`);
  const n = content.left.length;
  const method = scoringMethod(task);
  let map: Mapping | undefined;
  let processing: string;
  const mapped = `<qti-map-response identifier="RESPONSE"/>`;
  if (method === 'one_mistake') {
    map = { entries: pairs.map((key) => ({ key, value: 1 })) };
    processing = guarded(
      ['RESPONSE'],
      score(`<qti-sum>${base('float', task.maxScore - n)}${mapped}</qti-sum>`),
      clamp(task.maxScore),
    );
  } else if (method === 'per_pair') {
    map = { entries: pairs.map((key) => ({ key, value: 1 })) };
    processing = guarded(
      ['RESPONSE'],
      score(
        `<qti-truncate><qti-divide><qti-product>${base('float', task.maxScore)}${mapped}</qti-product>${base('float', n)}</qti-divide></qti-truncate>`,
      ),
      clamp(task.maxScore),
    );
  } else if (method === 'share') {
    map = {
      entries: pairs.map((key) => ({ key, value: task.maxScore / n })),
      lower: 0,
      upper: task.maxScore,
    };
    processing = template('map_response');
  } else processing = matchCorrect(task.maxScore);
  return {
    declarations: [responseDecl('RESPONSE', 'multiple', 'directedPair', pairs, map)],
    body: `${prompt(task, ctx)}<qti-match-interaction response-identifier="RESPONSE" shuffle="${!!content.shuffle}" max-associations="${n}"><qti-simple-match-set>${choices(
      'qti-simple-associable-choice',
      content.left,
      ctx,
      ' match-max="1"',
    )}</qti-simple-match-set><qti-simple-match-set>${choices(
      'qti-simple-associable-choice',
      content.right,
      ctx,
      ` match-max="${n}"`,
    )}</qti-simple-match-set></qti-match-interaction>`,
    processing,
  };
};

type Blank = {
  id: string;
  kind: 'text' | 'number' | 'choice';
  width?: number;
  options?: { id: string; text: string; html?: string }[];
};

/** The inline interaction of a cloze gap: a drop-down or a text entry. */
const blankInteraction = (blank: Blank, rid: string, ctx: HtmlContext) =>
  blank.kind === 'choice'
    ? `<qti-inline-choice-interaction response-identifier="${rid}" shuffle="false">${(blank.options ?? [])
        .map(
          (o) =>
            // An option with markup (a formula) keeps it; a plain one is its text.
            `<qti-inline-choice identifier="${qid(o.id)}">${o.html ? xhtml(o.html, ctx) : esc(o.text)}</qti-inline-choice>`,
        )
        .join('')}</qti-inline-choice-interaction>`
    : textEntry(rid, blank.width ?? 10);

const cloze: ItemWriter = (task, ctx) => {
  const content = task.content as { blanks: Blank[] };
  const ref = task.reference as {
    blanks: Record<string, string[]>;
    scored?: Record<string, ({ text: string; points: number } | (NumberKey & { points: number }))[]>;
  };
  const s = task.scoring as { method?: string; caseSensitive?: boolean; wildcards?: boolean };
  const method = scoringMethod(task);
  const weighted = method === 'weighted' && ref.scored;
  const rid = (blank: Blank) => `RESPONSE_${blank.id}`;
  const notes: string[] = [];
  const declarations: string[] = [];
  for (const blank of content.blanks) {
    const accepted = ref.blanks[blank.id] ?? [];
    const scored = weighted ? (ref.scored![blank.id] ?? []) : accepted.map((text) => ({ text, points: 1 }));
    const entries = scored.map((a) =>
      'text' in a
        ? { key: blank.kind === 'choice' ? qid(a.text) : keyText(a.text), value: a.points }
        : { key: 'value' in a ? num(a.value) : num(a.min), value: a.points },
    );
    if (scored.some((a) => !('text' in a)))
      notes.push(`gap ${blank.id}: numeric ranges and tolerances exported as exact values`);
    const isChoice = blank.kind === 'choice';
    declarations.push(
      responseDecl(
        rid(blank),
        'single',
        isChoice ? 'identifier' : 'string',
        accepted.slice(0, 1).map((a) => (isChoice ? qid(a) : keyText(a))),
        {
          entries: entries.map((e) => (isChoice ? e : { ...e, caseSensitive: !!s.caseSensitive })),
        },
      ),
    );
  }
  if (s.wildcards) notes.push('wildcards in gap answers are compared literally');
  let body = prompt(task, ctx);
  for (const blank of content.blanks)
    body = body.split(`{{${blank.id}}}`).join(blankInteraction(blank, rid(blank), ctx));
  const n = content.blanks.length;
  const count = content.blanks
    .map((b) =>
      ifThen(
        `<qti-gt><qti-map-response identifier="${rid(b)}"/>${base('float', 0)}</qti-gt>`,
        setOutcome('CORRECT', `<qti-sum>${variable('CORRECT')}${base('integer', 1)}</qti-sum>`),
      ),
    )
    .join('');
  const correct = variable('CORRECT');
  const rules =
    method === 'weighted'
      ? score(
          `<qti-sum>${content.blanks.map((b) => `<qti-map-response identifier="${rid(b)}"/>`).join('')}</qti-sum>`,
        )
      : method === 'one_mistake'
        ? count + score(`<qti-sum>${base('float', task.maxScore - n)}${correct}</qti-sum>`)
        : method === 'per_blank'
          ? count +
            score(
              `<qti-truncate><qti-divide><qti-product>${base('float', task.maxScore)}${correct}</qti-product>${base('float', n)}</qti-divide></qti-truncate>`,
            )
          : count +
            ifThen(
              `<qti-equal tolerance-mode="exact">${correct}${base('integer', n)}</qti-equal>`,
              score(base('float', task.maxScore)),
              score(base('float', 0)),
            );
  return {
    declarations: [
      ...declarations,
      ...(method === 'weighted' ? [] : [outcomeDecl('CORRECT', 'integer', '0')]),
    ],
    body,
    processing: guarded(content.blanks.map(rid), rules, clamp(task.maxScore)),
    notes,
  };
};

const rubric = (task: ExportTask) =>
  task.criteria?.length
    ? `<qti-rubric-block use="scoring" view="scorer"><qti-content-body><ul>${task.criteria
        .map((c) => `<li>${esc(c.code)} — ${esc(c.text)} (${num(c.maxScore)})</li>`)
        .join('')}</ul></qti-content-body></qti-rubric-block>`
    : '';

const extendedText: ItemWriter = (task, ctx) => {
  const content = task.content as { maxLength?: number };
  return {
    declarations: [responseDecl('RESPONSE', 'single', 'string', [])],
    body: `${rubric(task)}${prompt(task, ctx)}<qti-extended-text-interaction response-identifier="RESPONSE" expected-length="${
      content.maxLength ?? 10000
    }"/>`,
    processing: '',
    external: true,
  };
};

const fileTask: ItemWriter = (task, ctx) => {
  const content = task.content as { accept?: string[] };
  const accept =
    content.accept?.length === 1 && !content.accept[0]!.includes('*')
      ? ` type="${esc(content.accept[0]!)}"`
      : '';
  return {
    declarations: [responseDecl('RESPONSE', 'single', 'file', [])],
    body: `${rubric(task)}${prompt(task, ctx)}<qti-upload-interaction response-identifier="RESPONSE"${accept}/>`,
    processing: '',
    external: true,
  };
};

// ---------------------------------------------------------------- interactions (shared by the writers)

type Content = Record<string, unknown>;
interface Associable extends Labelled {
  matchMax?: number;
}
interface Area {
  id: string;
  shape: string;
  coords: number[];
}
interface Image {
  fileId?: number;
  src?: string;
  width: number;
  height: number;
  alt?: string;
}

const EMPTY_PROMPT = '<div class="attesta-task"></div>';
const baseName = (path: string) => path.split('/').pop() ?? path;

/** The image of a hotspot task: its stored file, else its package path matched by name among the task's files. */
function imageSrc(image: Image, ctx: HtmlContext, taskId?: number): string {
  if (image.fileId !== undefined && ctx.media.has(image.fileId)) return ctx.media.get(image.fileId)!;
  const name = baseName(image.src ?? '');
  return (taskId !== undefined ? ctx.byName?.get(taskId)?.get(name) : undefined) ?? image.src ?? '';
}

/** `{{id}}` placeholders of html replaced by the xml given for each id. */
const fill = (html: string, xml: ReadonlyMap<string, string>) =>
  html.replace(/\{\{([A-Za-z0-9_-]{1,32})\}\}/g, (whole, id: string) => xml.get(id) ?? whole);

/**
 * The interaction of an answer type (or of a composite part) answering to the response `rid`. Gap
 * match and hottext carry their text: the task html with the gaps and spans in their {{id}} places,
 * or — a part of a composite task has no html of its own — the gaps and spans in a row.
 */
export function interactionXml(
  type: string,
  content: Content,
  rid: string,
  ctx: HtmlContext,
  opts: { html?: string; taskId?: number } = {},
): string {
  const c = content;
  const shuffle = ` shuffle="${!!c.shuffle}"`;
  const limits = ` max-choices="${Number(c.maxChoices ?? 0)}" min-choices="${Number(c.minChoices ?? 0)}"`;
  switch (type) {
    case 'single_choice':
      return `<qti-choice-interaction response-identifier="${rid}"${shuffle} max-choices="1">${choices(
        'qti-simple-choice',
        c.options as Labelled[],
        ctx,
      )}</qti-choice-interaction>`;
    case 'multiple_choice':
      return `<qti-choice-interaction response-identifier="${rid}"${shuffle}${limits}>${choices(
        'qti-simple-choice',
        c.options as Labelled[],
        ctx,
      )}</qti-choice-interaction>`;
    case 'ordering':
      return `<qti-order-interaction response-identifier="${rid}"${shuffle}>${choices(
        'qti-simple-choice',
        c.items as Labelled[],
        ctx,
      )}</qti-order-interaction>`;
    case 'matching': {
      const n = (c.left as Labelled[]).length;
      return `<qti-match-interaction response-identifier="${rid}"${shuffle} max-associations="${n}"><qti-simple-match-set>${choices(
        'qti-simple-associable-choice',
        c.left as Labelled[],
        ctx,
        ' match-max="1"',
      )}</qti-simple-match-set><qti-simple-match-set>${choices(
        'qti-simple-associable-choice',
        c.right as Labelled[],
        ctx,
        ` match-max="${n}"`,
      )}</qti-simple-match-set></qti-match-interaction>`;
    }
    case 'associate':
      return `<qti-associate-interaction response-identifier="${rid}"${shuffle} max-associations="${Number(
        c.maxAssociations ?? 0,
      )}"${c.minAssociations ? ` min-associations="${Number(c.minAssociations)}"` : ''}>${(
        c.items as Associable[]
      )
        .map(
          (i) =>
            `<qti-simple-associable-choice identifier="${qid(i.id)}" match-max="${i.matchMax ?? 1}">${xhtml(
              i.html,
              ctx,
            )}</qti-simple-associable-choice>`,
        )
        .join('')}</qti-associate-interaction>`;
    case 'gap_match': {
      const words = (c.words as Associable[])
        .map((w) => {
          const html = xhtml(w.html, ctx);
          return /<img\b/.test(html)
            ? `<qti-gap-img identifier="${qid(w.id)}" match-max="${w.matchMax ?? 1}">${/<img\b[^>]*>/.exec(html)![0]}</qti-gap-img>`
            : `<qti-gap-text identifier="${qid(w.id)}" match-max="${w.matchMax ?? 1}">${html}</qti-gap-text>`;
        })
        .join('');
      const gaps = c.gaps as { id: string }[];
      const xml = new Map(gaps.map((g) => [g.id, `<qti-gap identifier="${qid(g.id)}"/>`]));
      const text =
        opts.html !== undefined
          ? fill(xhtml(opts.html, ctx), xml)
          : `<p>${gaps.map((g, i) => `(${i + 1}) ${xml.get(g.id)}`).join(' ')}</p>`;
      return `<qti-gap-match-interaction response-identifier="${rid}"${shuffle}>${words}<div class="attesta-task">${text}</div></qti-gap-match-interaction>`;
    }
    case 'hottext': {
      const spans = c.choices as Labelled[];
      const xml = new Map(
        spans.map((h) => [
          h.id,
          `<qti-hottext identifier="${qid(h.id)}">${xhtml(h.html, ctx)}</qti-hottext>`,
        ]),
      );
      const text =
        opts.html !== undefined ? fill(xhtml(opts.html, ctx), xml) : `<p>${[...xml.values()].join(' ')}</p>`;
      return `<qti-hottext-interaction response-identifier="${rid}"${limits}><div class="attesta-task">${text}</div></qti-hottext-interaction>`;
    }
    case 'hotspot': {
      const image = c.image as Image;
      const img = `<img src="${esc(imageSrc(image, ctx, opts.taskId))}" width="${num(image.width)}" height="${num(
        image.height,
      )}" alt="${esc(image.alt ?? '')}"/>`;
      if (c.select === 'points')
        return `<qti-select-point-interaction response-identifier="${rid}"${limits}>${img}</qti-select-point-interaction>`;
      return `<qti-hotspot-interaction response-identifier="${rid}"${limits}>${img}${(c.areas as Area[])
        .map(
          (a) =>
            `<qti-hotspot-choice identifier="${qid(a.id)}" shape="${a.shape}" coords="${a.coords.map(String).join(',')}"/>`,
        )
        .join('')}</qti-hotspot-interaction>`;
    }
    case 'short_text':
      return textEntry(rid, Math.min(Number(c.maxLength ?? 40), 40));
    case 'number':
      return textEntry(rid, 12);
    case 'digit_sequence':
      return textEntry(rid, Number(c.length ?? 10), ' pattern-mask="[0-9]*"');
    case 'extended_text':
      return `<qti-extended-text-interaction response-identifier="${rid}" expected-length="${Number(c.maxLength ?? 10000)}"/>`;
    case 'file': {
      const accept = c.accept as string[] | undefined;
      const type = accept?.length === 1 && !accept[0]!.includes('*') ? ` type="${esc(accept[0]!)}"` : '';
      return `<qti-upload-interaction response-identifier="${rid}"${type}/>`;
    }
    default:
      return '';
  }
}

// ---------------------------------------------------------------- imported answer types

const hottextTask: ItemWriter = (task, ctx) => {
  const content = task.content as { choices: Labelled[] };
  const ref = task.reference as { correct: string[] };
  const { map, processing } = choiceScoring(
    task,
    content.choices.map((c) => c.id),
    ref.correct,
  );
  return {
    declarations: [responseDecl('RESPONSE', 'multiple', 'identifier', ref.correct.map(qid), map)],
    body: interactionXml('hottext', task.content, 'RESPONSE', ctx, { html: task.html || undefined }),
    processing,
  };
};

const hotspotTask: ItemWriter = (task, ctx) => {
  const content = task.content as { areas: Area[]; select?: string };
  const ref = task.reference as { correct: string[] };
  const body = `${prompt(task, ctx)}${interactionXml('hotspot', task.content, 'RESPONSE', ctx, { taskId: task.id })}`;
  if (content.select !== 'points') {
    const { map, processing } = choiceScoring(
      task,
      content.areas.map((a) => a.id),
      ref.correct,
    );
    return {
      declarations: [responseDecl('RESPONSE', 'multiple', 'identifier', ref.correct.map(qid), map)],
      body,
      processing,
    };
  }
  // Points: an area counts as chosen when a point lies in it.
  const s = task.scoring as { map?: Record<string, number>; lowerBound?: number; upperBound?: number };
  const correct = new Set(ref.correct);
  const inside = (a: Area) =>
    `<qti-inside shape="${a.shape}" coords="${a.coords.map(String).join(',')}">${variable('RESPONSE')}</qti-inside>`;
  const add = (id: string, x: number | string) =>
    setOutcome(id, `<qti-sum>${variable(id)}${typeof x === 'number' ? base('float', x) : x}</qti-sum>`);
  const method = scoringMethod(task);
  let rules: string;
  if (method === 'per_choice' && s.map) {
    rules =
      content.areas.map((a) => ifThen(inside(a), add('SCORE', s.map![a.id] ?? 0))).join('') +
      (s.lowerBound !== undefined
        ? ifThen(
            `<qti-lt>${variable('SCORE')}${base('float', s.lowerBound)}</qti-lt>`,
            score(base('float', s.lowerBound)),
          )
        : '') +
      (s.upperBound !== undefined
        ? ifThen(
            `<qti-gt>${variable('SCORE')}${base('float', s.upperBound)}</qti-gt>`,
            score(base('float', s.upperBound)),
          )
        : '');
  } else {
    rules =
      content.areas
        .map((a) =>
          ifThen(correct.has(a.id) ? `<qti-not>${inside(a)}</qti-not>` : inside(a), add('MISTAKES', 1)),
        )
        .join('') +
      (method === 'one_mistake'
        ? score(`<qti-subtract>${base('float', task.maxScore)}${variable('MISTAKES')}</qti-subtract>`)
        : ifThen(
            `<qti-equal tolerance-mode="exact">${variable('MISTAKES')}${base('integer', 0)}</qti-equal>`,
            score(base('float', task.maxScore)),
            score(base('float', 0)),
          ));
  }
  // The correct response: a point in each key area (its centre).
  const centre = (a: Area): string => {
    const xs = a.coords.filter((_, i) => i % 2 === 0);
    const ys = a.coords.filter((_, i) => i % 2 === 1);
    const mid = (list: number[]) =>
      Math.round(list.reduce((sum, x) => sum + x, 0) / Math.max(1, list.length));
    return a.shape === 'circle' || a.shape === 'ellipse'
      ? `${Math.round(a.coords[0]!)} ${Math.round(a.coords[1]!)}`
      : `${mid(xs)} ${mid(ys)}`;
  };
  const keyPoints = content.areas.filter((a) => correct.has(a.id)).map(centre);
  return {
    declarations: [
      responseDecl('RESPONSE', 'multiple', 'point', keyPoints),
      outcomeDecl('MISTAKES', 'integer', '0'),
    ],
    body,
    processing: guarded(['RESPONSE'], rules, clamp(task.maxScore)),
    notes: [
      'points outside every area, and points in overlapping areas, are not judged as Attesta judges them',
    ],
  };
};

const gapMatchTask: ItemWriter = (task, ctx) => {
  const content = task.content as { words: Labelled[]; gaps: { id: string }[] };
  const ref = task.reference as { pairs: Record<string, string> };
  const keyed = Object.entries(ref.pairs);
  // QTI writes a gap match pair as "word gap".
  const correct = keyed.map(([gap, word]) => `${qid(word)} ${qid(gap)}`);
  const body = interactionXml('gap_match', task.content, 'RESPONSE', ctx, { html: task.html || undefined });
  const method = scoringMethod(task);
  if (method === 'all_or_nothing')
    return {
      declarations: [responseDecl('RESPONSE', 'multiple', 'directedPair', correct)],
      body,
      processing: matchCorrect(task.maxScore),
    };
  // Right gaps = keyed gaps holding their word + gaps left empty as the key wants
  //            = (gaps − keyed gaps) + mapResponse, a word in a gap that must stay empty mapping to −1.
  const empty = content.gaps.filter((g) => !Object.prototype.hasOwnProperty.call(ref.pairs, g.id));
  const map: Mapping = {
    entries: [
      ...correct.map((key) => ({ key, value: 1 })),
      ...empty.flatMap((g) => content.words.map((w) => ({ key: `${qid(w.id)} ${qid(g.id)}`, value: -1 }))),
    ],
  };
  const n = content.gaps.length;
  const right = `<qti-sum>${base('float', n - keyed.length)}<qti-map-response identifier="RESPONSE"/></qti-sum>`;
  const share = `<qti-divide><qti-product>${base('float', task.maxScore)}${right}</qti-product>${base('float', n)}</qti-divide>`;
  const rule =
    method === 'one_mistake'
      ? score(`<qti-sum>${base('float', task.maxScore - n)}${right}</qti-sum>`)
      : method === 'per_pair'
        ? score(`<qti-truncate>${share}</qti-truncate>`)
        : score(share);
  return {
    declarations: [responseDecl('RESPONSE', 'multiple', 'directedPair', correct, map)],
    body,
    processing: guarded(['RESPONSE'], rule, clamp(task.maxScore)),
  };
};

const associateTask: ItemWriter = (task, ctx) => {
  const content = task.content as { maxAssociations?: number };
  const ref = task.reference as { pairs: [string, string][] };
  const correct = ref.pairs.map(([a, b]) => `${qid(a)} ${qid(b)}`);
  const body = `${prompt(task, ctx)}${interactionXml('associate', task.content, 'RESPONSE', ctx)}`;
  if (scoringMethod(task) !== 'per_pair')
    return {
      declarations: [responseDecl('RESPONSE', 'multiple', 'pair', correct)],
      body,
      processing: matchCorrect(task.maxScore),
    };
  // per_pair: maxScore × (right − wrong) / pairs of the key; more pairs than allowed score 0.
  const max = content.maxAssociations ?? 0;
  const rule = score(
    `<qti-divide><qti-product>${base('float', task.maxScore)}<qti-map-response identifier="RESPONSE"/></qti-product>${base(
      'float',
      Math.max(1, correct.length),
    )}</qti-divide>`,
  );
  return {
    declarations: [
      responseDecl('RESPONSE', 'multiple', 'pair', correct, {
        entries: correct.map((key) => ({ key, value: 1 })),
        default: -1,
      }),
    ],
    body,
    processing: guarded(
      ['RESPONSE'],
      max > 0
        ? ifThen(
            `<qti-gt><qti-container-size>${variable('RESPONSE')}</qti-container-size>${base('integer', max)}</qti-gt>`,
            score(base('float', 0)),
            rule,
          )
        : rule,
      clamp(task.maxScore),
    ),
  };
};

/** A writer's processing as rules on RESPONSE and SCORE (a template spelt out). */
function processingRules(xml: string): string {
  if (xml.includes('rptemplates/match_correct'))
    return ifThen(
      `<qti-match>${variable('RESPONSE')}<qti-correct identifier="RESPONSE"/></qti-match>`,
      score(base('float', 1)),
      score(base('float', 0)),
    );
  if (xml.includes('rptemplates/map_response'))
    return nullGuard(['RESPONSE'], score('<qti-map-response identifier="RESPONSE"/>'));
  return xml.replace(/^<qti-response-processing>/, '').replace(/<\/qti-response-processing>$/, '');
}

/** Composite, `sum`: each part's own rule on its own response and score, then their sum. */
const compositeTask: ItemWriter = (task, ctx) => {
  if (task.scoring.method === 'qti') return qtiTask(task, ctx);
  const content = task.content as { parts: { id: string; answerType: string; content: Content }[] };
  const refs = (task.reference as { parts?: Record<string, unknown> } | null)?.parts ?? {};
  const rules =
    (task.scoring as { parts?: Record<string, { scoring: Record<string, unknown>; maxScore: number }> })
      .parts ?? {};
  const declarations: string[] = [];
  const processing: string[] = [];
  const notes: string[] = [];
  const bodies = new Map<string, string>();
  const scores: string[] = [];
  for (const part of content.parts) {
    const rid = `RESPONSE_${part.id}`;
    const rule = rules[part.id];
    const writer = ITEM_WRITERS[part.answerType];
    if (!rule || !writer || rule.scoring.method === 'qti') {
      if (rule) notes.push(`part ${part.id}: its QTI rules are not exported inside a sum`);
      bodies.set(part.id, interactionXml(part.answerType, part.content, rid, ctx, { taskId: task.id }));
      if (part.answerType === 'extended_text' || part.answerType === 'file')
        declarations.push(responseDecl(rid, 'single', part.answerType === 'file' ? 'file' : 'string', []));
      continue;
    }
    const out = writer(
      {
        ...task,
        answerType: part.answerType,
        content: part.content,
        reference: refs[part.id] ?? null,
        scoring: rule.scoring,
        maxScore: rule.maxScore,
        html: '',
        solutionHtml: null,
        criteria: null,
      },
      ctx,
    );
    const rename = (xml: string) =>
      xml.replace(
        /((?:response-)?identifier)="(RESPONSE|SCORE|MISTAKES|CORRECT)"/g,
        (_, attr: string, id: string) => `${attr}="${id}_${part.id}"`,
      );
    declarations.push(...out.declarations.map(rename), outcomeDecl(`SCORE_${part.id}`, 'float', '0'));
    processing.push(rename(processingRules(out.processing)));
    bodies.set(part.id, rename(out.body.replace(EMPTY_PROMPT, '')));
    scores.push(variable(`SCORE_${part.id}`));
    notes.push(...(out.notes ?? []).map((n) => `part ${part.id}: ${n}`));
  }
  return {
    declarations,
    body: fill(prompt(task, ctx), bodies),
    processing: rp(
      ...processing,
      score(scores.length ? `<qti-sum>${scores.join('')}</qti-sum>` : base('float', 0)),
      clamp(task.maxScore),
    ),
    notes,
  };
};

// ---------------------------------------------------------------- QTI response processing as stored

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const exact = (x: number) => String(x);
const attrs = (pairs: [string, unknown][]) =>
  pairs
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${esc(Array.isArray(v) ? v.map(String).join(' ') : String(v))}"`)
    .join('');

function expressionXml(e: QtiExpression): string {
  const tag = `qti-${kebab(e.op)}`;
  const args = 'args' in e ? e.args.map(expressionXml).join('') : '';
  let a = '';
  switch (e.op) {
    case 'baseValue':
      return `<qti-base-value base-type="${e.baseType}">${esc(String(e.value))}</qti-base-value>`;
    case 'variable':
    case 'correct':
    case 'mapResponse':
    case 'mapResponsePoint':
    case 'default':
      return `<${tag} identifier="${esc(e.id)}"/>`;
    case 'null':
      return '<qti-null/>';
    case 'equal':
      a = attrs([
        ['tolerance-mode', e.toleranceMode],
        ['tolerance', e.tolerance],
        ['include-lower-bound', e.includeLowerBound],
        ['include-upper-bound', e.includeUpperBound],
      ]);
      break;
    case 'equalRounded':
    case 'roundTo':
      a = attrs([
        ['rounding-mode', e.roundingMode],
        ['figures', e.figures],
      ]);
      break;
    case 'stringMatch':
      a = attrs([
        ['case-sensitive', e.caseSensitive],
        ['substring', e.substring],
      ]);
      break;
    case 'substring':
      a = attrs([['case-sensitive', e.caseSensitive]]);
      break;
    case 'patternMatch':
      a = attrs([['pattern', e.pattern]]);
      break;
    case 'anyN':
      a = attrs([
        ['min', e.min],
        ['max', e.max],
      ]);
      break;
    case 'index':
      a = attrs([['n', e.n]]);
      break;
    case 'fieldValue':
      a = attrs([['field-identifier', e.fieldId]]);
      break;
    case 'inside':
      a = attrs([
        ['shape', e.shape],
        ['coords', e.coords.map(String).join(',')],
      ]);
      break;
  }
  return `<${tag}${a}>${args}</${tag}>`;
}

function ruleXml(r: QtiRule): string {
  switch (r.rule) {
    case 'responseCondition':
      return `<qti-response-condition><qti-response-if>${expressionXml(r.if.cond)}${r.if.then
        .map(ruleXml)
        .join('')}</qti-response-if>${(r.elseIf ?? [])
        .map(
          (b) =>
            `<qti-response-else-if>${expressionXml(b.cond)}${b.then.map(ruleXml).join('')}</qti-response-else-if>`,
        )
        .join(
          '',
        )}${r.else ? `<qti-response-else>${r.else.map(ruleXml).join('')}</qti-response-else>` : ''}</qti-response-condition>`;
    case 'setOutcomeValue':
      return `<qti-set-outcome-value identifier="${esc(r.id)}">${expressionXml(r.value)}</qti-set-outcome-value>`;
    case 'exitResponse':
      return '<qti-exit-response/>';
    case 'responseProcessingFragment':
      return `<qti-response-processing-fragment>${r.rules.map(ruleXml).join('')}</qti-response-processing-fragment>`;
  }
}

const values = (list: readonly QtiScalar[]) => list.map((v) => value(String(v))).join('');

function responseDeclarationXml(r: QtiResponseDeclaration): string {
  const mapping = r.mapping
    ? `<qti-mapping${attrs([
        ['default-value', exact(r.mapping.defaultValue)],
        ['lower-bound', r.mapping.lowerBound],
        ['upper-bound', r.mapping.upperBound],
      ])}>${r.mapping.entries
        .map(
          (e) =>
            `<qti-map-entry${attrs([
              ['map-key', String(e.key)],
              ['mapped-value', exact(e.value)],
              ['case-sensitive', e.caseSensitive],
            ])}/>`,
        )
        .join('')}</qti-mapping>`
    : '';
  const areas = r.areaMapping
    ? `<qti-area-mapping${attrs([
        ['default-value', exact(r.areaMapping.defaultValue)],
        ['lower-bound', r.areaMapping.lowerBound],
        ['upper-bound', r.areaMapping.upperBound],
      ])}>${r.areaMapping.entries
        .map(
          (e) =>
            `<qti-area-map-entry${attrs([
              ['shape', e.shape],
              ['coords', e.coords.map(String).join(',')],
              ['mapped-value', exact(e.value)],
            ])}/>`,
        )
        .join('')}</qti-area-mapping>`
    : '';
  return `<qti-response-declaration${attrs([
    ['identifier', r.id],
    ['cardinality', r.cardinality],
    ['base-type', r.baseType],
  ])}>${r.correct ? `<qti-correct-response>${values(r.correct)}</qti-correct-response>` : ''}${mapping}${areas}</qti-response-declaration>`;
}

function outcomeDeclarationXml(o: QtiOutcomeDeclaration): string {
  const defaults =
    o.defaultValue === undefined
      ? ''
      : `<qti-default-value>${values(Array.isArray(o.defaultValue) ? o.defaultValue : [o.defaultValue])}</qti-default-value>`;
  return `<qti-outcome-declaration${attrs([
    ['identifier', o.id],
    ['cardinality', o.cardinality],
    ['base-type', o.baseType],
    ['normal-maximum', o.normalMaximum],
    ['normal-minimum', o.normalMinimum],
  ])}>${defaults}</qti-outcome-declaration>`;
}

/**
 * Any answer type scored by the item's own QTI response processing (`method: 'qti'`): its stored
 * declarations and rules written back as QTI 3.0, so an import of the export scores the same; SCORE
 * gets the task's maxScore as its normal maximum.
 */
const qtiTask: ItemWriter = (task, ctx) => {
  const s = renameIdentifiers(task.scoring as never, qid) as unknown as QtiScoring;
  const rid = (slot: string) =>
    'parts' in s.bind ? (s.bind.parts[slot] ?? `RESPONSE_${slot}`) : s.bind.response;
  const single = 'response' in s.bind ? s.bind.response : 'RESPONSE';
  let body: string;
  switch (task.answerType) {
    case 'cloze':
      body = fill(
        prompt(task, ctx),
        new Map(
          (task.content as { blanks: Blank[] }).blanks.map((b) => [
            b.id,
            blankInteraction(b, rid(b.id), ctx),
          ]),
        ),
      );
      break;
    case 'composite':
      body = fill(
        prompt(task, ctx),
        new Map(
          (task.content as { parts: { id: string; answerType: string; content: Content }[] }).parts.map(
            (p) => [p.id, interactionXml(p.answerType, p.content, rid(p.id), ctx, { taskId: task.id })],
          ),
        ),
      );
      break;
    case 'gap_match':
    case 'hottext':
      body = interactionXml(task.answerType, task.content, single, ctx, { html: task.html || undefined });
      break;
    case 'short_text':
    case 'number':
    case 'digit_sequence':
      body = `${prompt(task, ctx)}<p>${interactionXml(task.answerType, task.content, single, ctx)}</p>`;
      break;
    default:
      body = `${prompt(task, ctx)}${interactionXml(task.answerType, task.content, single, ctx, { taskId: task.id })}`;
  }
  const outcomes = s.outcomes.some((o) => o.id === 'SCORE')
    ? s.outcomes
    : [{ id: 'SCORE', cardinality: 'single' as const, baseType: 'float' as const }, ...s.outcomes];
  const toScore = s.scoreOutcome !== 'SCORE' ? score(variable(s.scoreOutcome)) : '';
  return {
    declarations: s.responses.map(responseDeclarationXml),
    outcomes: outcomes.map((o) =>
      outcomeDeclarationXml(o.id === 'SCORE' ? { ...o, normalMaximum: task.maxScore } : o),
    ),
    body,
    processing:
      s.template && !toScore ? template(s.template) : rp((s.rules ?? []).map(ruleXml).join(''), toScore),
  };
};

/** The writer of each answer type (one function each). */
export const ITEM_WRITERS: Record<string, ItemWriter> = {
  single_choice: singleChoice,
  multiple_choice: multipleChoice,
  short_text: shortText,
  number: numberTask,
  digit_sequence: digitSequence,
  ordering,
  matching,
  cloze,
  extended_text: extendedText,
  file: fileTask,
  gap_match: gapMatchTask,
  associate: associateTask,
  hottext: hottextTask,
  hotspot: hotspotTask,
  composite: compositeTask,
};

const unknownType: ItemWriter = (task, ctx) => ({
  declarations: [],
  body: prompt(task, ctx),
  processing: '',
  external: true,
  notes: [`answer type ${task.answerType} has no QTI 3.0 mapping yet: only its text is exported`],
});

/**
 * The task with its choices known by the source's identifiers again (an imported task keeps them,
 * `choiceIds`): results keyed by the source's ids line up with the exported item (defect 7d). Ids
 * are renamed in the content (not its html or text), the key and the scoring (QTI rules by their
 * own renaming); nothing is renamed when a source identifier would equal another id of the task.
 */
export function withSourceIds(task: ExportTask): ExportTask {
  const ids = new Set<string>();
  const html: string[] = [task.html];
  const collect = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (k === 'id' && typeof x === 'string') ids.add(x);
        else if (k === 'html' && typeof x === 'string') html.push(x);
        else collect(x);
      }
  };
  collect(task.content);
  // An id placed in the html as {{id}} (a gap, a hottext span) stays ours: the html is not renamed.
  const placed = html.join('\n');
  const map = Object.fromEntries(
    Object.entries(task.choiceIds ?? {}).filter(([ours]) => !placed.includes(`{{${ours}}}`)),
  );
  if (!Object.keys(map).length) return task;
  const targets = new Set(Object.values(map));
  if ([...ids].some((id) => !(id in map) && targets.has(id)) || targets.size !== Object.keys(map).length)
    return task;
  const rename = (id: string) => map[id] ?? id;
  const value = (s: string) =>
    s.includes(' ') && s.split(' ').every((t) => t in map) ? s.split(' ').map(rename).join(' ') : rename(s);
  const deep = (v: unknown, key?: string): unknown => {
    if (typeof v === 'string') return key === 'html' || key === 'text' ? v : value(v);
    if (Array.isArray(v)) return v.map((x) => deep(x));
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, x]) => [rename(k), deep(x, k)]),
    );
  };
  const scoring =
    task.scoring.method === 'qti'
      ? (renameIdentifiers(task.scoring as never, rename) as unknown as Record<string, unknown>)
      : (deep(task.scoring) as Record<string, unknown>);
  return {
    ...task,
    content: deep(task.content) as Record<string, unknown>,
    reference: deep(task.reference),
    scoring,
  };
}

/** One item file. */
export function itemXml(exported: ExportTask, identifier: string, ctx: HtmlContext): string {
  const task = withSourceIds(exported);
  const writer = task.scoring?.method === 'qti' ? qtiTask : (ITEM_WRITERS[task.answerType] ?? unknownType);
  const parts = writer(task, ctx);
  const isResponse = (d: string) => d.startsWith('<qti-response-declaration');
  const title = task.title ?? `Задание ${task.id}`;
  const solution = task.solutionHtml
    ? `<qti-rubric-block use="instructions" view="scorer"><qti-content-body><div>${xhtml(task.solutionHtml, ctx)}</div></qti-content-body></qti-rubric-block>`
    : '';
  const notes = (parts.notes ?? []).map((n) => `<!-- Attesta: ${esc(n).replace(/--/g, '—')} -->`).join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<qti-assessment-item xmlns="${QTI_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
    `xsi:schemaLocation="${QTI_NS} ${QTI_XSD}" identifier="${esc(identifier)}" title="${esc(title)}" ` +
    `adaptive="false" time-dependent="false">${notes}` +
    parts.declarations.filter(isResponse).join('') +
    parts.declarations.filter((d) => !isResponse(d)).join('') +
    (parts.outcomes?.join('') ??
      outcomeDecl(
        'SCORE',
        'float',
        '0',
        `${parts.external ? ' external-scored="human"' : ''} normal-maximum="${num(task.maxScore)}"`,
      ) + outcomeDecl('MAXSCORE', 'float', num(task.maxScore))) +
    `<qti-item-body>${parts.body}${solution}</qti-item-body>` +
    parts.processing +
    `</qti-assessment-item>\n`
  );
}

// ---------------------------------------------------------------- package

const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '') || 'file';

/** Unique QTI identifiers: a task keeps its source id when it is one, else `task-<id>`. */
function identifiers(tasks: ExportTask[]): Map<number, string> {
  const used = new Set<string>();
  const out = new Map<number, string>();
  for (const task of tasks) {
    const source =
      task.sourceId && NCNAME.test(task.sourceId) && task.sourceId.length <= 200 ? task.sourceId : null;
    let id = source && !used.has(source) ? source : `task-${task.id}`;
    while (used.has(id)) id = `${id}_`;
    used.add(id);
    out.set(task.id, id);
  }
  return out;
}

function testXml(test: ExportTest, identifier: string, itemIds: Map<number, string>): string {
  const refs = (taskIds: number[], n: number, seen: Set<string>) =>
    taskIds
      .map((taskId) => {
        const id = itemIds.get(taskId)!;
        let refId = id;
        if (seen.has(refId)) refId = `${id}-v${n}`;
        seen.add(refId);
        return `<qti-assessment-item-ref identifier="${esc(refId)}" href="items/${esc(id)}.xml"/>`;
      })
      .join('');
  const seen = new Set<string>();
  const sections = test.variants.map(
    (v) =>
      `<qti-assessment-section identifier="variant-${v.number}" title="Вариант ${v.number}" visible="true">${refs(
        v.taskIds,
        v.number,
        seen,
      )}</qti-assessment-section>`,
  );
  const body =
    sections.length > 1
      ? `<qti-assessment-section identifier="variants" title="${esc(test.name)}" visible="false"><qti-selection select="1"/>${sections.join(
          '',
        )}</qti-assessment-section>`
      : (sections[0] ?? `<qti-assessment-section identifier="variant-1" title="Вариант 1" visible="true"/>`);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<qti-assessment-test xmlns="${QTI_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
    `xsi:schemaLocation="${QTI_NS} ${QTI_XSD}" identifier="${esc(identifier)}" title="${esc(test.name)}">` +
    `<qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>` +
    `<qti-test-part identifier="part-1" navigation-mode="nonlinear" submission-mode="simultaneous">${body}</qti-test-part>` +
    `<qti-outcome-processing>${setOutcome('SCORE', `<qti-sum><qti-test-variables variable-identifier="SCORE"/></qti-sum>`)}</qti-outcome-processing>` +
    `</qti-assessment-test>\n`
  );
}

/** Every file of the package: path → bytes. */
export function qti3Files(test: ExportTest, tasks: ExportTask[], files: ExportFile[]): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const itemIds = identifiers(tasks);
  const used = new Set(itemIds.values());
  let testId = test.sourceId && NCNAME.test(test.sourceId) ? test.sourceId : `test-${test.id}`;
  while (used.has(testId)) testId = `${testId}_`;
  used.add(testId);

  const mediaPath = new Map<number, string>();
  const mediaOf = new Map<number, ExportFile[]>();
  for (const f of files) {
    mediaPath.set(f.id, `media/${f.id}-${safeName(f.name)}`);
    if (f.ownerId !== null) mediaOf.set(f.ownerId, [...(mediaOf.get(f.ownerId) ?? []), f]);
  }
  const byName = new Map<number, Map<string, string>>();
  for (const [ownerId, list] of mediaOf)
    byName.set(ownerId, new Map(list.map((f) => [baseName(f.name), mediaPath.get(f.id)!])));
  const ctx: HtmlContext = { media: mediaPath, byName };

  const resources: string[] = [];
  for (const task of tasks) {
    const id = itemIds.get(task.id)!;
    const href = `items/${id}.xml`;
    out.set(href, Buffer.from(itemXml(task, id, ctx)));
    const media = mediaOf.get(task.id) ?? [];
    for (const f of media) out.set(`items/${mediaPath.get(f.id)}`, f.data);
    resources.push(
      `<resource identifier="${esc(id)}" type="imsqti_item_xmlv3p0" href="${esc(href)}"><file href="${esc(href)}"/>${media
        .map((f) => `<file href="${esc(`items/${mediaPath.get(f.id)}`)}"/>`)
        .join('')}</resource>`,
    );
  }
  out.set('assessment-test.xml', Buffer.from(testXml(test, testId, itemIds)));
  const manifest =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<manifest xmlns="${CP_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
    `xsi:schemaLocation="${CP_NS} ${CP_XSD}" identifier="manifest-${esc(testId)}">` +
    `<metadata><schema>QTI Package</schema><schemaversion>3.0.0</schemaversion></metadata><organizations/>` +
    `<resources><resource identifier="${esc(testId)}" type="imsqti_test_xmlv3p0" href="assessment-test.xml">` +
    `<file href="assessment-test.xml"/>${tasks.map((t) => `<dependency identifierref="${esc(itemIds.get(t.id)!)}"/>`).join('')}</resource>` +
    `${resources.join('')}</resources></manifest>\n`;
  out.set('imsmanifest.xml', Buffer.from(manifest));
  return out;
}

/** The package as a zip (imsmanifest.xml first). */
export async function qti3Package(
  test: ExportTest,
  tasks: ExportTask[],
  files: ExportFile[],
): Promise<Buffer> {
  const entries = qti3Files(test, tasks, files);
  const archive = archiver('zip', { zlib: { level: 6 } });
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  archive.append(entries.get('imsmanifest.xml')!, { name: 'imsmanifest.xml' });
  for (const [path, data] of entries) if (path !== 'imsmanifest.xml') archive.append(data, { name: path });
  await archive.finalize();
  await done;
  return Buffer.concat(chunks);
}
