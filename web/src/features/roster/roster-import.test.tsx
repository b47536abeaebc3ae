import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp, users, type Handler } from '../../test/test-app';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const admin = { id: 1, login: 'admin', displayName: 'Администратор Платформы', roles: ['admin'] };
const IMPORT = 'POST /api/admin/roster/import';

const counts = (
  over: Partial<Record<'oo' | 'schools' | 'buildings' | 'classes' | 'students', number>> = {},
) => ({
  oo: 0,
  schools: 0,
  buildings: 0,
  classes: 0,
  students: 0,
  ...over,
});

const answer = (over: Record<string, unknown> = {}) => ({
  dryRun: true,
  created: counts({ oo: 1, schools: 1, buildings: 2, classes: 3, students: 40 }),
  updated: counts({ classes: 1, students: 5 }),
  unchanged: 7,
  errors: [],
  ...over,
});

function server(user: object, extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, user),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    ...extra,
  });
}

/** The form fields of a sent import, in their order. */
const fieldsOf = (body: unknown) => [...(body as FormData).keys()];

async function choose(name = 'students.csv') {
  await screen.findByTestId('roster-file');
  const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
  await userEvent.upload(input, new File(['ОО;Школа\n'], name, { type: 'text/csv' }));
}

const count = (kind: string) =>
  [...screen.getByTestId(`roster-count-${kind}`).querySelectorAll('th, td')].map((c) => c.textContent);

