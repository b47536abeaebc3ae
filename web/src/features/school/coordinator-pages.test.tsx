import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, users } from '../../test/test-app';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const classes = {
  items: [
    {
      id: 11,
      name: '7 «А»',
      letter: 'А',
      parallel: 7,
      buildingId: 1,
      buildingName: 'Корпус 1',
      studentCount: 2,
    },
    {
      id: 12,
      name: '8 «Б»',
      letter: 'Б',
      parallel: 8,
      buildingId: 1,
      buildingName: 'Корпус 1',
      studentCount: 1,
    },
  ],
  total: 2,
};
const student = {
  id: 101,
  surname: 'Иванова',
  name: 'Анна',
  patronymic: null,
  birthDate: '2012-03-04',
  gender: 'female',
  schoolId: 1,
  classId: 11,
  className: '7 «А»',
  parallel: 7,
  buildingId: 1,
  buildingName: 'Корпус 1',
  createdAt: '2026-01-01T00:00:00Z',
};
const diagnostic = {
  id: 5,
  code: 'D-2026-0005',
  name: 'Математика 7',
  kind: 'diagnostic',
  startsAt: '2026-04-10T06:00:00Z',
  endsAt: '2026-04-12T15:00:00Z',
  parallels: [7],
  status: 'planned',
  resultsPublished: false,
  subjectTests: [{ id: 31, name: 'Математика, 7 класс', parallels: [7] }],
  participantCount: 0,
};

const signedIn = (user: object, extra = {}) =>
  fakeServer({
    'GET /api/user': () => json(200, user),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    ...extra,
  });

async function fill(label: RegExp, value: string) {
  await userEvent.click(await screen.findByLabelText(label));
  await userEvent.paste(value);
}

