import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pick } from '../../test/pick';
import { apiError, fakeServer, json, renderApp, type Handler } from '../../test/test-app';

const admin = { id: 1, login: 'admin', displayName: 'Администратор Платформы', roles: ['admin'] };

const school = (id: number, name: string, extra = {}) => ({
  id,
  ooId: 3,
  ooName: 'ГБОУ Лицей',
  name,
  shortName: null,
  code: `S-${id}`,
  buildingCount: 1,
  classCount: 2,
  studentCount: 40,
  createdAt: '2026-01-10T10:00:00.000Z',
  ...extra,
});

const cls = (id: number, parallel: number, letter: string, studentCount = 0) => ({
  id,
  schoolId: 5,
  name: `${parallel} «${letter}»`,
  letter,
  parallel,
  buildingId: 9,
  buildingName: 'Основное здание',
  studentCount,
});

const student = (id: number, surname: string, extra = {}) => ({
  id,
  surname,
  name: 'Анна',
  patronymic: null,
  birthDate: '2013-04-05',
  gender: 'female',
  schoolId: 5,
  schoolName: 'Гимназия № 5',
  classId: 11,
  className: '7 «А»',
  parallel: 7,
  buildingId: 9,
  buildingName: 'Основное здание',
  participantTestCount: 0,
  createdAt: '2026-01-10T10:00:00.000Z',
  ...extra,
});

const diagnostic = (id: number, extra = {}) => ({
  id,
  code: `D-2026-000${id}`,
  name: `Диагностика ${id}`,
  kind: 'diagnostic',
  createdByRole: 'ugnik',
  createdByLogin: 'ugnik',
  startsAt: '2026-03-01T06:00:00.000Z',
  endsAt: '2026-03-05T15:00:00.000Z',
  parallels: [7],
  status: 'finished',
  resultsPublished: false,
  publishedAt: null,
  subjectTests: [{ id: 21, name: 'Математика 7' }],
  schoolCount: 12,
  participantTestCount: 340,
  finishedWorkCount: 321,
  ...extra,
});