describe('roster import', { timeout: 20_000 }, () => {
  it('is in the admin navigation, says what the file holds and downloads both templates', async () => {
    const createObjectURL = vi.fn(() => 'blob:template');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const api = server(admin, {
      'GET /api/admin/roster/template': () =>
        new Response(new Blob(['x']), {
          status: 200,
          headers: { 'content-disposition': 'attachment; filename="roster.xlsx"' },
        }),
    });
    renderApp('/admin/roster');
    const nav = await screen.findByRole('navigation', { name: 'Разделы' });
    expect(await within(nav).findByRole('link', { name: 'Импорт контингента' })).toHaveAttribute(
      'href',
      '/admin/roster',
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Импорт контингента' })).toBeInTheDocument();
    const columns = screen.getByTestId('roster-columns');
    expect(within(columns).getByRole('rowheader', { name: 'Дата рождения' })).toBeInTheDocument();
    expect(within(columns).getByRole('rowheader', { name: 'Параллель' }).closest('tr')).toHaveTextContent(
      /да.*от 0 до 11/,
    );
    expect(screen.getByTestId('roster-scope')).toHaveTextContent('для любой школы');

    await userEvent.click(screen.getByTestId('roster-template-xlsx'));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(1));
    await userEvent.click(screen.getByTestId('roster-template-csv'));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(2));
    const urls = api.callsTo('GET /api/admin/roster/template').map((c) => c.url);
    expect(urls).toEqual(['/api/admin/roster/template?format=xlsx', '/api/admin/roster/template?format=csv']);
  });

  it('checks a file by a dry run: counts in words, row errors by code in Russian; import stays off', async () => {
    const api = server(admin, {
      [IMPORT]: () =>
        json(
          200,
          answer({
            errors: [
              { row: 3, column: 'birthDate', code: 'invalid_date', message: 'Not a real day' },
              { row: 5, column: 'grade', code: 'invalid_grade', message: 'Grade is 0 to 11' },
              { row: 6, code: 'something_new', message: 'Whatever' },
            ],
          }),
        ),
    });
    renderApp('/admin/roster');
    await choose();
    expect(screen.getByTestId('roster-import')).toBeDisabled();
    await userEvent.click(screen.getByTestId('roster-check'));
    const preview = await screen.findByTestId('roster-preview');

    const sent = api.callsTo(IMPORT)[0]!.body as FormData;
    expect(fieldsOf(sent)).toEqual(['dryRun', 'file']);
    expect(sent.get('dryRun')).toBe('true');
    expect((sent.get('file') as File).name).toBe('students.csv');

    expect(within(preview).getByTestId('roster-preview-errors')).toHaveTextContent('В файле 3 ошибки');
    expect(count('students')).toEqual(['Ученики', '40', '5']);
    expect(count('oo')).toEqual(['ОО', '1', '0']);
    expect(within(preview).getByTestId('roster-counts')).toHaveTextContent('Будет создано');
    expect(within(preview).getByTestId('roster-unchanged')).toHaveTextContent('Учеников без изменений: 7');

    const rows = within(screen.getByTestId('roster-errors'))
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['3', 'Дата рождения', expect.stringContaining('Дата не распознана')],
      ['5', 'Параллель', 'Параллель должна быть числом от 0 до 11.'],
      ['6', '—', 'Ошибка в строке.'],
    ]);
    expect(preview).not.toHaveTextContent('Not a real day');
    expect(preview).not.toHaveTextContent('Whatever');
    expect(screen.getByTestId('roster-import')).toBeDisabled();
  });

  it('imports only after a clean dry run of the same file, after a confirmation, then shows the result', async () => {
    let release: () => void = () => {};
    const api = server(admin, {
      [IMPORT]: ({ body }) => {
        const dryRun = (body as FormData).get('dryRun') === 'true';
        if (dryRun) return json(200, answer());
        return json(200, answer({ dryRun: false }));
      },
    });
    // The real import answers only when the test lets it, so its progress can be seen.
    const fetch = api.fetch.getMockImplementation()!;
    api.fetch.mockImplementation(async (input, init = {}) => {
      const body = init.body;
      if (body instanceof FormData && body.get('dryRun') === 'false')
        await new Promise<void>((resolve) => (release = resolve));
      return fetch(input, init);
    });
    renderApp('/admin/roster');
    await choose();
    await userEvent.click(screen.getByTestId('roster-check'));
    expect(await screen.findByTestId('roster-preview-clean')).toHaveTextContent('Ошибок нет');
    const importButton = screen.getByTestId('roster-import');
    expect(importButton).toBeEnabled();

    // Another file needs its own check.
    await choose('other.csv');
    expect(screen.getByTestId('roster-import')).toBeDisabled();
    expect(screen.queryByTestId('roster-preview')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('roster-check'));
    await screen.findByTestId('roster-preview-clean');

    await userEvent.click(screen.getByTestId('roster-import'));
    const dialog = await screen.findByRole('dialog', { name: 'Импортировать учеников?' });
    expect(dialog).toHaveTextContent('other.csv');
    expect(api.callsTo(IMPORT)).toHaveLength(2);
    await userEvent.click(within(dialog).getByTestId('roster-confirm'));

    expect(await screen.findByTestId('roster-progress')).toHaveTextContent('Импортируем учеников');
    expect(screen.getByTestId('roster-import')).toBeDisabled();
    act(() => release());

    const result = await screen.findByTestId('roster-result');
    expect(result).toHaveTextContent('Импорт выполнен');
    expect(within(result).getByTestId('roster-counts')).toHaveTextContent('Создано');
    expect(count('students')).toEqual(['Ученики', '40', '5']);
    expect(screen.queryByTestId('roster-progress')).not.toBeInTheDocument();
    expect(screen.getByTestId('roster-import')).toBeDisabled();
    expect(api.callsTo(IMPORT)).toHaveLength(3);
    const sent = api.callsTo(IMPORT)[2]!.body as FormData;
    expect(fieldsOf(sent)).toEqual(['dryRun', 'file']);
    expect(sent.get('dryRun')).toBe('false');
    expect((sent.get('file') as File).name).toBe('other.csv');
  });

  it('shows refusals of the whole file by their code', async () => {
    let refusal = json(400, {
      status: 400,
      code: 'validation_failed',
      message: 'Missing columns',
      errors: [
        { path: 'header.grade', message: 'missing' },
        { path: 'header.surname', message: 'missing' },
      ],
    });
    server(admin, { [IMPORT]: () => refusal });
    renderApp('/admin/roster');
    await choose();
    await userEvent.click(screen.getByTestId('roster-check'));
    expect(await screen.findByTestId('roster-error')).toHaveTextContent(
      'В файле нет обязательных столбцов: «Параллель», «Фамилия».',
    );

    refusal = json(400, { status: 400, code: 'unsupported_format', message: 'Not a spreadsheet' });
    await userEvent.click(screen.getByTestId('roster-check'));
    await waitFor(() =>
      expect(screen.getByTestId('roster-error')).toHaveTextContent('Формат файла не поддерживается'),
    );

    refusal = json(413, { status: 413, code: 'payload_too_large', message: 'Too large' });
    await userEvent.click(screen.getByTestId('roster-check'));
    await waitFor(() => expect(screen.getByTestId('roster-error')).toHaveTextContent('не больше 5 МБ'));
    expect(screen.getByTestId('roster-error')).not.toHaveTextContent('Too large');

    refusal = json(400, { status: 400, code: 'too_many_rows', message: 'Too many rows' });
    await userEvent.click(screen.getByTestId('roster-check'));
    await waitFor(() => expect(screen.getByTestId('roster-error')).toHaveTextContent('слишком много строк'));

    refusal = json(403, { status: 403, code: 'forbidden', message: 'Forbidden' });
    await userEvent.click(screen.getByTestId('roster-check'));
    await waitFor(() => expect(screen.getByTestId('roster-error')).toHaveTextContent('нет прав'));
    expect(screen.getByTestId('roster-import')).toBeDisabled();
  });

  it('refuses a file of another type before sending it', async () => {
    const api = server(admin);
    renderApp('/admin/roster');
    await screen.findByTestId('roster-file');
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(input, new File(['x'], 'students.pdf', { type: 'application/pdf' }), {
      applyAccept: false,
    });
    expect(await screen.findByText('Нужен файл .xlsx или .csv.')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('roster-check'));
    expect(api.callsTo(IMPORT)).toHaveLength(0);
  });

  it('explains a conflict of the real import, and shows errors found by the import itself', async () => {
    let real = json(409, { status: 409, code: 'conflict', message: 'Unique violation' });
    server(admin, {
      [IMPORT]: ({ body }) => ((body as FormData).get('dryRun') === 'true' ? json(200, answer()) : real),
    });
    renderApp('/admin/roster');
    await choose();
    await userEvent.click(screen.getByTestId('roster-check'));
    await screen.findByTestId('roster-preview-clean');
    await userEvent.click(screen.getByTestId('roster-import'));
    await userEvent.click(await screen.findByTestId('roster-confirm'));
    expect(await screen.findByTestId('roster-error')).toHaveTextContent(
      'те же классы или ученики были изменены другим пользователем',
    );
    expect(screen.queryByTestId('roster-result')).not.toBeInTheDocument();

    // The file's rows changed meaning meanwhile: the import writes nothing and lists the errors.
    real = json(
      200,
      answer({
        dryRun: false,
        errors: [{ row: 4, column: 'externalId', code: 'duplicate_row', message: 'Duplicate' }],
      }),
    );
    await userEvent.click(screen.getByTestId('roster-import'));
    await userEvent.click(await screen.findByTestId('roster-confirm'));
    expect(await screen.findByTestId('roster-preview-errors')).toHaveTextContent('ничего не записано');
    expect(screen.getByTestId('roster-errors')).toHaveTextContent('Внешний id');
    expect(screen.queryByTestId('roster-result')).not.toBeInTheDocument();
    expect(screen.getByTestId('roster-import')).toBeDisabled();
  });

  it('tells a coordinator the import is limited to their school, in English too', async () => {
    const { i18n } = (() => {
      server(users.coordinator, {
        [IMPORT]: () =>
          json(
            200,
            answer({
              errors: [{ row: 2, column: 'school', code: 'school_out_of_scope', message: 'x' }],
            }),
          ),
      });
      return renderApp('/coordinator/roster');
    })();
    expect(await screen.findByTestId('roster-scope')).toHaveTextContent('только своей школы');
    await act(() => i18n.changeLanguage('en'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Roster import' })).toBeInTheDocument();
    expect(screen.getByTestId('roster-scope')).toHaveTextContent('your own school only');
    const nav = screen.getByRole('navigation');
    expect(await within(nav).findByRole('link', { name: 'Roster import' })).toHaveAttribute(
      'href',
      '/coordinator/roster',
    );
    await choose();
    await userEvent.click(screen.getByTestId('roster-check'));
    const preview = await screen.findByTestId('roster-preview');
    expect(preview).toHaveTextContent('The file has 1 error.');
    expect(preview).toHaveTextContent('To create');
    const row = within(screen.getByTestId('roster-errors')).getAllByRole('row')[1]!;
    expect([...row.querySelectorAll('td')].map((c) => c.textContent)).toEqual([
      '2',
      'School',
      'The row names another school or ОО: you may import your own school only.',
    ]);
  });
});

