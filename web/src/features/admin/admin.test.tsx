import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pick } from '../../test/pick';
import { apiError, fakeServer, json, renderApp, type Handler } from '../../test/test-app';

const admin = { id: 1, login: 'admin', displayName: 'Администратор Платформы', roles: ['admin'] };

const user = (id: number, login: string, extra = {}) => ({
  id,
  login,
  email: `${login}@school.ru`,
  surname: 'Иванова',
  name: 'Анна',
  patronymic: null,
  displayName: `Иванова Анна (${login})`,
  roles: ['coordinator'],
  schoolId: 5,
  schoolName: 'Школа № 5',
  isBlocked: false,
  createdAt: '2026-01-10T10:00:00.000Z',
  ...extra,
});

const school = {
  ooId: 3,
  ooName: 'ГБОУ Лицей',
  shortName: null,
  buildingCount: 1,
  classCount: 2,
  studentCount: 40,
  createdAt: '2026-01-10T10:00:00.000Z',
};

const roles = [
  { code: 'admin', nameRu: 'Администратор', nameEn: 'Administrator' },
  { code: 'coordinator', nameRu: 'Школьный координатор', nameEn: 'School coordinator' },
  { code: 'ugnik', nameRu: 'УГНиК', nameEn: 'Supervision authority' },
];

