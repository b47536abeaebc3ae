import { describe, expect, it } from 'vitest';
import { taskProblems } from './validation.js';

// Imported content (gap match, associate, …) must be publishable like the ten native types: the
// check goes by the task model, not by the list of types the paper forms know.
describe('taskProblems', () => {
  const gapMatch = {
    id: 1,
    answerType: 'gap_match',
    content: {
      words: [
        { id: 'w1', html: 'кошка' },
        { id: 'w2', html: 'собака' },
      ],
      gaps: [{ id: 'g1' }],
      shuffle: false,
    },
    reference: { pairs: { g1: 'w1' } },
    scoring: { method: 'all_or_nothing' },
    maxScore: 1,
    criteria: null,
  };

  it('accepts a well-formed task of an imported answer type', () => {
    expect(taskProblems(gapMatch)).toEqual([]);
  });

  it('still finds a key outside the options of such a task', () => {
    const problems = taskProblems({ ...gapMatch, reference: { pairs: { g1: 'w9' } } });
    expect(problems.map((p) => p.code)).toEqual(['key_outside_options']);
  });

  it('refuses a name that is no answer type at all', () => {
    expect(taskProblems({ ...gapMatch, answerType: 'telepathy' }).map((p) => p.code)).toEqual([
      'unknown_answer_type',
    ]);
  });
});