function server(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, admin),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'POST /api/admin/schools/list': ({ body }) => {
      const search = (body as { filter?: { search?: string } }).filter?.search;
      return json(200, {
        items: search
          ? [school(5, 'Гимназия № 5')]
          : [school(5, 'Гимназия № 5'), school(6, 'Лицей № 6', { areaId: 1, areaName: 'Центральный район' })],
        total: search ? 1 : 2,
      });
    },
    'GET /api/admin/areas': () =>
      json(200, {
        items: [
          { id: 1, name: 'Центральный район', schoolCount: 2 },
          { id: 2, name: 'Северный район', schoolCount: 0 },
        ],
      }),
    'POST /api/admin/oo/list': () =>
      json(200, {
        items: [{ id: 3, name: 'ГБОУ Лицей', shortName: null, inn: null, schoolCount: 2 }],
        total: 1,
      }),
    'GET /api/admin/schools/5': () => json(200, school(5, 'Гимназия № 5')),
    'GET /api/admin/schools/5/classes': () => json(200, [cls(11, 7, 'А', 25), cls(12, 8, 'Б')]),
    'GET /api/admin/schools/5/buildings': () =>
      json(200, [
        { id: 9, schoolId: 5, name: 'Основное здание', address: null, classCount: 2, studentCount: 25 },
      ]),
    ...extra,
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('admin organisation pages', { timeout: 30_000 }, () => {
  it('lists schools with counts, sorts and filters on the server, and links to classes and students', async () => {
    const api = server();
    renderApp('/admin/schools');
    const table = await screen.findByTestId('schools-table');
    expect(await within(table).findByText('Лицей № 6')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/schools/list')[0]!.body).toEqual({
      page: 1,
      pageSize: 20,
      sort: { field: 'name', dir: 'asc' },
    });
    expect(within(table).getByText('Гимназия № 5').closest('a')).toHaveAttribute('href', '/admin/schools/5');
    // The area by its name; no database ids in the table.
    expect(within(table).getByRole('columnheader', { name: 'Район' })).toBeInTheDocument();
    expect(within(table).getByText('Центральный район')).toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'ID' })).toBeNull();
    expect(within(table).getAllByRole('link', { name: 'Учащиеся' })[0]).toHaveAttribute(
      'href',
      '/admin/students?schoolId=5',
    );
    expect(within(table).getByRole('button', { name: 'Выгрузить в CSV' })).toBeEnabled();

    await userEvent.click(screen.getByTestId('schools-table-sort-studentCount'));
    await waitFor(() =>
      expect(api.callsTo('POST /api/admin/schools/list').at(-1)!.body).toMatchObject({
        sort: { field: 'studentCount', dir: 'asc' },
      }),
    );
    await userEvent.type(screen.getByLabelText('Поиск'), 'гимн');
    await waitFor(() =>
      expect(api.callsTo('POST /api/admin/schools/list').at(-1)!.body).toMatchObject({
        page: 1,
        filter: { search: 'гимн' },
      }),
    );
    await waitFor(() => expect(within(table).queryByText('Лицей № 6')).not.toBeInTheDocument());
  });

  it('validates the school form before sending, then creates the school with the chosen ОО', async () => {
    const api = server({
      'POST /api/admin/schools': ({ body }) => json(200, school(7, 'Школа № 7', body as object)),
    });
    renderApp('/admin/schools');
    await screen.findByText('Лицей № 6');
    await userEvent.click(screen.getByTestId('school-create'));
    const form = await screen.findByTestId('school-form');

    await userEvent.type(within(form).getByLabelText('Код'), 'плохой код!');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await within(form).findAllByText('Заполните поле')).toHaveLength(2);
    expect(within(form).getByText('Проверьте значение')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/schools')).toHaveLength(0);

    await pick(form, /Образовательная организация/, 'ГБОУ Лицей');
    await userEvent.type(within(form).getByLabelText(/^Название/), 'Школа № 7');
    await userEvent.clear(within(form).getByLabelText('Код'));
    await userEvent.type(within(form).getByLabelText('Код'), 'S-7');
    // The area is picked by name from a searchable list, never typed as a number.
    await pick(form, 'Район', 'Северный район');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(api.callsTo('POST /api/admin/schools')).toHaveLength(1));
    const call = api.callsTo('POST /api/admin/schools')[0]!;
    expect(call.body).toEqual({ ooId: 3, name: 'Школа № 7', shortName: null, code: 'S-7', areaId: 2 });
    expect(call.headers['X-Requested-With']).toBe('XMLHttpRequest');
    await waitFor(() => expect(screen.queryByTestId('school-form')).not.toBeInTheDocument());
    await waitFor(() => expect(api.callsTo('POST /api/admin/schools/list').length).toBeGreaterThanOrEqual(2));
  });

  it('shows a taken school code under the field and keeps the form open', async () => {
    server({ 'PUT /api/admin/schools/5': () => apiError(409, 'school_code_taken') });
    renderApp('/admin/schools');
    await screen.findByText('Лицей № 6');
    await userEvent.click(screen.getByTestId('school-edit-5'));
    const form = await screen.findByTestId('school-form');
    expect(within(form).getByLabelText(/^Название/)).toHaveValue('Гимназия № 5');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await within(form).findByText('Этот код уже у другой школы')).toBeInTheDocument();
  });

  it("manages a school's classes: validation, create with the right body, delete refused while it has students", async () => {
    const api = server({
      'POST /api/admin/schools/5/classes': ({ body }) =>
        json(200, { ...cls(13, 5, 'Б'), ...(body as object) }),
      'DELETE /api/admin/classes/11': () => apiError(409, 'class_has_students'),
      'DELETE /api/admin/classes/12': () => json(200, { ok: true }),
    });
    renderApp('/admin/schools/5');
    const table = await screen.findByTestId('classes-table');
    expect(await within(table).findByText('7 «А»')).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: '25' })).toHaveAttribute(
      'href',
      '/admin/students?schoolId=5&classId=11',
    );
    expect(
      await within(screen.getByTestId('buildings-table')).findByText('Основное здание'),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('class-create'));
    const form = await screen.findByTestId('class-form');
    await userEvent.type(within(form).getByLabelText(/^Литера/), 'Б-1');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await within(form).findByText('Заполните поле')).toBeInTheDocument();
    expect(within(form).getByText('Проверьте значение')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/schools/5/classes')).toHaveLength(0);

    await pick(form, /^Параллель/, '5');
    await userEvent.clear(within(form).getByLabelText(/^Литера/));
    await userEvent.type(within(form).getByLabelText(/^Литера/), 'б');
    await pick(form, /^Корпус/, 'Основное здание');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(api.callsTo('POST /api/admin/schools/5/classes')).toHaveLength(1));
    expect(api.callsTo('POST /api/admin/schools/5/classes')[0]!.body).toEqual({
      parallel: 5,
      letter: 'Б',
      buildingId: 9,
    });
    await waitFor(() => expect(screen.queryByTestId('class-form')).not.toBeInTheDocument());

    await userEvent.click(screen.getByTestId('class-delete-11'));
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    expect(await screen.findByTestId('delete-error')).toHaveTextContent('В классе есть учащиеся');
    expect(api.callsTo('DELETE /api/admin/classes/11')[0]!.headers['X-Requested-With']).toBe(
      'XMLHttpRequest',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Отмена' }));

    await userEvent.click(screen.getByTestId('class-delete-12'));
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() => expect(screen.queryByTestId('confirm-delete')).not.toBeInTheDocument());
    expect(api.callsTo('DELETE /api/admin/classes/12')).toHaveLength(1);
  });

  it('lists students filtered by the school of the link; creates, edits and deletes students', async () => {
    const api = server({
      'POST /api/admin/students/list': () =>
        json(200, {
          items: [student(31, 'Иванова'), student(32, 'Петров', { participantTestCount: 2, name: 'Олег' })],
          total: 2,
        }),
      'POST /api/admin/students': ({ body }) => json(200, student(33, 'Новикова', body as object)),
      'PUT /api/admin/students/31': ({ body }) => json(200, student(31, 'Иванова', body as object)),
      'DELETE /api/admin/students/32': () => apiError(409, 'student_has_participant_tests'),
    });
    renderApp('/admin/students?schoolId=5');
    const table = await screen.findByTestId('students-table');
    expect(await within(table).findByText('Петров Олег')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/students/list')[0]!.body).toEqual({
      page: 1,
      pageSize: 20,
      sort: { field: 'surname', dir: 'asc' },
      filter: { schoolId: 5 },
    });
    expect(within(table).getAllByText('05.04.2013')).toHaveLength(2);
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Школа' })).toHaveValue('Гимназия № 5 (S-5)'),
    );

    // New student: the form starts in the filtered school and checks before sending.
    await userEvent.click(screen.getByTestId('student-create'));
    const form = await screen.findByTestId('student-form');
    await userEvent.type(within(form).getByLabelText(/^Дата рождения/), '2099-01-01');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(await within(form).findByText('Дата рождения не может быть в будущем')).toBeInTheDocument();
    expect(within(form).getAllByText('Заполните поле').length).toBeGreaterThanOrEqual(3);
    expect(api.callsTo('POST /api/admin/students')).toHaveLength(0);

    await pick(form, /^Класс/, '8 «Б»');
    await userEvent.type(within(form).getByLabelText(/^Фамилия/), 'Новикова');
    await userEvent.type(within(form).getByLabelText(/^Имя/), 'Ольга');
    await userEvent.clear(within(form).getByLabelText(/^Дата рождения/));
    await userEvent.type(within(form).getByLabelText(/^Дата рождения/), '2012-09-01');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(api.callsTo('POST /api/admin/students')).toHaveLength(1));
    expect(api.callsTo('POST /api/admin/students')[0]!.body).toEqual({
      classId: 12,
      surname: 'Новикова',
      name: 'Ольга',
      patronymic: null,
      birthDate: '2012-09-01',
      gender: null,
    });
    await waitFor(() => expect(screen.queryByTestId('student-form')).not.toBeInTheDocument());

    // Editing moves the student to another class of the same school; the school is fixed.
    await userEvent.click(screen.getByTestId('student-edit-31'));
    const edit = await screen.findByTestId('student-form');
    expect(within(edit).getByRole('combobox', { name: /^Школа/ })).toBeDisabled();
    await pick(edit, /^Класс/, '8 «Б»');
    await userEvent.click(within(edit).getByRole('button', { name: 'Сохранить' }));
    await waitFor(() => expect(api.callsTo('PUT /api/admin/students/31')).toHaveLength(1));
    expect(api.callsTo('PUT /api/admin/students/31')[0]!.body).toEqual({
      classId: 12,
      surname: 'Иванова',
      name: 'Анна',
      patronymic: null,
      birthDate: '2013-04-05',
      gender: 'female',
    });

    await userEvent.click(screen.getByTestId('student-delete-32'));
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    expect(await screen.findByTestId('delete-error')).toHaveTextContent('зарегистрирован на тесты');
  });

  it('lists every diagnostic with counts and links to its results and queue, filtering on the server', async () => {
    const api = server({
      'POST /api/admin/diagnostics/list': () =>
        json(200, {
          items: [
            diagnostic(1),
            diagnostic(2, { resultsPublished: true, status: 'published', createdByRole: 'admin' }),
          ],
          total: 2,
        }),
      'GET /api/createDiagnostic/subjectTests': () => json(200, []),
    });
    renderApp('/admin/diagnostics');
    const table = await screen.findByTestId('admin-diagnostics-table');
    expect(await within(table).findByText('Диагностика 1')).toBeInTheDocument();
    expect(screen.queryByText(/в API нет/)).not.toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/diagnostics/list')[0]!.body).toEqual({
      page: 1,
      pageSize: 20,
      sort: { field: 'startsAt', dir: 'desc' },
    });
    const row = within(table).getByText('Диагностика 1').closest('tr')!;
    for (const text of ['D-2026-0001', 'УГНиК', 'Математика 7', '12', '340', '321', 'не опубликованы'])
      expect(within(row).getByText(text)).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Результаты и публикация' })).toHaveAttribute(
      'href',
      '/admin/results?diagnosticId=1',
    );
    expect(within(row).getByRole('link', { name: 'Задания очереди' })).toHaveAttribute(
      'href',
      '/admin/queue?diagnosticId=1',
    );
    expect(within(row).getByRole('link', { name: 'Диагностика 1' })).toHaveAttribute(
      'href',
      '/admin/diagnostics/1',
    );
    expect(screen.getByTestId('diagnostic-create')).toHaveAttribute('href', '/admin/diagnostics/new');

    await pick(screen.getByRole('search'), 'Состояние', 'Результаты опубликованы');
    await waitFor(() =>
      expect(api.callsTo('POST /api/admin/diagnostics/list').at(-1)!.body).toMatchObject({
        filter: { status: 'published' },
      }),
    );
    await userEvent.type(screen.getByLabelText('С даты'), '2026-03-01');
    await waitFor(() =>
      expect(api.callsTo('POST /api/admin/diagnostics/list').at(-1)!.body).toMatchObject({
        filter: { status: 'published', dateFrom: '2026-03-01' },
      }),
    );
  });

  it("shows one diagnostic's schools with their counts", async () => {
    server({
      'GET /api/admin/diagnostics/2': () =>
        json(200, {
          ...diagnostic(2),
          schools: [
            {
              id: 5,
              name: 'Гимназия № 5',
              code: 'S-5',
              ooName: 'ГБОУ Лицей',
              participantTestCount: 30,
              finishedWorkCount: 29,
            },
          ],
        }),
    });
    renderApp('/admin/diagnostics/2');
    await waitFor(() =>
      expect(screen.getByTestId('admin-diagnostic-title')).toHaveTextContent('D-2026-0002 — Диагностика 2'),
    );
    const schools = screen.getByTestId('diagnostic-schools-table');
    const row = (await within(schools).findByText('Гимназия № 5')).closest('tr')!;
    expect(within(row).getByText('29')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Результаты и публикация' })).toHaveAttribute(
      'href',
      '/admin/results?diagnosticId=2',
    );
  });

  it('refuses to create a diagnostic without schools before sending', async () => {
    const api = server({ 'GET /api/createDiagnostic/subjectTests': () => json(200, []) });
    renderApp('/admin/diagnostics/new');
    const form = await screen.findByTestId('admin-diagnostic-form');
    expect(screen.queryByTestId('no-admin-diagnostic-list')).not.toBeInTheDocument();
    await userEvent.type(within(form).getByLabelText(/^Название/), 'Весенняя диагностика');
    await userEvent.click(within(form).getByRole('button', { name: 'Создать' }));
    const schools = within(form).getByTestId('school-multiselect');
    expect(await within(form).findAllByText('Заполните поле')).not.toHaveLength(0);
    expect(schools).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST /api/createDiagnostic/create')).toHaveLength(0);
  });

  it('opens the results page of the diagnostic named in the link', async () => {
    const api = server({
      'GET /api/examresults/enableChangePublish/7': () =>
        json(200, { enabled: false, published: false, reasons: [] }),
      'POST /api/examresults/participantTest/list': () => json(200, { items: [], total: 0 }),
    });
    renderApp('/admin/results?diagnosticId=7');
    await waitFor(() => expect(api.callsTo('GET /api/examresults/enableChangePublish/7')).toHaveLength(1));
  });
});
