import archiver from 'archiver';
import { XMLValidator } from 'fast-xml-parser';
import { htmlToText, sanitizeHtml } from '../../../lib/sanitize.js';

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

const num = (n: number) => (Number.isFinite(n) ? String(Math.round(n * 1e6) / 1e6) : '0');

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
/** A null (unanswered) response scores 0 and ends processing. */
const zeroIfNull = (...ids: string[]) =>
  ifThen(
    ids.length === 1
      ? `<qti-is-null>${variable(ids[0]!)}</qti-is-null>`
      : `<qti-and>${ids.map((id) => `<qti-is-null>${variable(id)}</qti-is-null>`).join('')}</qti-and>`,
    `${score(base('float', 0))}<qti-exit-response/>`,
  );
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
  lower?: number;
  upper?: number;
}
const mapping = (m: Mapping) =>
  `<qti-mapping default-value="0"${m.lower !== undefined ? ` lower-bound="${num(m.lower)}"` : ''}${
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

/** An XSD regular expression matching a Moodle-style wildcard answer (* = any run). */
export function wildcardPattern(text: string, caseSensitive: boolean): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && text[i + 1] === '*') {
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

const multipleChoice: ItemWriter = (task, ctx) => {
  const content = task.content as {
    options: Labelled[];
    shuffle?: boolean;
    minChoices?: number;
    maxChoices?: number;
  };
  const ref = task.reference as { correct: string[] };
  const s = task.scoring as {
    method?: string;
    map?: Record<string, number>;
    lowerBound?: number;
    upperBound?: number;
  };
  const correct = new Set(ref.correct);
  const method = scoringMethod(task);
  let map: Mapping | undefined;
  let processing: string;
  if (method === 'per_choice' && s.map) {
    map = {
      entries: Object.entries(s.map).map(([k, v]) => ({ key: qid(k), value: v })),
      lower: Math.max(0, s.lowerBound ?? 0),
      upper: Math.min(task.maxScore, s.upperBound ?? task.maxScore),
    };
    processing = template('map_response');
  } else if (method === 'one_mistake') {
    // mistakes = wrong choices + missing correct ones: score = max − |correct| + Σ(+1 correct, −1 wrong chosen).
    map = { entries: content.options.map((o) => ({ key: qid(o.id), value: correct.has(o.id) ? 1 : -1 })) };
    processing = rp(
      zeroIfNull('RESPONSE'),
      score(
        `<qti-sum>${base('float', task.maxScore - correct.size)}<qti-map-response identifier="RESPONSE"/></qti-sum>`,
      ),
      clamp(task.maxScore),
    );
  } else processing = matchCorrect(task.maxScore);
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
  answers: { text: string; points: number }[],
  s: { caseSensitive?: boolean; wildcards?: boolean },
  max: number,
): { map?: Mapping; rules: string } {
  const caseSensitive = !!s.caseSensitive;
  if (s.wildcards) {
    const branches = answers.map((a) => ({
      cond: patternMatch(id, wildcardPattern(a.text, caseSensitive)),
      then: score(base('float', a.points)),
    }));
    return { rules: zeroIfNull(id) + chain(branches, score(base('float', 0))) + clamp(max) };
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
    declarations: [responseDecl('RESPONSE', 'single', 'string', ref.accepted.slice(0, 1), scoring.map)],
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
  const correct = 'value' in ref ? [num(ref.value)] : [];
  return {
    declarations: [responseDecl('RESPONSE', 'single', 'float', correct)],
    body: `${prompt(task, ctx)}<p>${textEntry('RESPONSE', 12)}${content.unit ? ` ${esc(content.unit)}` : ''}</p>`,
    processing: rp(
      zeroIfNull('RESPONSE'),
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
      : rp(
          zeroIfNull('RESPONSE'),
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
      ? rp(
          zeroIfNull('RESPONSE'),
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
    processing = rp(
      zeroIfNull('RESPONSE'),
      score(`<qti-sum>${base('float', task.maxScore - n)}${mapped}</qti-sum>`),
      clamp(task.maxScore),
    );
  } else if (method === 'per_pair') {
    map = { entries: pairs.map((key) => ({ key, value: 1 })) };
    processing = rp(
      zeroIfNull('RESPONSE'),
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
  options?: { id: string; text: string }[];
};

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
        ? { key: blank.kind === 'choice' ? qid(a.text) : a.text, value: a.points }
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
        accepted.slice(0, 1).map((a) => (isChoice ? qid(a) : a)),
        {
          entries: entries.map((e) => (isChoice ? e : { ...e, caseSensitive: !!s.caseSensitive })),
        },
      ),
    );
  }
  if (s.wildcards) notes.push('wildcards in gap answers are compared literally');
  let body = prompt(task, ctx);
  for (const blank of content.blanks) {
    const interaction =
      blank.kind === 'choice'
        ? `<qti-inline-choice-interaction response-identifier="${rid(blank)}" shuffle="false">${(
            blank.options ?? []
          )
            .map((o) => `<qti-inline-choice identifier="${qid(o.id)}">${esc(o.text)}</qti-inline-choice>`)
            .join('')}</qti-inline-choice-interaction>`
        : textEntry(rid(blank), blank.width ?? 10);
    body = body.split(`{{${blank.id}}}`).join(interaction);
  }
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
    processing: rp(zeroIfNull(...content.blanks.map(rid)), rules, clamp(task.maxScore)),
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
};

const unknownType: ItemWriter = (task, ctx) => ({
  declarations: [],
  body: prompt(task, ctx),
  processing: '',
  external: true,
  notes: [`answer type ${task.answerType} has no QTI 3.0 mapping yet: only its text is exported`],
});

/** One item file. */
export function itemXml(task: ExportTask, identifier: string, ctx: HtmlContext): string {
  const writer = ITEM_WRITERS[task.answerType] ?? unknownType;
  const parts = writer(task, ctx);
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
    parts.declarations.join('') +
    outcomeDecl(
      'SCORE',
      'float',
      '0',
      `${parts.external ? ' external-scored="human"' : ''} normal-maximum="${num(task.maxScore)}"`,
    ) +
    outcomeDecl('MAXSCORE', 'float', num(task.maxScore)) +
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
  const ctx: HtmlContext = { media: mediaPath };

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
