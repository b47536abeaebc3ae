import type { TaskDefinitionInput } from '@attesta/contract';
import { describe, expect, it } from 'vitest';
import { DEMO_SUBJECT_TESTS } from '../../demo/data/subject-tests.js';
import { scoreAnswer } from './score.js';

/*
 * Every demo task, answered with its own key, earns full marks; answered with nothing, 0.
 * The demo tasks are authored with contract defaults left out, as real imported content may be.
 */

const tasks = DEMO_SUBJECT_TESTS.flatMap((test) =>
  test.variants.flatMap((variant, v) =>
    variant.map((task, i) => ({
      name: `${test.name}, вариант ${v + 1}, задание ${i + 1} (${task.definition.answerType})`,
      definition: task.definition,
    })),
  ),
);

/** The participant's answer a perfect student gives, built from the key. */
function perfectAnswer(d: TaskDefinitionInput): unknown {
  switch (d.answerType) {
    case 'single_choice':
      return d.reference.correct;
    case 'multiple_choice':
      return [...d.reference.correct].reverse();
    case 'short_text':
      return `  ${d.reference.accepted[0]!.toLocaleUpperCase('ru')} `;
    case 'number': {
      const r = d.reference;
      const x = 'value' in r ? r.value : r.min;
      return (
        String(x).replace('.', ',') + ('unit' in d.content && d.content.unit ? ` ${d.content.unit}` : '')
      );
    }
    case 'digit_sequence':
      return d.reference.digits;
    case 'ordering':
      return d.reference.order;
    case 'matching':
      return d.reference.pairs;
    case 'cloze':
      return Object.fromEntries(
        Object.entries(d.reference.blanks).map(([id, accepted]) => [id, accepted[0]!]),
      );
    case 'extended_text':
      return 'Развёрнутый ответ участника.';
    case 'file':
      return { fileIds: [1] };
  }
}

function emptyAnswer(d: TaskDefinitionInput): unknown {
  switch (d.answerType) {
    case 'single_choice':
    case 'short_text':
    case 'number':
    case 'digit_sequence':
    case 'extended_text':
      return '';
    case 'multiple_choice':
    case 'ordering':
      return [];
    case 'matching':
    case 'cloze':
      return {};
    case 'file':
      return { fileIds: [] };
  }
}

const manual = (d: TaskDefinitionInput) => d.answerType === 'extended_text' || d.answerType === 'file';

describe('demo tasks', () => {
  it('there are demo tasks of every answer type', () => {
    expect(new Set(tasks.map((t) => t.definition.answerType)).size).toBe(10);
    expect(tasks.length).toBeGreaterThan(40);
  });

  it.each(tasks)('$name: its key scores full marks', ({ definition }) => {
    const result = scoreAnswer(definition, perfectAnswer(definition));
    if (manual(definition)) expect(result).toEqual({ status: 'manual', maxScore: definition.maxScore });
    else expect(result).toMatchObject({ status: 'scored', score: definition.maxScore, correct: true });
  });

  it.each(tasks)('$name: an empty answer scores 0', ({ definition }) => {
    expect(scoreAnswer(definition, emptyAnswer(definition))).toEqual({
      status: 'empty',
      score: 0,
      maxScore: definition.maxScore,
    });
    expect(scoreAnswer(definition, null)).toMatchObject({ status: 'empty', score: 0 });
  });
});