describe('staff import', { timeout: 20_000 }, () => {
  const STAFF_IMPORT = 'POST /api/admin/roster/staff/import';
  const staffCounts = (over: Record<string, number> = {}) => ({
    oo: 0,
    schools: 0,
    users: 0,
    organizators: 0,
    coordinators: 0,
    workers: 0,
    ...over,
  });
  const staffAnswer = (over: Record<string, unknown> = {}) => ({
    dryRun: true,
    created: staffCounts({ users: 3, organizators: 2, coordinators: 1, workers: 4 }),
    updated: staffCounts({ users: 1, organizators: 1 }),
    unchanged: 2,
    errors: [],
    ...over,
  });

  async function staffTab() {
    await userEvent.click(await screen.findByRole('radio', { name: 'Сотрудники' }));
    await screen.findByRole('rowheader', { name: 'Роль' });
  }

  it('switches to staff: its columns, its templates, a dry run with its counts and row errors by code', async () => {
    const createObjectURL = vi.fn(() => 'blob:template');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const api = server(admin, {
      'GET /api/admin/roster/staff/template': () =>
        new Response(new Blob(['x']), {
          status: 200,
          headers: { 'content-disposition': 'attachment; filename="staff.xlsx"' },
        }),
      [STAFF_IMPORT]: () =>
        json(
          200,
          staffAnswer({
            errors: [
              { row: 2, column: 'login', code: 'login_taken', message: 'Taken' },
              { row: 4, column: 'role', code: 'invalid_role', message: 'Bad role' },
              { row: 5, column: 'login', code: 'login_for_worker', message: 'No login' },
            ],
          }),
        ),
    });
    renderApp('/admin/roster');
    // A file chosen for students does not carry over to staff.
    await choose('students.csv');
    await staffTab();
    expect(screen.queryByText('students.csv')).not.toBeInTheDocument();
    const columns = screen.getByTestId('roster-columns');
    expect(within(columns).getByRole('rowheader', { name: 'Роль' }).closest('tr')).toHaveTextContent(
      /да.*организатор/,
    );
    expect(within(columns).getByRole('rowheader', { name: 'Логин' }).closest('tr')).toHaveTextContent('нет');
    expect(within(columns).queryByRole('rowheader', { name: 'Параллель' })).not.toBeInTheDocument();
    expect(screen.getByTestId('roster-scope')).toHaveTextContent('ссылка, по которой они зададут пароль');

    await userEvent.click(screen.getByTestId('roster-template-xlsx'));
    await userEvent.click(screen.getByTestId('roster-template-csv'));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(2));
    expect(api.callsTo('GET /api/admin/roster/staff/template').map((c) => c.url)).toEqual([
      '/api/admin/roster/staff/template?format=xlsx',
      '/api/admin/roster/staff/template?format=csv',
    ]);
    expect(api.callsTo('GET /api/admin/roster/template')).toHaveLength(0);

    await choose('staff.csv');
    await userEvent.click(screen.getByTestId('roster-check'));
    const preview = await screen.findByTestId('roster-preview');
    const sent = api.callsTo(STAFF_IMPORT)[0]!.body as FormData;
    expect(fieldsOf(sent)).toEqual(['dryRun', 'file']);
    expect(sent.get('dryRun')).toBe('true');
    expect(api.callsTo(IMPORT)).toHaveLength(0);

    expect(within(preview).getByTestId('roster-preview-errors')).toHaveTextContent('В файле 3 ошибки');
    expect(count('organizators')).toEqual(['Организаторы', '2', '1']);
    expect(count('users')).toEqual(['Учётные записи', '3', '1']);
    expect(count('workers')).toEqual(['Работники', '4', '0']);
    expect(within(preview).getByTestId('roster-unchanged')).toHaveTextContent('Строк без изменений: 2');
    const rows = within(screen.getByTestId('roster-errors'))
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['2', 'Логин', 'Этот логин уже занят другой учётной записью.'],
      ['4', 'Роль', expect.stringContaining('Роль не распознана')],
      ['5', 'Логин', 'У работника нет учётной записи: оставьте логин пустым.'],
    ]);
    expect(preview).not.toHaveTextContent('Taken');
    expect(screen.getByTestId('roster-import')).toBeDisabled();
  });

  it('imports staff after a clean check and a confirmation, and shows the result and refusals by code', async () => {
    let refusal: Response | null = null;
    const api = server(admin, {
      [STAFF_IMPORT]: ({ body }) => {
        if (refusal) return refusal;
        const dryRun = (body as FormData).get('dryRun') === 'true';
        return json(200, staffAnswer({ dryRun }));
      },
    });
    renderApp('/admin/roster');
    await staffTab();
    await choose('staff.csv');
    await userEvent.click(screen.getByTestId('roster-check'));
    expect(await screen.findByTestId('roster-preview-clean')).toHaveTextContent('Ошибок нет');
    await userEvent.click(screen.getByTestId('roster-import'));
    const dialog = await screen.findByRole('dialog', { name: 'Импортировать сотрудников?' });
    await userEvent.click(within(dialog).getByTestId('roster-confirm'));
    const result = await screen.findByTestId('roster-result');
    expect(result).toHaveTextContent('Файл «staff.csv» импортирован.');
    expect(count('coordinators')).toEqual(['Координаторы', '1', '0']);
    const sent = api.callsTo(STAFF_IMPORT)[1]!.body as FormData;
    expect(sent.get('dryRun')).toBe('false');

    refusal = json(409, { status: 409, code: 'conflict', message: 'Unique violation' });
    await choose('again.csv');
    await userEvent.click(screen.getByTestId('roster-check'));
    expect(await screen.findByTestId('roster-error')).toHaveTextContent(
      'те же учётные записи или сотрудники были изменены',
    );
    refusal = json(400, {
      status: 400,
      code: 'validation_failed',
      message: 'Missing',
      errors: [{ path: 'header.role', message: 'missing' }],
    });
    await userEvent.click(screen.getByTestId('roster-check'));
    await waitFor(() =>
      expect(screen.getByTestId('roster-error')).toHaveTextContent(
        'В файле нет обязательных столбцов: «Роль».',
      ),
    );
  });

  it('tells a coordinator which staff they may import, in English too', async () => {
    server(users.coordinator, {
      [STAFF_IMPORT]: () =>
        json(
          200,
          staffAnswer({ errors: [{ row: 3, column: 'role', code: 'role_not_allowed', message: 'x' }] }),
        ),
    });
    const { i18n } = renderApp('/coordinator/roster');
    await staffTab();
    expect(screen.getByTestId('roster-scope')).toHaveTextContent(
      'организаторов и работников только своей школы',
    );
    await act(() => i18n.changeLanguage('en'));
    expect(await screen.findByRole('radio', { name: 'Staff' })).toBeChecked();
    expect(screen.getByTestId('roster-scope')).toHaveTextContent(
      'organizers and workers of your own school only',
    );
    await choose('staff.csv');
    await userEvent.click(screen.getByTestId('roster-check'));
    const row = within(await screen.findByTestId('roster-errors')).getAllByRole('row')[1]!;
    expect([...row.querySelectorAll('td')].map((c) => c.textContent)).toEqual([
      '3',
      'Role',
      'Your import may not set this role or change this account.',
    ]);
    expect(count('organizators')).toEqual(['Organizers', '2', '1']);
  });
});
