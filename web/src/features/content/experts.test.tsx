import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, renderApp } from '../../test/test-app';
import { contentServer, subjectTest, variant } from './test/fixtures';

// A page's first render (its lazy route chunks) takes seconds on a busy machine: wait for it.
configure({ asyncUtilTimeout: 15_000 });

/* A subject test's experts: who can grade it, assigning and taking off, and the check's warning. */

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const coverage = (over: object = {}) => ({
  subjectTestId: 3,
  subjectTestName: 'Математика 7',
  subjectName: 'Математика',
  expertTaskPositions: [9, 10],
  experts: 1,
  grades: [{ grade: 7, experts: 1 }],
  waitingAnswers: 0,
  ...over,
});

const bySubject = { id: 41, displayName: 'Орлова Анна', login: 'orlova', via: 'subject', parallels: [7, 8] };
const candidate = {
  id: 42,
  login: 'sokolov',
  email: null,
  surname: 'Соколов',
  name: 'Иван',
  patronymic: null,
  displayName: 'Соколов Иван',
  roles: ['expert'],
  schoolId: null,
  schoolName: null,
  isBlocked: false,
  createdAt: '2026-01-10T10:00:00.000Z',
};

function server(extra = {}) {
  return contentServer({
    'GET /api/admin/content/subjectTests/3': () => json(200, subjectTest(3)),
    'GET /api/admin/content/subjectTests/3/variants': () => json(200, [variant(21, 1)]),
    ...extra,
  });
}

describe('the experts of a subject test', { timeout: 90_000 }, () => {
  it('shows who can grade it, warns of one expert, assigns one picked by name and takes one off', async () => {
    let experts = [bySubject];
    const api = server({
      'GET /api/admin/subjectTests/3/experts': () =>
        json(200, { coverage: coverage({ experts: experts.length }), experts }),
      'POST /api/user/list': () => json(200, { items: [candidate], total: 1 }),
      'POST /api/admin/subjectTests/3/experts': () => {
        experts = [
          bySubject,
          { id: 42, displayName: 'Соколов Иван', login: 'sokolov', via: 'subject_test', parallels: [] },
        ];
        return json(200, { coverage: coverage({ experts: 2 }), experts });
      },
      'DELETE /api/admin/subjectTests/3/experts/42': () => {
        experts = [bySubject];
        return json(200, { coverage: coverage(), experts });
      },
    });
    renderApp('/admin/content/tests/3?tab=experts');
    const panel = await screen.findByTestId('experts-panel');
    const warning = await within(panel).findByTestId('expert-coverage-warning');
    expect(warning).toHaveTextContent(
      'Задания 9, 10 теста «Математика 7» (Математика) может проверить только один эксперт, а двойной проверке нужны два',
    );
    const row = within(panel).getByTestId('expert-row-41');
    expect(row).toHaveTextContent('Орлова Анна (orlova)');
    expect(row).toHaveTextContent('по предмету, классы 7, 8');
    expect(within(row).queryByRole('button')).toBeNull();

    await userEvent.type(within(panel).getByRole('combobox', { name: 'Эксперт' }), 'Сок');
    await waitFor(() =>
      expect(api.callsTo('POST /api/user/list').at(-1)!.body).toMatchObject({
        filter: { role: 'expert', blocked: false, search: 'Сок' },
      }),
    );
    await userEvent.click(
      await screen.findByRole('option', { name: 'Соколов Иван (sokolov)', hidden: true }),
    );
    await userEvent.click(within(panel).getByTestId('experts-add'));
    await waitFor(() => expect(api.callsTo('POST /api/admin/subjectTests/3/experts')).toHaveLength(1));
    expect(api.callsTo('POST /api/admin/subjectTests/3/experts')[0]!.body).toEqual({ expertIds: [42] });
    expect(await within(panel).findByTestId('experts-enough')).toHaveTextContent(
      'Экспертов, которые могут проверить задания 9, 10: 2 — двойная проверка возможна.',
    );
    expect(within(panel).getByTestId('expert-row-42')).toHaveTextContent('на этот тест');

    await userEvent.click(
      within(panel).getByRole('button', { name: 'Снять с теста: Соколов Иван (sokolov)' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Снять эксперта с теста?' });
    expect(api.callsTo('DELETE /api/admin/subjectTests/3/experts/42')).toHaveLength(0);
    await userEvent.click(within(dialog).getByTestId('confirm-action'));
    await waitFor(() => expect(api.callsTo('DELETE /api/admin/subjectTests/3/experts/42')).toHaveLength(1));
    await waitFor(() => expect(within(panel).queryByTestId('expert-row-42')).toBeNull());
  });

  it('the check before publication warns (without blocking) and leads to the experts', async () => {
    server({
      'GET /api/admin/content/subjectTests/3/validation': () =>
        json(200, {
          valid: true,
          maxScore: 12,
          problems: [],
          expertCoverage: coverage({ experts: 0, grades: [{ grade: 7, experts: 0 }], waitingAnswers: 4 }),
        }),
    });
    renderApp('/admin/content/tests/3?tab=validation');
    expect(await screen.findByTestId('validation-ok')).toHaveTextContent('Тест готов к публикации.');
    const warning = screen.getByTestId('expert-coverage-warning');
    expect(warning).toHaveTextContent(
      'Задания 9, 10 теста «Математика 7» (Математика) проверяют эксперты, но ни один эксперт не может их проверить.',
    );
    expect(warning).toHaveTextContent('Ответов теста «Математика 7» ждут эксперта: 4.');
    expect(warning).toHaveTextContent('Публикации это не мешает');
    expect(within(warning).getByRole('link', { name: 'Назначить экспертов' })).toHaveAttribute(
      'href',
      '/admin/content/tests/3?tab=experts',
    );

    // The publication dialog says it too.
    await userEvent.click(screen.getByTestId('publish'));
    const dialog = await screen.findByRole('dialog', { name: 'Опубликовать тест «Математика 7»?' });
    expect(await within(dialog).findByTestId('expert-coverage-warning')).toHaveTextContent('ни один эксперт');
  });

  it('says nothing of experts for a test without expert-graded tasks', async () => {
    server({
      'GET /api/admin/content/subjectTests/3/validation': () =>
        json(200, { valid: true, maxScore: 12, problems: [], expertCoverage: null }),
    });
    renderApp('/admin/content/tests/3?tab=validation');
    await screen.findByTestId('validation-ok');
    expect(screen.queryByTestId('expert-coverage-warning')).toBeNull();
  });
});
