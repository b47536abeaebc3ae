import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp } from '../../test/test-app';
import { marksOf, scoreError, totalOf } from './lib/marks';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const expertUser = { id: 4, login: 'expert', displayName: 'Смирнова Ольга', roles: ['expert'] };

const criteria = [
  { code: 'К1', text: 'Тезис сформулирован', maxScore: 1, step: 1 },
  { code: 'К2', text: 'Аргументы приведены', maxScore: 3, step: 0.5 },
];

function assignment(id: number, round = 1) {
  return {
    id,
    anonCode: `A-${id}`,
    round,
    status: 'assigned',
    editable: true,
    subjectTestId: 31,
    subjectTestName: 'Русский язык, 9 класс',
    subjectName: 'Русский язык',
    workDate: '2026-04-10',
    task: {
      position: 5,
      answerType: 'extended_text',
      html: '<p>Напишите сочинение-рассуждение.</p>',
      criteria,
      maxScore: 4,
      solutionHtml: '<p>Указания к оцениванию</p>',
      reference: null,
    },
    answer: { value: 'Мой ответ на задание', files: [] },
    marks: null,
    total: null,
    comment: null,
    gradedAt: null,
    disagreement: null,
  };
}

const queue = {
  items: [
    {
      subjectTestId: 31,
      subjectTestName: 'Русский язык, 9 класс',
      subjectName: 'Русский язык',
      date: '2026-04-10',
      assigned: 2,
      graded: 0,
      thirdChecks: 1,
    },
  ],
};

describe('marks', () => {
  it('parses, checks range and step, and totals', () => {
    expect(scoreError('', 3)).toBe('required');
    expect(scoreError('4', 3)).toBe('range');
    expect(scoreError('-1', 3)).toBe('range');
    expect(scoreError('1,25', 3, 0.5)).toBe('step');
    expect(scoreError('1,5', 3, 0.5)).toBeNull();
    // A whole-point criterion takes no halves.
    expect(scoreError('1,5', 3)).toBe('step');
    expect(scoreError('2', 3)).toBeNull();
    expect(marksOf(criteria, { К1: '0.5', К2: '2.5' })).toBeNull();
    expect(marksOf(criteria, { К1: '1' })).toBeNull();
    expect(marksOf(criteria, { К1: '1', К2: '2.5' })).toEqual([
      { criterionCode: 'К1', score: 1 },
      { criterionCode: 'К2', score: 2.5 },
    ]);
    expect(totalOf(criteria, { К1: '1', К2: '2,5' })).toBe(3.5);
  });
});

