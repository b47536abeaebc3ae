import type { ItemAnalysis } from '@attesta/contract';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../test/test-app';
import { itemAnalysisAnswer, people, pick, renderReports, reportsServer } from './test/fixtures';

/*
 * The item analysis screen's additions of issue 28 (items 4–5): the guide to the figures, the
 * partial credit thresholds, the bias checks with their counts, and the Wright map per variant.
 */
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

const text = (el: Element) => el.textContent!.replace(/\u00a0/g, ' ');
const base = itemAnalysisAnswer;

const answer: ItemAnalysis = {
  ...base,
  rasch: { ...base.rasch!, model: 'partial_credit' },
  variants: base.variants.map((v, i) => ({
    ...v,
    wrightMap:
      i === 0
        ? [{ from: -1, to: -0.5, persons: 20, taskIds: [701, 702, 703] }]
        : [
            { from: 0, to: 0.5, persons: 12, taskIds: [712] },
            { from: 0.5, to: 1, persons: 8, taskIds: [] },
          ],
  })),
  tasks: base.tasks.map((task) => {
    if (task.taskId === 703)
      return {
        ...task,
        maxScore: 2,
        rasch: {
          ...task.rasch!,
          infitT: 0.31,
          outfitT: -0.42,
          thresholds: [
            { score: 1, threshold: 0.4, se: 0.2 },
            { score: 2, threshold: -0.3, se: 0.25 },
          ],
        },
        dif: [],
      };
    if (task.taskId === 701)
      return {
        ...task,
        dif: [
          {
            grouping: 'school',
            group: '11',
            label: 'Школа № 1',
            reference: null,
            nFocal: 150,
            nReference: 300,
            mantelHaenszel: {
              alpha: 2.15,
              chiSquare: 14.2,
              p: 0.0002,
              delta: -1.8,
              seDelta: 0.3,
              ets: 'C',
              favours: 'reference',
            },
            smd: -0.12,
            rasch: { focal: 0.9, reference: 0.2, difference: 0.7, se: 0.2, z: 3.5, flagged: true },
          },
        ],
      };
    return { ...task, dif: [] };
  }),
  dif: {
    minGroupSize: 100,
    comparisons: [
      {
        grouping: 'school',
        group: '11',
        label: 'Школа № 1',
        reference: null,
        nFocal: 150,
        nReference: 300,
        checked: true,
        flaggedTaskIds: [701],
      },
      {
        grouping: 'gender',
        group: 'female',
        label: null,
        reference: 'male',
        nFocal: 40,
        nReference: 50,
        checked: false,
        flaggedTaskIds: [],
      },
      {
        grouping: 'accommodations',
        group: 'with',
        label: null,
        reference: 'without',
        nFocal: 120,
        nReference: 330,
        checked: true,
        flaggedTaskIds: [],
      },
    ],
  },
};

const open = async () => {
  reportsServer(people.admin, { 'GET /api/reports/itemAnalysis': () => json(200, answer) });
  const view = await renderReports('/admin/reports?tab=items&diagnosticId=5&subjectTestId=31');
  await screen.findByTestId('items-table');
  return view;
};

describe(
  'reports: item analysis — thresholds, bias checks, guide, Wright map per variant',
  { timeout: 60_000 },
  () => {
    it('explains each figure in plain words', async () => {
      await open();
      const guide = screen.getByTestId('items-guide');
      await userEvent.click(within(guide).getByRole('button', { name: 'Что означают показатели' }));
      expect(guide).toHaveTextContent('Решаемость — средний балл за задание, делённый на максимум');
      expect(guide).toHaveTextContent('Пороги (для заданий с частичными баллами)');
      expect(guide).toHaveTextContent('Проверка не проводится, если в любой из групп меньше 100 участников');
    });

    it('shows the partial credit thresholds, marking disordered ones', async () => {
      await open();
      const rows = within(screen.getByTestId('items-thresholds')).getAllByTestId('threshold-row');
      expect(rows).toHaveLength(1);
      expect(text(rows[0]!)).toContain('Задание 3');
      expect(text(rows[0]!)).toContain('1 б.: 0,40 ± 0,20');
      expect(text(rows[0]!)).toContain('2 б.: -0,30 ± 0,25');
      expect(rows[0]).toHaveTextContent('пороги не по порядку');
      expect(text(rows[0]!)).toContain('0,31 / -0,42');
    });

    it('lists every comparison with its counts and the flagged tasks in words, no raw keys', async () => {
      await open();
      const dif = screen.getByTestId('items-dif');
      const rows = within(dif).getAllByTestId('dif-comparison').map(text);
      expect(rows).toEqual([
        'ШколаШкола № 1остальные участники150300Отмечены: Задание 1',
        'Полдевочкимальчики4050не проверялось: меньше 100 участников',
        'Особые условияс особыми условиямибез особых условий120330предвзятых заданий нет',
      ]);
      const [flag] = within(dif).getAllByTestId('dif-flag');
      expect(text(flag!)).toContain('Задание 1');
      expect(text(flag!)).toContain('Школа: Школа № 1 — остальные участники');
      expect(text(flag!)).toContain('Участников: 150 / 300');
      expect(text(flag!)).toContain('C — заметные различия');
      expect(text(flag!)).toContain('труднее для группы «Школа № 1»');
      expect(text(flag!)).toContain('Δ MH = -1,80');
      expect(text(flag!)).toContain('По модели Раша: разница 0,70 ± 0,20 логита — отмечено моделью Раша');
      for (const raw of ['female', 'male', 'accommodations', 'reference', 'school'])
        expect(dif.textContent).not.toContain(raw);
      // the tasks table marks the flagged task in its remarks
      const taskRows = within(screen.getByTestId('items-table')).getAllByTestId('items-row');
      expect(within(taskRows[0]!).getByTestId('items-dif-mark')).toHaveTextContent(
        'возможна предвзятость (DIF)',
      );
      expect(within(taskRows[3]!).queryByTestId('items-dif-mark')).toBeNull();
    });

    it('shows the Wright map of one variant when chosen', async () => {
      await open();
      const wright = () => within(screen.getByTestId('items-wright')).getAllByTestId('wright-bin');
      expect(wright()).toHaveLength(6);
      await pick('Карта Райта для', 'варианта 2');
      expect(wright()).toHaveLength(2);
      expect(wright()[1]).toHaveTextContent('Задание 2 (Вариант 2)');
      expect(wright()[1]).toHaveTextContent('12');
    });

    it('speaks English', async () => {
      const { i18n } = await open();
      await act(() => i18n.changeLanguage('en'));
      const dif = screen.getByTestId('items-dif');
      expect(await within(dif).findByText('Bias check (DIF)')).toBeInTheDocument();
      expect(within(dif).getAllByTestId('dif-comparison').map(text)[1]).toBe(
        'Gendergirlsboys4050not checked: fewer than 100 participants',
      );
      expect(screen.getByTestId('items-thresholds')).toHaveTextContent(
        'Tasks with partial credit: thresholds',
      );
      await act(() => i18n.changeLanguage('ru'));
    });
  },
);
