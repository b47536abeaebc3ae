import { taskAnswerTypeSchema, taskDefinitionSchema, type ContentProblem } from '@attesta/contract';
import { InvalidTaskError, isAutoScored, scoreAnswer } from '../scoring/index.js';

/*
 * What stops a subject test from being published (issue 11): every task answerable and scorable
 * (its definition passes the task model, it has a key, options to choose from, a key among them,
 * and the scoring engine accepts it), no variant empty, every variant of one max score, and a mark
 * scale that starts at 0 and whose every step can be reached. A pure function of the content.
 */

export interface TaskUnderCheck {
  id: number;
  answerType: string;
  content: unknown;
  reference: unknown;
  scoring: unknown;
  maxScore: number;
  criteria: unknown;
}

export interface VariantUnderCheck {
  id: number;
  number: number;
  tasks: { position: number; maxScore: number; task: TaskUnderCheck }[];
}

export interface ContentUnderCheck {
  markScale: readonly { mark: string; minScore: number }[];
  variants: readonly VariantUnderCheck[];
}

type TaskProblem = Pick<ContentProblem, 'code' | 'message'>;

/** Why one task cannot be answered or scored, each kind once; empty when it can. */
export function taskProblems(task: TaskUnderCheck): TaskProblem[] {
  if (!taskAnswerTypeSchema.safeParse(task.answerType).success)
    return [{ code: 'unknown_answer_type', message: `«${task.answerType}» is not an answer type` }];
  const found = new Map<string, string>();
  const add = (code: string, message: string) => {
    if (!found.has(code)) found.set(code, message);
  };
  const keyMissing =
    isAutoScored(task.answerType) && (task.reference === null || task.reference === undefined);
  if (keyMissing) add('missing_key', 'the task has no reference answer');
  const parsed = taskDefinitionSchema.safeParse({
    answerType: task.answerType,
    content: task.content,
    reference: task.reference ?? null,
    scoring: task.scoring,
    maxScore: task.maxScore,
    criteria: task.criteria ?? undefined,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const where = issue.path.join('.');
      const message = `${where || 'task'}: ${issue.message}`;
      const part = issue.path[0];
      if (part === 'reference' && keyMissing) continue;
      if (part === 'content' && issue.code === 'too_small') add('empty_options', message);
      else if (issue.code === 'custom' && (part === 'reference' || part === 'scoring'))
        add('key_outside_options', message);
      else add('invalid_definition', message);
    }
    // Without options every key is outside them: the missing options are the problem.
    if (found.has('empty_options')) found.delete('key_outside_options');
    return [...found].map(([code, message]) => ({ code, message }));
  }
  try {
    scoreAnswer(task, null);
  } catch (err) {
    if (!(err instanceof InvalidTaskError)) throw err;
    add('unscorable', err.message);
  }
  return [...found].map(([code, message]) => ({ code, message }));
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** Every problem of the content, in order: tasks by variant and position, then variants, then the scale. */
export function validateContent(content: ContentUnderCheck): {
  problems: ContentProblem[];
  maxScore: number | null;
} {
  const problems: ContentProblem[] = [];
  if (!content.variants.length) problems.push({ code: 'no_variants', message: 'the test has no variants' });
  const checked = new Map<number, TaskProblem[]>();
  const maxima: { variantId: number; number: number; max: number }[] = [];
  for (const v of content.variants) {
    if (!v.tasks.length) {
      problems.push({ variantId: v.id, code: 'variant_empty', message: `variant ${v.number} has no tasks` });
      continue;
    }
    for (const t of v.tasks) {
      let found = checked.get(t.task.id);
      if (!found) checked.set(t.task.id, (found = taskProblems(t.task)));
      for (const p of found)
        problems.push({
          variantId: v.id,
          taskId: t.task.id,
          position: t.position,
          code: p.code,
          message: `variant ${v.number}, task ${t.position}: ${p.message}`,
        });
      if (!(t.maxScore > 0))
        problems.push({
          variantId: v.id,
          taskId: t.task.id,
          position: t.position,
          code: 'bad_max_score',
          message: `variant ${v.number}, task ${t.position}: the max score must be positive`,
        });
    }
    maxima.push({
      variantId: v.id,
      number: v.number,
      max: round(v.tasks.reduce((s, t) => s + t.maxScore, 0)),
    });
  }

  const reference = maxima[0];
  for (const m of maxima.slice(1))
    if (m.max !== reference!.max)
      problems.push({
        variantId: m.variantId,
        code: 'unequal_max_score',
        message: `variant ${m.number} gives ${m.max} points, variant ${reference!.number} gives ${reference!.max}`,
      });

  const steps = content.markScale;
  if (!steps.length) problems.push({ code: 'mark_scale_missing', message: 'the test has no mark scale' });
  else {
    const lowest = Math.min(...steps.map((s) => s.minScore));
    if (lowest > 0)
      problems.push({
        code: 'mark_scale_not_from_zero',
        message: `scores below ${lowest} get no mark: the lowest step must start at 0`,
      });
    for (const m of maxima) {
      const beyond = steps.filter((s) => s.minScore > m.max + 1e-9);
      if (beyond.length)
        problems.push({
          variantId: m.variantId,
          code: 'mark_scale_above_max',
          message: `variant ${m.number} gives at most ${m.max} points: mark ${beyond.map((s) => s.mark).join(', ')} cannot be reached`,
        });
    }
  }
  const agreed = maxima.length && maxima.every((m) => m.max === reference!.max) ? reference!.max : null;
  return { problems, maxScore: agreed };
}