function server(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, admin),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/user/roles': () => json(200, roles),
    'POST /api/admin/schools/list': () =>
      json(200, {
        items: [
          { ...school, id: 5, name: 'Школа № 5', code: 'S-5' },
          { ...school, id: 7, name: 'Лицей № 7', code: 'S-7' },
        ],
        total: 2,
      }),
    'POST /api/user/list': ({ body }) => {
      const { page } = body as { page: number };
      return json(200, { items: page === 1 ? [user(1, 'anna')] : [user(21, 'boris')], total: 25 });
    },
    ...extra,
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('admin work place', { timeout: 20_000 }, () => {
  it('keeps the admin home and shows the work place navigation', async () => {
    server();
    renderApp('/admin');
    expect(await screen.findByTestId('role-home-admin')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Разделы' });
    // The work place's entries load with the staff navigation chunk (app/layouts/work-place-nav.tsx).
    expect(await within(nav).findByRole('link', { name: 'Пользователи' })).toHaveAttribute(
      'href',
      '/admin/users',
    );
    expect(within(nav).getByRole('link', { name: 'Очередь заданий' })).toBeInTheDocument();
  });

  it('admin tables show names, not database ids', async () => {
    server({
      'POST /api/user/list': () =>
        json(200, {
          items: [
            {
              id: 987654,
              login: 'ivanov',
              surname: 'Иванов',
              name: 'Иван',
              patronymic: null,
              displayName: 'Иванов Иван',
              email: null,
              roles: ['coordinator'],
              schoolId: null,
              schoolName: null,
              isBlocked: false,
              createdAt: '2026-01-01T00:00:00.000Z',
            },
          ],
          total: 1,
        }),
    });
    renderApp('/admin/users');
    const table = await screen.findByTestId('users-table');
    expect(await within(table).findByText('ivanov')).toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: /^ID/ })).toBeNull();
    expect(table).not.toHaveTextContent('987654');
  });

  it('pages, filters and sorts the user list on the server', async () => {
    const api = server();
    renderApp('/admin/users');
    expect(await screen.findByText('anna')).toBeInTheDocument();
    expect(api.callsTo('POST /api/user/list')[0]!.body).toEqual({
      page: 1,
      pageSize: 20,
      sort: { field: 'id', dir: 'asc' },
    });
    expect(screen.getByTestId('users-table-total')).toHaveTextContent('Всего: 25');

    await userEvent.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByText('boris')).toBeInTheDocument();
    expect(api.callsTo('POST /api/user/list').at(-1)!.body).toMatchObject({ page: 2 });

    await userEvent.type(screen.getByLabelText('Поиск'), 'ива');
    await waitFor(() =>
      expect(api.callsTo('POST /api/user/list').at(-1)!.body).toEqual({
        page: 1,
        pageSize: 20,
        sort: { field: 'id', dir: 'asc' },
        filter: { search: 'ива' },
      }),
    );

    await pick(screen.getByRole('search'), 'Школа', 'Лицей № 7 (S-7)');
    await waitFor(() =>
      expect(api.callsTo('POST /api/user/list').at(-1)!.body).toMatchObject({
        filter: { search: 'ива', schoolId: 7 },
      }),
    );

    await userEvent.click(screen.getByTestId('users-table-sort-login'));
    await waitFor(() =>
      expect(api.callsTo('POST /api/user/list').at(-1)!.body).toMatchObject({
        page: 1,
        sort: { field: 'login', dir: 'asc' },
      }),
    );
  });

  it("an ugnik's area is picked by name and sent; other roles are not asked for one", async () => {
    const api = server({
      'GET /api/admin/areas': () => json(200, { items: [{ id: 4, name: 'Южный округ', schoolCount: 3 }] }),
      'POST /api/User': () => json(200, { id: 30, blocked: false, passwordSet: false, changed: true }),
    });
    renderApp('/admin/users');
    await screen.findByText('anna');
    await userEvent.click(screen.getByTestId('user-create'));
    const form = await screen.findByTestId('user-form');
    await userEvent.type(within(form).getByLabelText(/Логин/), 'inspector');
    await userEvent.click(within(form).getByLabelText('Школьный координатор'));
    expect(within(form).queryByRole('combobox', { name: 'Район' })).toBeNull();
    await userEvent.click(within(form).getByLabelText('Школьный координатор'));
    await userEvent.click(within(form).getByLabelText('УГНиК'));
    await pick(form, 'Район', 'Южный округ');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(api.callsTo('POST /api/User')).toHaveLength(1));
    expect(api.callsTo('POST /api/User')[0]!.body).toMatchObject({ roles: ['ugnik'], areaId: 4 });
  });

  it('validates the user form before sending and sends the body with pwd in the query', async () => {
    const api = server({
      'POST /api/User': ({ body }) =>
        json(200, {
          ...user(30, 'petr'),
          ...(body as object),
          ooId: null,
          emailConfirmed: false,
          emailConfirmedAt: null,
          hasPassword: true,
          updatedAt: '2026-01-10T10:00:00.000Z',
        }),
    });
    renderApp('/admin/users');
    await screen.findByText('anna');
    await userEvent.click(screen.getByTestId('user-create'));
    const form = await screen.findByTestId('user-form');

    await userEvent.type(within(form).getByLabelText('Электронная почта'), 'не почта');
    await userEvent.type(within(form).getByLabelText('Пароль'), 'short');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await within(form).findByText('Заполните поле')).toBeInTheDocument();
    expect(within(form).getByText('Пароль должен быть не короче 8 символов')).toBeInTheDocument();
    expect(within(form).getByText(/Введите адрес электронной почты/)).toBeInTheDocument();
    expect(api.callsTo('POST /api/User')).toHaveLength(0);

    await userEvent.type(within(form).getByLabelText(/Логин/), 'petr');
    await userEvent.clear(within(form).getByLabelText('Электронная почта'));
    await userEvent.type(within(form).getByLabelText('Электронная почта'), 'petr@school.ru');
    await userEvent.type(within(form).getByLabelText('Фамилия'), 'Петров');
    await userEvent.click(within(form).getByLabelText('Школьный координатор'));
    // The school is chosen by name, never typed as a number.
    expect(within(form).queryByRole('textbox', { name: /Школа/ })).toBeNull();
    await pick(form, 'Школа', 'Лицей № 7 (S-7)');
    await userEvent.type(within(form).getByLabelText('Пароль'), '-long-enough');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));

    await waitFor(() => expect(api.callsTo('POST /api/User')).toHaveLength(1));
    const call = api.callsTo('POST /api/User')[0]!;
    expect(new URL(call.url, 'http://x').searchParams.get('pwd')).toBe('short-long-enough');
    expect(call.body).toEqual({
      login: 'petr',
      email: 'petr@school.ru',
      surname: 'Петров',
      name: null,
      patronymic: null,
      roles: ['coordinator'],
      schoolId: 7,
      isBlocked: false,
    });
    expect(call.headers['X-Requested-With']).toBe('XMLHttpRequest');
    await waitFor(() => expect(screen.queryByTestId('user-form')).not.toBeInTheDocument());
    // The list is asked again after the save.
    await waitFor(() => expect(api.callsTo('POST /api/user/list').length).toBeGreaterThanOrEqual(2));
  });

  it('shows a server field error inline (login taken) and stays on the page', async () => {
    server({ 'POST /api/User': () => apiError(409, 'login_taken') });
    const { router } = renderApp('/admin/users');
    await screen.findByText('anna');
    await userEvent.click(screen.getByTestId('user-create'));
    const form = await screen.findByTestId('user-form');
    await userEvent.type(within(form).getByLabelText(/Логин/), 'anna');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await within(form).findByText('Этот логин уже занят')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/users');
  });

  it('asks before blocking a user, then says it was done', async () => {
    const api = server({
      'POST /api/User': ({ body }) =>
        json(200, {
          ...user(1, 'anna'),
          ...(body as object),
          ooId: null,
          emailConfirmed: false,
          emailConfirmedAt: null,
          hasPassword: true,
          updatedAt: '2026-01-10T10:00:00.000Z',
        }),
    });
    renderApp('/admin/users');
    await screen.findByText('anna');
    await userEvent.click(screen.getByRole('button', { name: 'Заблокировать' }));
    const dialog = await screen.findByRole('dialog', { name: 'Заблокировать пользователя' });
    expect(dialog).toHaveTextContent('Заблокировать пользователя anna?');
    expect(api.callsTo('POST /api/User')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST /api/User')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Заблокировать' }));
    await userEvent.click(await screen.findByTestId('confirm-action'));
    await waitFor(() => expect(api.callsTo('POST /api/User')).toHaveLength(1));
    expect(api.callsTo('POST /api/User')[0]!.body).toEqual({ id: 1, isBlocked: true });
    expect(await screen.findByRole('status')).toHaveTextContent('Пользователь anna заблокирован.');
  });

  it('shows a failed list inline instead of leaving the page', async () => {
    server({ 'POST /api/user/list': () => apiError(500, 'internal_error', 'Сбой базы') });
    const { router } = renderApp('/admin/users');
    expect(await screen.findByTestId('users-table-error')).toHaveTextContent('На сервере произошла ошибка');
    expect(router.state.location.pathname).toBe('/admin/users');
  });

  it('highlights variants lacking keys and opens a task with its key', async () => {
    const api = server({
      'POST /api/kim/test/list': () =>
        json(200, {
          items: [
            {
              id: 11,
              number: 1,
              subjectTestId: 3,
              subjectTestName: 'Математика 7',
              subjectName: 'Математика',
              taskCount: 3,
              maxScore: 5,
              answerTypes: ['short_text'],
              manualTaskCount: 0,
              missingKeyPositions: [2],
            },
          ],
          total: 1,
        }),
      'GET /api/task/11/1': () =>
        json(200, {
          variantTaskId: 1,
          variantId: 11,
          position: 1,
          taskId: 100,
          answerType: 'short_text',
          html: '<p>Сколько будет 2+2?</p><script>alert(1)</script>',
          content: {},
          reference: { accepted: ['4', 'четыре'] },
          scoring: { method: 'all_or_nothing', caseSensitive: false },
          criteria: [{ code: 'К1', text: 'Верный ответ', maxScore: 1 }],
          solutionHtml: null,
          maxScore: 1,
          files: [],
          htmlContainerId: null,
          classifiers: [{ id: 1, code: '1.1', name: 'Сложение', kind: 'content' }],
        }),
    });
    renderApp('/admin/content/overview');
    expect(await screen.findByTestId('variant-missing-11')).toHaveTextContent('Нет ключа или критериев: 2');
    expect(screen.getByRole('button', { name: 'Задание 2 — нет ключа' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Задание 1' }));
    const view = await screen.findByTestId('task-view');
    expect(within(view).getByText('Сколько будет 2+2?')).toBeInTheDocument();
    expect(within(view).getByTestId('task-answer-type')).toHaveTextContent('Краткий ответ');
    expect(view).not.toHaveTextContent('short_text');
    expect(view.querySelector('script')).toBeNull();
    // The key, the rule and the rubric in words, not the stored JSON.
    expect(within(view).getByTestId('task-reference')).toHaveTextContent('Принимаемые ответы: 4, четыре');
    expect(within(view).getByTestId('task-scoring')).toHaveTextContent(
      'Способ оценивания: всё или ничегоУчитывать регистр: нет',
    );
    expect(within(view).getByTestId('task-criteria')).toHaveTextContent('Код: К1');
    expect(view).not.toHaveTextContent(/[{}"]|all_or_nothing|caseSensitive/);
    expect(within(view).getByText(/Сложение/)).toBeInTheDocument();
    expect(api.callsTo('GET /api/task/11/1')[0]!.url).toContain('withClassifiers=true');
  });

  it('edits a subject test’s pause rules; an empty value is said by its field and nothing is sent', async () => {
    let stored = { allowed: true, maxCount: 3, maxMinutes: 15 };
    const api = server({
      'POST /api/kim/subjectTest/list': () =>
        json(200, {
          items: [
            {
              id: 3,
              name: 'Математика 7',
              subjectId: 1,
              subjectName: 'Математика',
              subjectExamId: 1,
              kind: 'diagnostic',
              testGroupId: null,
              testGroupName: null,
              parallels: [7],
              durationMinutes: 45,
              variantCount: 2,
              createdAt: '2026-01-01T00:00:00.000Z',
            },
          ],
          total: 1,
        }),
      'GET /api/admin/subjectTests/3/pausePolicy': () => json(200, stored),
      'PUT /api/admin/subjectTests/3/pausePolicy': ({ body }) => {
        stored = body as typeof stored;
        return json(200, stored);
      },
    });
    renderApp('/admin/content/overview');
    await userEvent.click(await screen.findByRole('tab', { name: 'Тесты по предметам' }));
    const row = (await screen.findByRole('button', { name: 'Паузы: Математика 7' })).closest('tr')!;
    // The kind in words, never the stored value.
    expect(row).toHaveTextContent('Диагностика');
    expect(row).not.toHaveTextContent('diagnostic');
    await userEvent.click(await screen.findByRole('button', { name: 'Паузы: Математика 7' }));
    const count = await screen.findByTestId('pause-maxCount');
    expect(count).toHaveValue('3');

    // Above the limit the field holds at the limit; empty, the form says so by the field and sends nothing.
    await userEvent.clear(count);
    await userEvent.type(count, '99');
    await userEvent.tab();
    expect(count).toHaveValue('20');
    await userEvent.clear(count);
    await userEvent.click(screen.getByTestId('pause-save'));
    await waitFor(() => expect(count).toHaveAttribute('aria-invalid', 'true'));
    expect(api.callsTo('PUT /api/admin/subjectTests/3/pausePolicy')).toHaveLength(0);

    await userEvent.clear(count);
    await userEvent.type(count, '1');
    await userEvent.click(screen.getByTestId('pause-save'));
    expect(await screen.findByText('Правила пауз сохранены')).toBeInTheDocument();
    expect(api.callsTo('PUT /api/admin/subjectTests/3/pausePolicy').map((c) => c.body)).toEqual([
      { allowed: true, maxCount: 1, maxMinutes: 15 },
    ]);

    // Turned off: the numbers stay, the participant cannot pause.
    await userEvent.click(screen.getByRole('button', { name: 'Паузы: Математика 7' }));
    await userEvent.click(await screen.findByTestId('pause-allowed'));
    await userEvent.click(screen.getByTestId('pause-save'));
    await waitFor(() => expect(stored).toEqual({ allowed: false, maxCount: 1, maxMinutes: 15 }));
  });
});
