import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pick } from '../../test/pick';
import { apiError, fakeServer, json, renderApp, type Handler } from '../../test/test-app';

const ugnik = { id: 5, login: 'ugnik', displayName: 'Сидоров Сергей', roles: ['ugnik'] };

const listItem = {
  id: 7,
  code: 'I-2026-ABC123',
  name: 'Проверка математики',
  kind: 'inspection',
  startsAt: '2026-03-01T06:00:00.000Z',
  endsAt: '2026-03-05T15:00:00.000Z',
  parallels: [7],
  createdBy: 5,
  participantCount: 0,
  examWorkCount: 1,
  resultsPublished: false,
  createdAt: '2026-02-01T10:00:00.000Z',
  subjectTestCount: 1,
  schoolCount: 1,
};

function server(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, ugnik),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'POST /api/ugnik/diagnostic/list': () => json(200, { items: [listItem], total: 1 }),
    'POST /api/ugnik/mainSubjectTest/list': () =>
      json(200, {
        items: [
          {
            id: 3,
            name: 'Математика 7',
            subjectId: 1,
            subjectName: 'Математика',
            parallels: [7],
            durationMinutes: 45,
          },
          {
            id: 4,
            name: 'Физика 9',
            subjectId: 2,
            subjectName: 'Физика',
            parallels: [9],
            durationMinutes: 45,
          },
        ],
        total: 2,
      }),
    'POST /api/ugnik/school/list': () =>
      json(200, {
        items: [
          { id: 21, ooId: 1, ooName: 'ГБОУ № 1', name: 'Школа № 1', shortName: null, code: null },
          { id: 22, ooId: 2, ooName: 'ГБОУ № 2', name: 'Школа № 2', shortName: null, code: null },
        ],
        total: 2,
      }),
    ...extra,
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('ugnik work place', { timeout: 20_000 }, () => {
  it('keeps the ugnik home and lists diagnostics with server paging', async () => {
    const api = server();
    renderApp('/ugnik');
    expect(await screen.findByTestId('role-home-ugnik')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('link', { name: 'Проверочные диагностики' }));
    // The list page's call is the last one (the home asked for its own short list first; the page
    // loads as its own chunk, so its call may come a moment after the home's list is drawn).
    await waitFor(() =>
      expect(api.callsTo('POST /api/ugnik/diagnostic/list').at(-1)!.body).toEqual({
        page: 1,
        pageSize: 20,
        sort: { field: 'startsAt', dir: 'desc' },
      }),
    );
    expect(await screen.findByText('Проверка математики')).toBeInTheDocument();
    // Diagnostics are known by name and code; the database id is not a column.
    expect(screen.queryByRole('columnheader', { name: /^ID/ })).toBeNull();
  });

  it('validates and sends the create body', async () => {
    const api = server({
      'POST /api/ugnik/diagnostic/create': ({ body }) =>
        json(200, { ...listItem, ...(body as object), id: 8, subjectTests: [], schools: [] }),
      'GET /api/ugnik/diagnostic/8': () =>
        json(200, { ...listItem, id: 8, subjectTests: [{ id: 3, name: 'Математика 7' }], schools: [] }),
      'POST /api/ugnik/participantTest/list': () => json(200, { items: [], total: 0 }),
    });
    const { router } = renderApp('/ugnik/diagnostics/new');
    const form = await screen.findByTestId('ugnik-diagnostic-form');
    await userEvent.click(within(form).getByRole('button', { name: 'Создать' }));
    expect(await within(form).findAllByText('Заполните поле')).not.toHaveLength(0);
    expect(api.callsTo('POST /api/ugnik/diagnostic/create')).toHaveLength(0);

    await userEvent.type(within(form).getByLabelText(/Название/), 'Проверка математики');
    await userEvent.type(within(form).getByLabelText(/Начало окна/), '2026-03-01T09:00');
    await userEvent.type(within(form).getByLabelText(/Окончание окна/), '2026-03-05T18:00');
    await userEvent.click(within(form).getByLabelText('7'));
    await userEvent.click(await within(form).findByLabelText(/Математика 7/));
    await userEvent.click(await within(form).findByLabelText(/Школа № 2/));
    await userEvent.click(within(form).getByRole('button', { name: 'Создать' }));

    await waitFor(() => expect(api.callsTo('POST /api/ugnik/diagnostic/create')).toHaveLength(1));
    expect(api.callsTo('POST /api/ugnik/diagnostic/create')[0]!.body).toEqual({
      name: 'Проверка математики',
      startsAt: new Date('2026-03-01T09:00').toISOString(),
      endsAt: new Date('2026-03-05T18:00').toISOString(),
      parallels: [7],
      subjectTestIds: [3],
      schoolIds: [22],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/ugnik/diagnostics/8'));
  });

  it('explains inline why a started diagnostic cannot be deleted', async () => {
    server({ 'DELETE /api/ugnik/diagnostic/7': () => apiError(409, 'has_exam_works') });
    const { router } = renderApp('/ugnik/diagnostics');
    await screen.findByText('Проверка математики');
    await userEvent.click(screen.getByRole('button', { name: 'Удалить' }));
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    expect(await screen.findByTestId('delete-error')).toHaveTextContent('участники уже начали работы');
    expect(router.state.location.pathname).toBe('/ugnik/diagnostics');
  });

  it('deletes a diagnostic only after confirming and says it was deleted', async () => {
    const api = server({ 'DELETE /api/ugnik/diagnostic/7': () => json(200, { ok: true }) });
    renderApp('/ugnik/diagnostics');
    await screen.findByText('Проверка математики');
    await userEvent.click(screen.getByRole('button', { name: 'Удалить' }));
    expect(api.callsTo('DELETE /api/ugnik/diagnostic/7')).toHaveLength(0);
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() => expect(api.callsTo('DELETE /api/ugnik/diagnostic/7')).toHaveLength(1));
    expect(await screen.findByText('Диагностика удалена')).toBeInTheDocument();
  });

  it('registers students chosen by name, never by typed ids', async () => {
    const student = (id: number, surname: string, name: string) => ({
      id,
      surname,
      name,
      patronymic: null,
      schoolId: 21,
      schoolName: 'Школа № 1',
      classId: 11,
      className: '7 «А»',
    });
    const api = server({
      'GET /api/ugnik/diagnostic/7': () =>
        json(200, {
          ...listItem,
          subjectTests: [{ id: 3, name: 'Математика 7' }],
          schools: [{ id: 21, name: 'Школа № 1' }],
        }),
      'POST /api/ugnik/participantTest/list': () => json(200, { items: [], total: 0 }),
      'POST /api/ugnik/student/list': () =>
        json(200, { items: [student(101, 'Иванова', 'Анна'), student(102, 'Петров', 'Пётр')], total: 2 }),
      'POST /api/ugnik/participantTest/save': () =>
        json(200, {
          created: 1,
          existing: 0,
          items: [
            {
              studentId: 102,
              participantTestId: 70,
              activationCode: 'AB12-CD34',
              registrationCode: 'R-1',
              created: true,
            },
          ],
        }),
    });
    renderApp('/ugnik/diagnostics/7');
    await userEvent.click(await screen.findByRole('tab', { name: 'Регистрация участников' }));
    const form = await screen.findByTestId('register-form');
    expect(within(form).queryByRole('textbox', { name: /ID/ })).toBeNull();
    await userEvent.click(within(form).getByRole('button', { name: 'Зарегистрировать' }));
    expect(await within(form).findByText('Выберите учеников')).toBeInTheDocument();
    expect(api.callsTo('POST /api/ugnik/participantTest/save')).toHaveLength(0);

    await pick(form, 'Ученики', 'Петров Пётр (7 «А»)');
    expect(api.callsTo('POST /api/ugnik/student/list')[0]!.body).toMatchObject({
      filter: { diagnosticId: 7 },
    });
    await userEvent.click(within(form).getByRole('button', { name: 'Зарегистрировать' }));
    await waitFor(() => expect(api.callsTo('POST /api/ugnik/participantTest/save')).toHaveLength(1));
    expect(api.callsTo('POST /api/ugnik/participantTest/save')[0]!.body).toMatchObject({
      diagnosticId: 7,
      subjectTestId: 3,
      studentIds: [102],
    });
    expect(await within(form).findByRole('status')).toHaveTextContent('Зарегистрировано: 1, уже были: 0');
  });

  it('writes participant statuses in words, never the stored value', async () => {
    server({
      'GET /api/ugnik/diagnostic/7': () =>
        json(200, {
          ...listItem,
          subjectTests: [{ id: 3, name: 'Математика 7' }],
          schools: [{ id: 21, name: 'Школа № 1' }],
        }),
      'POST /api/ugnik/participantTest/list': () =>
        json(200, {
          items: [
            {
              id: 70,
              diagnosticId: 7,
              diagnosticName: 'Проверка математики',
              subjectTestId: 3,
              subjectTestName: 'Математика 7',
              studentId: 101,
              workerId: null,
              participantName: 'Иванова Анна',
              schoolId: 21,
              schoolName: 'Школа № 1',
              classId: 11,
              className: '7 «А»',
              buildingId: null,
              buildingName: null,
              testDate: '2026-03-02',
              status: 'planned',
              isImpersonal: false,
              activationCode: 'AB12-CD34',
              registrationCode: 'R-1',
              examWorkStatus: null,
            },
          ],
          total: 1,
        }),
    });
    renderApp('/ugnik/diagnostics/7');
    const badge = await screen.findByTestId('pt-status-70');
    expect(badge).toHaveTextContent('Запланирован');
    expect(screen.getByTestId('participants-table')).not.toHaveTextContent(/planned/i);
    // Dates as every staff table writes them: дд.мм.гггг, never the stored ISO day.
    expect(screen.getByTestId('participants-table')).toHaveTextContent('02.03.2026');
    expect(screen.getByTestId('participants-table')).not.toHaveTextContent('2026-03-02');
  });

  it('writes the surnames report with the formats of the other staff tables (dates, scores, names)', async () => {
    server({
      'GET /api/ugnik/diagnostic/7': () =>
        json(200, {
          ...listItem,
          subjectTests: [{ id: 3, name: 'Математика 7' }],
          schools: [{ id: 21, name: 'Школа № 1' }],
        }),
      'POST /api/ugnik/participantTest/list': () => json(200, { items: [], total: 0 }),
      'GET /api/ugnik/reports/surnames': () =>
        json(200, {
          diagnostic: { id: 7, code: 'I-2026-ABC123', name: 'Проверка математики' },
          items: [
            {
              participantTestId: 70,
              surname: 'Иванова',
              name: 'Анна',
              patronymic: 'Петровна',
              schoolName: 'Школа № 1',
              className: '7 «А»',
              subjectTestName: 'Математика 7',
              testDate: '2026-03-02',
              status: 'finished',
              activationCode: 'AB12-CD34',
              score: 12.5,
            },
          ],
        }),
    });
    renderApp('/ugnik/diagnostics/7');
    await userEvent.click(await screen.findByRole('tab', { name: 'Отчёты' }));
    const row = (await screen.findByText('Иванова Анна Петровна')).closest('tr')!;
    const cells = [...row.querySelectorAll('td')].map((td) => td.textContent);
    expect(cells).toEqual(expect.arrayContaining(['02.03.2026', '12,5']));
    expect(row.textContent).not.toMatch(/2026-03-02|12\.5|finished/);
  });
});
