import { describe, expect, it } from 'vitest';
import { toParticipantVariant, type Presentation, type TaskRow, type VariantHead } from './presenter.js';

const head: VariantHead = {
  id: 1,
  number: 1,
  subjectTestId: 1,
  subjectTestName: 'Математика',
  instructionHtml: null,
};
const row = (content: Record<string, unknown>, answerType = 'single_choice'): TaskRow => ({
  variantTaskId: 1,
  position: 1,
  maxScore: 1,
  taskId: 7,
  answerType,
  html: '<p>?</p>',
  content,
  reference: null,
  solutionHtml: null,
  criteria: null,
  htmlContainerId: null,
});
const options = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ id, html: id }));
const present = (content: Record<string, unknown>, seed: number) => {
  const presentation: Presentation = { seeded: false };
  const variant = toParticipantVariant(head, [row(content)], [], seed, undefined, presentation);
  return { variant, presentation };
};
const order = (v: ReturnType<typeof present>['variant']) =>
  (v.tasks[0]!.content as { options: { id: string }[] }).options.map((o) => o.id).join('');

// variant.service keeps one presentation for every work of a variant only while `seeded` is false.
describe('a presentation tells whether its seed changed it', () => {
  it('not seeded without shuffled options: every work sees the same variant', () => {
    const a = present({ options }, 1);
    const b = present({ options }, 2);
    expect(a.presentation.seeded).toBe(false);
    expect(b.variant).toEqual(a.variant);
  });

  it('seeded when options are shuffled: works see their own orders', () => {
    const orders = new Set<string>();
    for (let seed = 1; seed <= 8; seed++) {
      const { variant, presentation } = present({ options, shuffle: true }, seed);
      expect(presentation.seeded).toBe(true);
      orders.add(order(variant));
    }
    expect(orders.size).toBeGreaterThan(1);
  });
});
