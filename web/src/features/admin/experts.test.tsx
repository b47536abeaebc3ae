import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, type Handler } from '../../test/test-app';

// A page's first render (its lazy route chunks) takes seconds on a busy machine: wait for it.
configure({ asyncUtilTimeout: 15_000 });

/* The admin assigns experts from the users screen, and a diagnostic's page warns of too few experts. */

const admin = { id: 1, login: 'admin', displayName: 'Администратор Платформы', roles: ['admin'] };

const expertUser = {
  id: 31,
  login: 'petrova',
  email: null,
  surname: 'Петрова',
  name: 'Ольга',
  patronymic: null,
  displayName: 'Петрова Ольга',
  roles: ['expert'],
  schoolId: null,
  schoolName: null,
  isBlocked: false,
  createdAt: '2026-01-10T10:00:00.000Z',
};

const roles = [
  { code: 'admin', nameRu: 'Администратор', nameEn: 'Administrator' },
  { code: 'expert', nameRu: 'Эксперт', nameEn: 'Expert' },
];

const profile = (over: object = {}) => ({
  subjectIds: [4],
  subjects: [{ id: 4, name: 'Математика' }],
  subjectTestIds: [],
  subjectTests: [],
  parallels: [7],
  maxPerDay: null,
  openAssignments: 3,
  ...over,
});

const subjectTest = (id: number, name: string) => ({
  id,
  name,
  subjectId: 5,
  subjectName: 'Русский язык',
  subjectExamId: 1,
  kind: 'diagnostic',
  testGroupId: null,
  testGroupName: null,
  parallels: [9],
  durationMinutes: 45,
  variantCount: 2,
  createdAt: '2026-01-10T10:00:00.000Z',
});

const coverage = (over: object = {}) => ({
  subjectTestId: 21,
  subjectTestName: 'Русский язык, 9 класс',
  subjectName: 'Русский язык',
  expertTaskPositions: [5, 6],
  experts: 0,
  grades: [{ grade: 9, experts: 0 }],
  waitingAnswers: 12,
  ...over,
});

