import { TASK_SCHEMAS, type AnswerType, type FieldError } from '@attesta/contract';

/*
 * Checks a saved answer value against its task: first the shape (TASK_SCHEMAS[type].value, built
 * once at import), then against the task's own content (option ids that exist, lengths). The
 * content is read as stored, without a schema parse, to keep the save path lean.
 */

export interface AnswerTask {
  answerType: string;
  content: Record<string, unknown>;
}

export type ValueCheck = { ok: true; value: unknown } | { ok: false; errors: FieldError[] };

const idsOf = (list: unknown): Set<string> =>
  new Set(Array.isArray(list) ? list.map((x) => String((x as { id?: unknown }).id)) : []);

const num = (v: unknown, fallback: number) => (typeof v === 'number' ? v : fallback);

export function checkAnswerValue(task: AnswerTask, value: unknown, path: string): ValueCheck {
  const type = task.answerType as AnswerType;
  const schema = TASK_SCHEMAS[type]?.value;
  if (!schema) return { ok: false, errors: [{ path, message: `unknown answer type ${task.answerType}` }] };
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((i) => ({
        path: [path, ...i.path.map(String)].join('.'),
        message: i.message,
      })),
    };
  }
  const problem = contentProblem(type, task.content, parsed.data);
  return problem ? { ok: false, errors: [{ path, message: problem }] } : { ok: true, value: parsed.data };
}

/** What is wrong with a well-shaped value given the task content, or null. */
function contentProblem(type: AnswerType, c: Record<string, unknown>, v: unknown): string | null {
  switch (type) {
    case 'single_choice':
      return v === '' || idsOf(c.options).has(v as string) ? null : 'not an option of this task';
    case 'multiple_choice': {
      const chosen = v as string[];
      if (chosen.some((id) => !idsOf(c.options).has(id))) return 'not an option of this task';
      if (new Set(chosen).size !== chosen.length) return 'an option is chosen twice';
      return chosen.length > num(c.maxChoices, Infinity) ? `at most ${String(c.maxChoices)} options` : null;
    }
    case 'short_text':
      return (v as string).length > num(c.maxLength, 100)
        ? `longer than ${num(c.maxLength, 100)} characters`
        : null;
    case 'extended_text':
      return (v as string).length > num(c.maxLength, 10_000)
        ? `longer than ${num(c.maxLength, 10_000)} characters`
        : null;
    case 'digit_sequence':
      return (v as string).length > num(c.length, 50) ? `more than ${num(c.length, 50)} digits` : null;
    case 'ordering': {
      const order = v as string[];
      if (order.some((id) => !idsOf(c.items).has(id))) return 'not an item of this task';
      return new Set(order).size !== order.length ? 'an item is listed twice' : null;
    }
    case 'matching': {
      const left = idsOf(c.left);
      const right = idsOf(c.right);
      const pairs = Object.entries(v as Record<string, string>);
      return pairs.every(([l, r]) => left.has(l) && right.has(r)) ? null : 'not an item of this task';
    }
    case 'cloze':
      return clozeProblem(c, v as Record<string, string>);
    case 'file': {
      const ids = (v as { fileIds: number[] }).fileIds;
      if (new Set(ids).size !== ids.length) return 'a file is listed twice';
      return ids.length > num(c.maxFiles, 1) ? `at most ${num(c.maxFiles, 1)} files` : null;
    }
    case 'number':
      return null;
  }
}

function clozeProblem(c: Record<string, unknown>, v: Record<string, string>): string | null {
  const blanks = new Map(
    (Array.isArray(c.blanks) ? c.blanks : []).map(
      (b: { id: string; kind: string; options?: { id: string }[] }) => [b.id, b],
    ),
  );
  for (const [id, text] of Object.entries(v)) {
    const blank = blanks.get(id);
    if (!blank) return `no blank ${id} in this task`;
    if (blank.kind === 'choice' && text !== '' && !idsOf(blank.options).has(text))
      return `not an option of blank ${id}`;
  }
  return null;
}