describe('coordinator work place', () => {
  it('lists its sections in the navigation and keeps the home page', async () => {
    signedIn(users.coordinator);
    renderApp('/coordinator');
    expect(await screen.findByTestId('role-home-coordinator')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Разделы' });
    expect(await within(nav).findByRole('link', { name: 'Ученики' })).toHaveAttribute(
      'href',
      '/coordinator/students',
    );
    expect(within(nav).getByRole('link', { name: 'Диагностики' })).toHaveAttribute(
      'href',
      '/coordinator/diagnostics',
    );
  });

  it('validates the student form before sending and posts the right body', { timeout: 20_000 }, async () => {
    const server = signedIn(users.coordinator, {
      'POST /api/coordinator/class/list': () => json(200, classes),
      'POST /api/coordinator/student/list': () => json(200, { items: [student], total: 1 }),
      'POST /api/coordinator/student': () => json(200, { ...student, id: 102, surname: 'Петров' }),
    });
    renderApp('/coordinator/students');
    expect(await screen.findByText('Иванова Анна')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('student-add'));
    const form = await screen.findByTestId('student-form');
    await userEvent.click(within(form).getByTestId('student-save'));
    expect(await within(form).findAllByText('Заполните поле')).not.toHaveLength(0);
    expect(server.callsTo('POST /api/coordinator/student')).toHaveLength(0);

    await fill(/^Фамилия/, 'Петров');
    await fill(/^Имя/, 'Пётр');
    await fill(/^Дата рождения/, '2012-05-06');
    await userEvent.selectOptions(within(form).getByLabelText(/^Пол/), 'male');
    await userEvent.selectOptions(within(form).getByLabelText(/^Класс/), '11');
    await userEvent.click(within(form).getByTestId('student-save'));
    await waitFor(() => expect(server.callsTo('POST /api/coordinator/student')).toHaveLength(1));
    expect(server.callsTo('POST /api/coordinator/student')[0]!.body).toEqual({
      surname: 'Петров',
      name: 'Пётр',
      patronymic: null,
      birthDate: '2012-05-06',
      gender: 'male',
      classId: 11,
    });
    // The list is refreshed after the save.
    await waitFor(() =>
      expect(server.callsTo('POST /api/coordinator/student/list').length).toBeGreaterThan(1),
    );
  });

  it('shows server field errors under the fields', { timeout: 20_000 }, async () => {
    signedIn(users.coordinator, {
      'POST /api/coordinator/class/list': () => json(200, classes),
      'POST /api/coordinator/student/list': () => json(200, { items: [student], total: 1 }),
      'POST /api/coordinator/student': () =>
        json(400, {
          status: 400,
          code: 'validation_failed',
          message: 'bad',
          errors: [{ path: 'body.birthDate', message: 'Birth date is in the future', code: 'custom' }],
        }),
    });
    renderApp('/coordinator/students');
    await userEvent.click(await screen.findByTestId('student-edit-101'));
    const form = await screen.findByTestId('student-form');
    await userEvent.click(within(form).getByTestId('student-save'));
    // The field's own text in Russian, chosen by the code — not the server's English.
    expect(await within(form).findByText('Проверьте значение')).toBeInTheDocument();
    expect(within(form).queryByText(/Birth date/)).toBeNull();
    expect(within(form).getByTestId('student-form-error')).toHaveTextContent('Проверьте заполнение полей.');
  });

  it('a 403 on a list shows an inline message and stays on the page', async () => {
    signedIn(users.coordinator, {
      'POST /api/coordinator/class/list': () => apiError(403, 'forbidden'),
      'POST /api/coordinator/student/list': () => apiError(403, 'forbidden'),
    });
    const { router } = renderApp('/coordinator/students');
    expect(await screen.findByTestId('students-error')).toHaveTextContent('Нет доступа к этим данным.');
    expect(router.state.location.pathname).toBe('/coordinator/students');
    expect(screen.getByTestId('coordinator-students-title')).toBeInTheDocument();
  });

  it('registers whole classes for a subject test of the diagnostic', { timeout: 20_000 }, async () => {
    const server = signedIn(users.coordinator, {
      'POST /api/coordinator/diagnostic/list': () => json(200, { items: [diagnostic], total: 1 }),
      'POST /api/coordinator/class/list': () => json(200, classes),
      'POST /api/coordinator/participantTest/list': () => json(200, { items: [], total: 0 }),
      'POST /api/coordinator/participantTest/save': () => json(200, { created: 2, skipped: 0, items: [] }),
    });
    renderApp('/coordinator/diagnostics/5');
    expect(await screen.findByTestId('coordinator-participants-title')).toHaveTextContent('Математика 7');
    await userEvent.click(screen.getByTestId('register-open'));
    const form = await screen.findByTestId('register-form');
    // Only classes of the subject test's grades are offered.
    expect(within(form).queryByLabelText('8 «Б»')).not.toBeInTheDocument();
    await userEvent.click(within(form).getByTestId('register-submit'));
    expect(await within(form).findByText('Отметьте хотя бы один класс или ученика')).toBeInTheDocument();
    expect(server.callsTo('POST /api/coordinator/participantTest/save')).toHaveLength(0);

    await userEvent.click(within(form).getByLabelText('7 «А»'));
    await userEvent.click(within(form).getByTestId('register-submit'));
    await waitFor(() => expect(server.callsTo('POST /api/coordinator/participantTest/save')).toHaveLength(1));
    const testDate = server.callsTo('POST /api/coordinator/participantTest/save')[0]!.body as {
      testDate: string;
    };
    expect(server.callsTo('POST /api/coordinator/participantTest/save')[0]!.body).toEqual({
      diagnosticId: 5,
      subjectTestId: 31,
      testDate: testDate.testDate,
      classIds: [11],
    });
    expect(testDate.testDate).toMatch(/^2026-04-1\d$/);
  });
});

describe('organizator work place', () => {
  it('shows participant tests of a diagnostic with live status and codes', async () => {
    const organizator = { id: 4, login: 'organizator', displayName: 'Сидоров С.', roles: ['organizator'] };
    const server = signedIn(organizator, {
      'POST /api/organizator/diagnostic/list': () => json(200, { items: [diagnostic], total: 1 }),
      'POST /api/organizator/class/list': () => json(200, classes),
      'POST /api/organizator/participantTest/list': () =>
        json(200, {
          items: [
            {
              id: 900,
              diagnosticId: 5,
              diagnosticName: 'Математика 7',
              subjectTestId: 31,
              subjectTestName: 'Математика, 7 класс',
              studentId: 101,
              surname: 'Иванова',
              name: 'Анна',
              patronymic: null,
              classId: 11,
              className: '7 «А»',
              parallel: 7,
              buildingId: 1,
              buildingName: 'Корпус 1',
              testDate: '2026-04-10',
              status: 'in_progress',
              isImpersonal: false,
              activationCode: 'AB12-CD34',
              registrationCode: 'R-0001',
              examWork: null,
            },
          ],
          total: 1,
        }),
    });
    renderApp('/organizator/diagnostics/5');
    expect(await screen.findByTestId('pt-status-900')).toHaveTextContent('Выполняет работу');
    expect(screen.getByText('AB12-CD34')).toBeInTheDocument();
    expect(server.callsTo('POST /api/organizator/participantTest/list')[0]!.body).toMatchObject({
      filter: { diagnosticId: 5 },
    });
    const nav = screen.getByRole('navigation', { name: 'Разделы' });
    expect(within(nav).getByRole('link', { name: 'Мои классы' })).toHaveAttribute(
      'href',
      '/organizator/classes',
    );
  });
});

// ---------------------------------------------------------------- organizators and staff tests

const positions = {
  items: [
    { id: 3, name: 'Учитель' },
    { id: 4, name: 'Завуч' },
  ],
  total: 2,
};
const organizator = {
  id: 21,
  login: 'org1',
  surname: 'Сидорова',
  name: 'Мария',
  patronymic: null,
  email: null,
  isBlocked: false,
  workerId: 51,
  positionId: 3,
  positionName: 'Учитель',
  classes: [{ id: 11, name: '7 «А»' }],
  buildings: [],
  workerTests: [],
};
const workerTest = {
  id: 61,
  name: 'Обучение организаторов',
  subjectTestId: 41,
  subjectTestName: 'Тест для организаторов',
  diagnosticId: 7,
  diagnosticCode: 'W-2026-0007',
  positionId: null,
  positionName: null,
  schoolId: 1,
  schoolName: 'Школа 1',
  startsAt: '2026-05-01T06:00:00.000Z',
  endsAt: '2026-05-02T15:00:00.000Z',
  participantCount: 0,
  editable: true,
  createdAt: '2026-04-01T00:00:00.000Z',
};
const subjectTests = [
  {
    id: 31,
    name: 'Математика, 7 класс',
    subjectId: 1,
    subjectName: 'Математика',
    kind: 'diagnostic',
    parallels: [7],
    durationMinutes: 45,
    variantCount: 2,
    specificationId: null,
  },
  {
    id: 41,
    name: 'Тест для организаторов',
    subjectId: 9,
    subjectName: 'Обучение',
    kind: 'worker',
    parallels: [],
    durationMinutes: 30,
    variantCount: 1,
    specificationId: null,
  },
];

const withPositions = (extra: Parameters<typeof fakeServer>[0]) =>
  signedIn(users.coordinator, { 'POST /api/workerPosition/list': () => json(200, positions), ...extra });

describe('organizators page', () => {
  it(
    'validates, creates an organizator and shows the generated password once',
    { timeout: 20_000 },
    async () => {
      const server = withPositions({
        'POST /api/coordinator/organizator/list': () => json(200, { items: [organizator], total: 1 }),
        'POST /api/coordinator/class/list': () => json(200, classes),
        'POST /api/coordinator/building/list': () => json(200, { items: [], total: 0 }),
        'POST /api/coordinator/organizator': () =>
          json(200, { organizator: { ...organizator, id: 22 }, generatedPassword: 'Secret-123' }),
      });
      renderApp('/coordinator/organizators');
      expect(await screen.findByText('Сидорова Мария')).toBeInTheDocument();
      await userEvent.click(screen.getByTestId('organizator-add'));
      const form = await screen.findByTestId('organizator-form');
      expect(screen.getByRole('dialog', { name: 'Новый организатор' })).toBeInTheDocument();
      await userEvent.click(within(form).getByTestId('organizator-save'));
      expect(await within(form).findAllByText('Заполните поле')).not.toHaveLength(0);
      expect(server.callsTo('POST /api/coordinator/organizator')).toHaveLength(0);

      await userEvent.type(within(form).getByLabelText(/^Логин/), 'org2');
      await userEvent.type(within(form).getByLabelText(/^Фамилия/), 'Петров');
      await userEvent.type(within(form).getByLabelText(/^Имя/), 'Пётр');
      await waitFor(() => expect(within(form).getByRole('option', { name: 'Завуч' })).toBeInTheDocument());
      await userEvent.selectOptions(within(form).getByLabelText(/^Должность/), '4');
      await userEvent.click(within(form).getByTestId('organizator-save'));
      await waitFor(() => expect(server.callsTo('POST /api/coordinator/organizator')).toHaveLength(1));
      expect(server.callsTo('POST /api/coordinator/organizator')[0]!.body).toEqual({
        login: 'org2',
        surname: 'Петров',
        name: 'Пётр',
        patronymic: null,
        email: null,
        positionId: 4,
        classIds: [],
        buildingIds: [],
      });
      expect(await screen.findByTestId('generated-password')).toHaveTextContent('Secret-123');
      expect(screen.queryByTestId('organizator-form')).not.toBeInTheDocument();
      await waitFor(() =>
        expect(server.callsTo('POST /api/coordinator/organizator/list').length).toBeGreaterThan(1),
      );
    },
  );

  it('edits an organizator with its values filled in', { timeout: 20_000 }, async () => {
    const server = withPositions({
      'POST /api/coordinator/organizator/list': () => json(200, { items: [organizator], total: 1 }),
      'POST /api/coordinator/class/list': () => json(200, classes),
      'POST /api/coordinator/building/list': () => json(200, { items: [], total: 0 }),
      'POST /api/coordinator/organizator': () => json(200, { organizator, generatedPassword: null }),
    });
    renderApp('/coordinator/organizators');
    const row = (await screen.findByText('Сидорова Мария')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Изменить' }));
    const form = await screen.findByTestId('organizator-form');
    expect(within(form).getByLabelText(/^Логин/)).toHaveValue('org1');
    await userEvent.click(within(form).getByTestId('organizator-save'));
    await waitFor(() => expect(server.callsTo('POST /api/coordinator/organizator')).toHaveLength(1));
    expect(server.callsTo('POST /api/coordinator/organizator')[0]!.body).toMatchObject({
      id: 21,
      login: 'org1',
      positionId: 3,
      classIds: [11],
    });
    await waitFor(() => expect(screen.queryByTestId('organizator-form')).not.toBeInTheDocument());
  });
});

describe('staff tests page', () => {
  it('creates and edits a staff test', { timeout: 20_000 }, async () => {
    const server = withPositions({
      'POST /api/workerTest/list': () => json(200, { items: [workerTest], total: 1 }),
      'GET /api/createDiagnostic/subjectTests': () => json(200, subjectTests),
      'PUT /api/workerTest/save': () => json(200, workerTest),
    });
    renderApp('/coordinator/worker-tests');
    expect(await screen.findByText('Обучение организаторов')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Добавить тестирование' }));
    let form = await screen.findByTestId('worker-test-form');
    expect(screen.getByRole('dialog', { name: 'Новое тестирование работников' })).toBeInTheDocument();
    await userEvent.click(within(form).getByTestId('worker-test-save'));
    expect(await within(form).findAllByText('Заполните поле')).not.toHaveLength(0);
    expect(server.callsTo('PUT /api/workerTest/save')).toHaveLength(0);

    await userEvent.type(within(form).getByLabelText(/^Название/), 'Повторное обучение');
    await waitFor(() =>
      expect(within(form).getByRole('option', { name: 'Тест для организаторов' })).toBeInTheDocument(),
    );
    // Only the tests meant for staff are offered.
    expect(within(form).queryByRole('option', { name: 'Математика, 7 класс' })).not.toBeInTheDocument();
    await userEvent.selectOptions(within(form).getByLabelText(/^Тест/), '41');
    await userEvent.selectOptions(within(form).getByLabelText(/^Должность/), '3');
    fireEvent.change(within(form).getByLabelText(/^Начало/), { target: { value: '2026-05-03T09:00' } });
    fireEvent.change(within(form).getByLabelText(/^Окончание/), { target: { value: '2026-05-04T18:00' } });
    await userEvent.click(within(form).getByTestId('worker-test-save'));
    await waitFor(() => expect(server.callsTo('PUT /api/workerTest/save')).toHaveLength(1));
    expect(server.callsTo('PUT /api/workerTest/save')[0]!.body).toEqual({
      name: 'Повторное обучение',
      subjectTestId: 41,
      positionId: 3,
      startsAt: new Date('2026-05-03T09:00').toISOString(),
      endsAt: new Date('2026-05-04T18:00').toISOString(),
    });
    await waitFor(() => expect(screen.queryByTestId('worker-test-form')).not.toBeInTheDocument());
    await waitFor(() => expect(server.callsTo('POST /api/workerTest/list').length).toBeGreaterThan(1));

    const row = screen.getByText('Обучение организаторов').closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Изменить' }));
    form = await screen.findByTestId('worker-test-form');
    expect(screen.getByRole('dialog', { name: 'Тестирование работников' })).toBeInTheDocument();
    expect(within(form).getByLabelText(/^Название/)).toHaveValue('Обучение организаторов');
    await userEvent.click(within(form).getByTestId('worker-test-save'));
    await waitFor(() => expect(server.callsTo('PUT /api/workerTest/save')).toHaveLength(2));
    expect(server.callsTo('PUT /api/workerTest/save')[1]!.body).toEqual({
      id: 61,
      name: 'Обучение организаторов',
      subjectTestId: 41,
      positionId: null,
      startsAt: '2026-05-01T06:00:00.000Z',
      endsAt: '2026-05-02T15:00:00.000Z',
    });
  });

  it('asks before marking a participant absent, then says it was done', async () => {
    const organizator = { id: 4, login: 'organizator', displayName: 'Сидоров С.', roles: ['organizator'] };
    const row = {
      id: 901,
      diagnosticId: 5,
      diagnosticName: 'Математика 7',
      subjectTestId: 31,
      subjectTestName: 'Математика, 7 класс',
      studentId: 101,
      surname: 'Иванова',
      name: 'Анна',
      patronymic: null,
      classId: 11,
      className: '7 «А»',
      parallel: 7,
      buildingId: 1,
      buildingName: 'Корпус 1',
      testDate: '2026-04-10',
      status: 'planned',
      isImpersonal: false,
      activationCode: 'AB12-CD34',
      registrationCode: 'R-0001',
      examWork: null,
    };
    const server = signedIn(organizator, {
      'POST /api/organizator/diagnostic/list': () => json(200, { items: [diagnostic], total: 1 }),
      'POST /api/organizator/class/list': () => json(200, classes),
      'POST /api/organizator/participantTest/list': () => json(200, { items: [row], total: 1 }),
      'POST /api/organizator/participantTest/save': () => json(200, { ...row, status: 'absent' }),
    });
    renderApp('/organizator/diagnostics/5');
    const table = await screen.findByTestId('participant-tests');
    await userEvent.click(await within(table).findByRole('button', { name: 'Отсутствует' }));
    const dialog = await screen.findByRole('dialog', { name: 'Отметить отсутствие' });
    expect(dialog).toHaveTextContent('Отметить участника Иванова Анна как отсутствующего?');
    expect(server.callsTo('POST /api/organizator/participantTest/save')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.callsTo('POST /api/organizator/participantTest/save')).toHaveLength(0);

    await userEvent.click(within(table).getByRole('button', { name: 'Отсутствует' }));
    const again = await screen.findByRole('dialog', { name: 'Отметить отсутствие' });
    await userEvent.click(within(again).getByTestId('confirm-action'));
    await waitFor(() => expect(server.callsTo('POST /api/organizator/participantTest/save')).toHaveLength(1));
    expect(server.callsTo('POST /api/organizator/participantTest/save')[0]!.body).toEqual({
      id: 901,
      status: 'absent',
    });
    expect(await screen.findByText('Иванова Анна: отмечено отсутствие.')).toBeInTheDocument();
  });
});