function server(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, admin),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/user/roles': () => json(200, roles),
    'POST /api/user/list': () => json(200, { items: [expertUser], total: 1 }),
    'GET /api/admin/experts/31': () => json(200, profile()),
    'POST /api/kim/subject/list': () =>
      json(200, { items: [{ id: 4, name: 'Математика', code: 'M', subjectTestCount: 3 }], total: 1 }),
    'POST /api/kim/subjectTest/list': ({ body }) => {
      const search = (body as { filter?: { search?: string } }).filter?.search;
      return json(200, {
        items: search
          ? [subjectTest(21, 'Русский язык, 9 класс')]
          : [subjectTest(22, 'Русский язык, 8 класс')],
        total: 1,
      });
    },
    ...extra,
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('the admin assigns experts', { timeout: 90_000 }, () => {
  it('opens an expert’s assignment from the users screen, picks a test by name and saves it', async () => {
    const api = server({
      'PUT /api/admin/experts/31': ({ body }) => json(200, profile(body as object)),
    });
    renderApp('/admin/users');
    await screen.findByText('petrova');
    await userEvent.click(screen.getByRole('button', { name: 'Что проверяет эксперт petrova' }));
    const dialog = await screen.findByRole('dialog', { name: 'Эксперт petrova: что он проверяет' });
    expect(await within(dialog).findByTestId('expert-profile-open')).toHaveTextContent(
      'Назначено и ещё не проверено: 3',
    );
    const tests = within(dialog).getByRole('combobox', { name: /^Тесты/ });
    await userEvent.type(tests, 'Русский');
    await waitFor(() =>
      expect(
        api
          .callsTo('POST /api/kim/subjectTest/list')
          .some((c) => (c.body as { filter?: { search?: string } }).filter?.search === 'Русский'),
      ).toBe(true),
    );
    await userEvent.click(
      await screen.findByRole('option', { name: 'Русский язык, 9 класс · Русский язык', hidden: true }),
    );
    await userEvent.click(within(dialog).getByTestId('expert-profile-save'));

    await waitFor(() => expect(api.callsTo('PUT /api/admin/experts/31')).toHaveLength(1));
    expect(api.callsTo('PUT /api/admin/experts/31')[0]!.body).toEqual({
      subjectIds: [4],
      subjectTestIds: [21],
      parallels: [7],
      maxPerDay: null,
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Назначение эксперта petrova сохранено.');
  });

  it('warns of subjects without grades and says by its code why a save was refused', async () => {
    server({
      'GET /api/admin/experts/31': () => json(200, profile({ parallels: [] })),
      'PUT /api/admin/experts/31': () => apiError(400, 'unknown_subject', 'No such subject: 4'),
    });
    renderApp('/admin/users');
    await userEvent.click(await screen.findByRole('button', { name: 'Что проверяет эксперт petrova' }));
    const dialog = await screen.findByRole('dialog', { name: 'Эксперт petrova: что он проверяет' });
    expect(await within(dialog).findByTestId('expert-profile-no-grades')).toHaveTextContent(
      'Предметы выбраны, а классы нет',
    );
    await userEvent.click(within(dialog).getByTestId('expert-profile-save'));
    const refused = await within(dialog).findByTestId('expert-profile-save-error');
    expect(refused).toHaveTextContent('Неизвестный предмет.');
    expect(refused).not.toHaveTextContent('No such subject');
  });

  it('offers the assignment only on users who are experts', async () => {
    server({
      'POST /api/user/list': () =>
        json(200, {
          items: [expertUser, { ...expertUser, id: 32, login: 'coord', roles: ['coordinator'] }],
          total: 2,
        }),
    });
    renderApp('/admin/users');
    await screen.findByText('coord');
    expect(screen.getByTestId('user-expert-31')).toBeInTheDocument();
    expect(screen.queryByTestId('user-expert-32')).toBeNull();
  });
});

describe('a diagnostic’s page warns of too few experts', { timeout: 90_000 }, () => {
  const diagnostic = {
    id: 2,
    code: 'D-2026-0002',
    name: 'Диагностика 2',
    kind: 'diagnostic',
    createdByRole: 'admin',
    createdByLogin: 'admin',
    startsAt: '2026-03-01T06:00:00.000Z',
    endsAt: '2026-03-05T15:00:00.000Z',
    parallels: [9],
    status: 'finished',
    resultsPublished: false,
    publishedAt: null,
    subjectTests: [{ id: 21, name: 'Русский язык, 9 класс' }],
    schoolCount: 1,
    participantTestCount: 30,
    finishedWorkCount: 29,
    schools: [],
  };

  it('names the subject test, its expert-graded tasks and the way to assign experts', async () => {
    server({
      'GET /api/admin/diagnostics/2': () => json(200, diagnostic),
      'GET /api/expert/coverage': () =>
        json(200, {
          items: [
            coverage(),
            coverage({ subjectTestId: 22, subjectTestName: 'Хватает', experts: 3, waitingAnswers: 0 }),
          ],
        }),
    });
    renderApp('/admin/diagnostics/2');
    const warning = await screen.findByTestId('expert-coverage-warning');
    expect(warning).toHaveTextContent(
      'Задания 5, 6 теста «Русский язык, 9 класс» (Русский язык) проверяют эксперты, но ни один эксперт не может их проверить.',
    );
    expect(warning).toHaveTextContent('Ответов теста «Русский язык, 9 класс» ждут эксперта: 12.');
    expect(warning).not.toHaveTextContent('Хватает');
    expect(
      within(warning).getByRole('link', { name: 'Назначить экспертов на тест «Русский язык, 9 класс»' }),
    ).toHaveAttribute('href', '/admin/content/tests/21?tab=experts');
  });

  it('says nothing when every subject test has experts enough', async () => {
    const api = server({
      'GET /api/admin/diagnostics/2': () => json(200, diagnostic),
      'GET /api/expert/coverage': () => json(200, { items: [coverage({ experts: 2, waitingAnswers: 0 })] }),
    });
    renderApp('/admin/diagnostics/2');
    await screen.findByTestId('admin-diagnostic-title');
    await waitFor(() => expect(api.callsTo('GET /api/expert/coverage')).toHaveLength(1));
    expect(
      new URL(api.callsTo('GET /api/expert/coverage')[0]!.url, 'http://x').searchParams.get('diagnosticId'),
    ).toBe('2');
    expect(screen.queryByTestId('expert-coverage-warning')).toBeNull();
  });
});
