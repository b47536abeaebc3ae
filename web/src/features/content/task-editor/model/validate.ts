/**
 * Checks a draft with the contract's own task model (`taskDefinitionSchema`) before it is sent,
 * plus what the model leaves to the html (each `{{id}}` gap once) and to the rubric (a criterion's
 * points a multiple of its step). Each problem has the dotted path of its field
 * (`content.options.2.html`) and a sentence in the interface language chosen by the issue's code
 * or the contract's rule, never its English message.
 */
import {
  clozePlaceholders,
  isManualAnswerType,
  placeholderIdsOf,
  taskDefinitionSchema,
} from '@attesta/contract';
import type { FieldError } from '@attesta/contract';
import type { LooseT } from '../../../../components/data-table/use-bundle-t';
import { cleanContent, type TaskDraft } from './draft';

export interface Problem {
  /** Dotted path of the field, as the forms name their fields. */
  path: string;
  message: string;
}

/** The structural part of a zod issue that is read here. */
interface IssueLike {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  minimum?: unknown;
  maximum?: unknown;
  origin?: string;
  format?: string;
}

/** The contract's rule messages (content.ts) and the words they are shown in. */
const RULES: Record<string, string> = {
  'not an option id': 'pickCorrect',
  'not an id of the task': 'pickCorrect',
  'must give points for every option': 'mapEveryOption',
  'per_choice needs a map': 'mapEveryOption',
  'per_answer needs scored answers': 'scoredAnswersNeeded',
  'differs from the length of the key': 'lengthDiffers',
  'must list every item exactly once': 'orderEveryItem',
  'must match every left item': 'pairEveryLeft',
  'not a right item id': 'pairEveryLeft',
  'must give accepted values for every blank': 'acceptedEveryBlank',
  'weighted needs scored answers for every blank': 'scoredEveryBlank',
  'numeric answers only suit a number gap': 'numericOnlyNumberGap',
  'not an option id of the drop-down': 'notADropDownOption',
  'manually graded tasks need rubric criteria': 'criteriaNeeded',
  'criteria points must add up to maxScore': 'criteriaSum',
  'must be a whole number for this scoring method': 'wholeMaxScore',
  'exceeds maxChoices': 'minAboveMax',
  'is less than the number of correct choices': 'maxBelowCorrect',
  'lowerBound must not exceed upperBound': 'boundsOrder',
  'min must not exceed max': 'rangeOrder',
  'ids must be distinct': 'distinct',
};

function issueText(issue: IssueLike, t: LooseT): string {
  const last = String(issue.path[issue.path.length - 1] ?? '');
  switch (issue.code) {
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'array' && min > 1) return t('taskEditor.problem.atLeast', { count: min });
      if (issue.origin === 'number' || issue.origin === 'int')
        return t(
          issue.path[0] === 'maxScore' || last === 'maxScore'
            ? 'taskEditor.problem.positive'
            : 'taskEditor.problem.min',
          { min },
        );
      return t('taskEditor.problem.required');
    }
    case 'too_big':
      return issue.origin === 'string'
        ? t('taskEditor.problem.maxLength', { max: Number(issue.maximum) })
        : issue.origin === 'array'
          ? t('taskEditor.problem.atMost', { count: Number(issue.maximum) })
          : t('taskEditor.problem.max', { max: Number(issue.maximum) });
    case 'invalid_type':
      return t('taskEditor.problem.required');
    case 'invalid_format':
      if (last === 'digits') return t('taskEditor.problem.digitsOnly');
      if (last === 'correct') return t('taskEditor.problem.pickCorrect');
      if (issue.path.includes('accept')) return t('taskEditor.problem.mime');
      return t('taskEditor.problem.invalid');
    case 'invalid_union':
      if (issue.path[0] === 'reference') return t('taskEditor.problem.numberKey');
      return t('taskEditor.problem.invalid');
    case 'custom': {
      const rule = RULES[issue.message];
      return rule ? t(`taskEditor.problem.${rule}`) : t('taskEditor.problem.invalid');
    }
    default:
      return t('taskEditor.problem.invalid');
  }
}

const htmlIsEmpty = (html: string) => {
  const template = document.createElement('template');
  template.innerHTML = html;
  return !(template.content.textContent ?? '').trim() && !template.content.querySelector('img, math, table');
};

/** Every problem of the draft, in the order of the page. */
export function validateDraft(draft: TaskDraft, t: LooseT): Problem[] {
  const problems: Problem[] = [];
  const add = (path: string, message: string) => {
    if (!problems.some((p) => p.path === path && p.message === message)) problems.push({ path, message });
  };
  if (htmlIsEmpty(draft.html)) add('html', t('taskEditor.problem.htmlRequired'));

  const placeholders = placeholderIdsOf(draft.answerType, draft.content);
  if (placeholders) {
    const found = clozePlaceholders(draft.html);
    placeholders.forEach((id, i) => {
      const n = found.filter((x) => x === id).length;
      const path = draft.answerType === 'cloze' ? `content.blanks.${i}` : 'html';
      if (n === 0) add(path, t('taskEditor.problem.gapMissing', { n: i + 1 }));
      else if (n > 1) add(path, t('taskEditor.problem.gapTwice', { n: i + 1 }));
    });
    if (found.some((id) => !placeholders.includes(id))) add('html', t('taskEditor.problem.gapUnknown'));
  }

  const manual = isManualAnswerType(draft.answerType);
  const parsed = taskDefinitionSchema.safeParse({
    answerType: draft.answerType,
    content: cleanContent(draft.content),
    reference: manual ? null : draft.reference,
    scoring: draft.scoring,
    maxScore: draft.maxScore,
    criteria: manual ? draft.criteria.map(({ step: _step, ...c }) => c) : undefined,
  });
  if (!parsed.success)
    for (const issue of parsed.error.issues as readonly IssueLike[])
      add(issue.path.map(String).join('.'), issueText(issue, t));

  if (manual)
    draft.criteria.forEach((c, i) => {
      if (c.maxScore === undefined || c.step === 1) return;
      if (Math.abs(c.maxScore / c.step - Math.round(c.maxScore / c.step)) > 1e-9)
        add(`criteria.${i}.step`, t('taskEditor.problem.stepMultiple'));
    });
  return problems;
}

/** A 400 answer's field errors as problems: by path and code, never the server's message. */
export function serverProblems(errors: readonly FieldError[], draft: TaskDraft, t: LooseT): Problem[] {
  const local = validateDraft(draft, t);
  return errors.map((e) => {
    const path = e.path.replace(/^body\./, '');
    const known = local.find((p) => p.path === path);
    if (known) return known;
    const text =
      e.code === 'step'
        ? t('taskEditor.problem.stepMultiple')
        : e.code === 'custom' || !e.code
          ? t('taskEditor.problem.invalid')
          : issueText(
              {
                code: e.code,
                path: path.split('.'),
                message: '',
                minimum: e.params?.minimum,
                maximum: e.params?.maximum,
                origin: typeof e.params?.origin === 'string' ? e.params.origin : undefined,
              },
              t,
            );
    return { path, message: text };
  });
}