describe('expert grading workspace', () => {
  it('validates the rubric, posts the marks and moves to the next answer', { timeout: 20_000 }, async () => {
    let served = 0;
    const server = fakeServer({
      'GET /api/user': () => json(200, expertUser),
      'GET /api/expert/queue': () => json(200, queue),
      'GET /api/ParticipantTest/getExpertAnswersDates': () => json(200, { dates: ['2026-04-10'] }),
      'GET /api/expert/next': () =>
        served++ === 0
          ? json(200, { assignment: assignment(41), progress: { done: 0, total: 2 } })
          : json(200, { assignment: assignment(42, 3), progress: { done: 1, total: 2 } }),
      'POST /api/expert/assignment/41/marks': () => json(200, { ...assignment(41), status: 'graded' }),
    });
    renderApp('/expert/grading');

    const card = await screen.findByTestId('grading-answer', {}, { timeout: 5000 });
    expect(within(card).getByText('Мой ответ на задание')).toBeInTheDocument();
    expect(within(card).getByText('Указания к оцениванию')).toBeInTheDocument();
    expect(
      within(screen.getByTestId('grading-queue')).getByText('Русский язык, 9 класс'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('grading-progress')).toHaveTextContent('Проверено 0 из 2');

    // Nothing typed yet: the form refuses and says why.
    await userEvent.click(screen.getByTestId('grading-submit'));
    expect(await screen.findByTestId('grading-errors')).toBeInTheDocument();
    expect(server.callsTo('POST /api/expert/assignment/41/marks')).toHaveLength(0);

    // Out of range, then fixed; the total follows.
    await userEvent.type(screen.getByTestId('criterion-К1'), '1');
    await userEvent.type(screen.getByTestId('criterion-К2'), '5');
    await userEvent.click(screen.getByTestId('grading-submit'));
    expect(await screen.findByText('Балл от 0 до 3')).toBeInTheDocument();
    expect(server.callsTo('POST /api/expert/assignment/41/marks')).toHaveLength(0);
    await userEvent.clear(screen.getByTestId('criterion-К2'));
    await userEvent.type(screen.getByTestId('criterion-К2'), '2,5');
    expect(screen.getByTestId('grading-total')).toHaveTextContent('Итого: 3,5 из 4');
    // The expert is told who reads the comment (the participant, after publication).
    expect(screen.getByRole('textbox', { name: 'Комментарий (необязательно)' })).toHaveAccessibleDescription(
      /Участник прочтёт его вместе с баллами/,
    );
    await userEvent.type(screen.getByRole('textbox', { name: 'Комментарий (необязательно)' }), 'Хорошо');

    // Enter in a score field submits.
    await userEvent.type(screen.getByTestId('criterion-К2'), '{Enter}');
    await waitFor(() => expect(server.callsTo('POST /api/expert/assignment/41/marks')).toHaveLength(1));
    expect(server.callsTo('POST /api/expert/assignment/41/marks')[0]!.body).toEqual({
      marks: [
        { criterionCode: 'К1', score: 1 },
        { criterionCode: 'К2', score: 2.5 },
      ],
      comment: 'Хорошо',
    });

    // The next answer is a third check, with a fresh form.
    expect(await screen.findByTestId('grading-third-check')).toBeInTheDocument();
    expect(screen.getByTestId('criterion-К1')).toHaveValue('');
    expect(screen.getByTestId('grading-progress')).toHaveTextContent('Проверено 1 из 2');
  });

  // Issue 23, item 6: an out-of-range mark is refused as it is typed, by the server's rule.
  it('refuses an out-of-range or off-step mark as it is typed, before any save', async () => {
    const server = fakeServer({
      'GET /api/user': () => json(200, expertUser),
      'GET /api/expert/queue': () => json(200, queue),
      'GET /api/ParticipantTest/getExpertAnswersDates': () => json(200, { dates: [] }),
      'GET /api/expert/next': () =>
        json(200, { assignment: assignment(41), progress: { done: 0, total: 2 } }),
    });
    renderApp('/expert/grading');
    const k1 = await screen.findByTestId('criterion-К1', {}, { timeout: 5000 });
    const k2 = screen.getByTestId('criterion-К2');
    // Untouched fields say nothing yet.
    expect(k1).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Поставьте балл')).toBeNull();

    await userEvent.type(k2, '5');
    expect(screen.getByText('Балл от 0 до 3')).toBeInTheDocument();
    expect(k2).toHaveAttribute('aria-invalid', 'true');
    expect(k2).toHaveAccessibleDescription('Балл от 0 до 3');
    await userEvent.clear(k2);
    await userEvent.type(k2, '1,25');
    expect(screen.getByText('Балл ставится с шагом 0,5')).toBeInTheDocument();
    await userEvent.clear(k2);
    await userEvent.type(k2, '2,5');
    expect(k2).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText(/Балл от 0|с шагом/)).toBeNull();

    // A digit key outside the fields is checked the same way (К1 takes at most 1).
    fireEvent.focus(k1);
    fireEvent.keyDown(document.body, { key: '7' });
    expect(k1).toHaveValue('7');
    expect(screen.getByText('Балл от 0 до 1')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('grading-submit'));
    expect(server.callsTo('POST /api/expert/assignment/41/marks')).toHaveLength(0);
  });

  it('says when everything is graded', async () => {
    const server = fakeServer({
      'GET /api/user': () => json(200, expertUser),
      'GET /api/expert/queue': () => json(200, { items: [] }),
      'GET /api/ParticipantTest/getExpertAnswersDates': () => json(200, { dates: [] }),
      'GET /api/expert/next': () => json(200, { assignment: null, progress: { done: 2, total: 2 } }),
    });
    renderApp('/expert/grading');
    expect(await screen.findByTestId('grading-done', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(server.callsTo('GET /api/expert/next')).toHaveLength(1);
  });

  it('keyboard: a digit outside the fields sets the focused criterion, N loads the next', async () => {
    const server = fakeServer({
      'GET /api/user': () => json(200, expertUser),
      'GET /api/expert/queue': () => json(200, queue),
      'GET /api/ParticipantTest/getExpertAnswersDates': () => json(200, { dates: [] }),
      'GET /api/expert/next': () =>
        json(200, { assignment: assignment(41), progress: { done: 0, total: 2 } }),
    });
    renderApp('/expert/grading');
    const k1 = await screen.findByTestId('criterion-К1', {}, { timeout: 5000 });
    fireEvent.focus(k1);
    fireEvent.keyDown(document.body, { key: '1' });
    expect(k1).toHaveValue('1');
    fireEvent.keyDown(document.body, { key: 'n' });
    await waitFor(() => expect(server.callsTo('GET /api/expert/next').length).toBeGreaterThan(1));
  });

  it('saves the expert profile', async () => {
    const server = fakeServer({
      'GET /api/user': () => json(200, expertUser),
      'GET /api/Profile/expert/get': () =>
        json(200, {
          subjectIds: [1],
          subjects: [{ id: 1, name: 'Математика' }],
          parallels: [7],
          maxPerDay: null,
          openAssignments: 3,
        }),
      'POST /api/kim/subject/list': () =>
        json(200, {
          items: [
            { id: 1, name: 'Математика', code: 'MATH', subjectTestCount: 2 },
            { id: 2, name: 'Физика', code: 'PHYS', subjectTestCount: 1 },
          ],
          total: 2,
        }),
      'PUT /api/Profile/expert/saveProfile': ({ body }) =>
        json(200, { ...(body as object), subjects: [], openAssignments: 3 }),
    });
    renderApp('/expert/profile');
    await screen.findByTestId('expert-profile-form', {}, { timeout: 5000 });
    await userEvent.click(screen.getByRole('checkbox', { name: '8' }));
    await userEvent.type(screen.getByTestId('expert-profile-max'), '20');
    await userEvent.click(screen.getByTestId('expert-profile-save'));
    await waitFor(() => expect(server.callsTo('PUT /api/Profile/expert/saveProfile')).toHaveLength(1));
    expect(server.callsTo('PUT /api/Profile/expert/saveProfile')[0]!.body).toEqual({
      subjectIds: [1],
      parallels: [7, 8],
      maxPerDay: 20,
    });
  });
});
