import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pick } from '../../test/pick';
import { fakeServer, json, renderApp, type Handler } from '../../test/test-app';

const admin = { id: 1, login: 'admin', displayName: 'Администратор Платформы', roles: ['admin'] };

const diagnostic = {
  id: 2,
  code: 'D-2026-0002',
  name: 'Диагностика 2',
  kind: 'diagnostic',
  createdByRole: 'ugnik',
  createdByLogin: 'ugnik',
  startsAt: '2026-03-01T06:00:00.000Z',
  endsAt: '2026-03-05T15:00:00.000Z',
  parallels: [7],
  status: 'running',
  resultsPublished: false,
  publishedAt: null,
  subjectTests: [{ id: 21, name: 'Математика 7' }],
  schoolCount: 1,
  participantTestCount: 2,
  finishedWorkCount: 0,
  schools: [
    {
      id: 5,
      name: 'Гимназия № 5',
      code: 'S-5',
      ooName: 'ГБОУ Лицей',
      participantTestCount: 2,
      finishedWorkCount: 0,
    },
  ],
};

const row = (id: number, extra = {}) => ({
  id,
  diagnosticId: 2,
  diagnosticName: 'Диагностика 2',
  subjectTestId: 21,
  subjectTestName: 'Математика 7',
  studentId: 40 + id,
  workerId: null,
  participantName: 'Иванова Анна',
  schoolId: 5,
  schoolName: 'Гимназия № 5',
  classId: 11,
  className: '7 «А»',
  buildingId: null,
  buildingName: null,
  testDate: '2026-03-02',
  status: 'planned',
  isImpersonal: false,
  activationCode: `A-${id}`,
  registrationCode: `R-${id}`,
  examWorkStatus: null,
  ...extra,
});

const info = (extra = {}) => ({
  id: 101,
  diagnostic: { id: 2, code: 'D-2026-0002', name: 'Диагностика 2', kind: 'diagnostic' },
  subjectTest: { id: 21, name: 'Математика 7' },
  student: { id: 141, surname: 'Иванова', name: 'Анна', patronymic: null, birthDate: null },
  workerId: null,
  school: { id: 5, name: 'Гимназия № 5' },
  class: { id: 11, name: '7 «А»' },
  building: null,
  testDate: '2026-03-02',
  status: 'planned',
  isImpersonal: false,
  activationCode: 'A-101',
  registrationCode: 'R-101',
  examWork: null,
  deletedExamWorks: [],
  updatedAt: '2026-02-20T10:00:00.000Z',
  ...extra,
});

function server(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, admin),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/admin/diagnostics/2': () => json(200, diagnostic),
    'GET /api/admin/schools/5/classes': () =>
      json(200, [
        {
          id: 11,
          schoolId: 5,
          name: '7 «А»',
          letter: 'А',
          parallel: 7,
          buildingId: null,
          buildingName: null,
          studentCount: 25,
        },
      ]),
    'POST /api/ParticipantTest/list': () =>
      json(200, {
        items: [
          row(101),
          row(102, {
            participantName: null,
            studentId: null,
            isImpersonal: true,
            status: 'in_progress',
            examWorkStatus: 'in_progress',
          }),
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

describe("the diagnostic's participants (admin)", { timeout: 30_000 }, () => {
  it('lists the participant tests of this diagnostic and filters them on the server', async () => {
    const api = server();
    renderApp('/admin/diagnostics/2');
    const table = await screen.findByTestId('diagnostic-participants-table');
    const named = (await within(table).findByText('Иванова Анна')).closest('tr')!;
    expect(within(named).getByText('A-101')).toBeInTheDocument();
    expect(within(named).getByText('7 «А»')).toBeInTheDocument();
    expect(within(named).getByText('Запланирован')).toBeInTheDocument();
    const anonymous = within(table).getByText('обезличенный').closest('tr')!;
    expect(within(anonymous).getByText('A-102')).toBeInTheDocument();
    expect(within(anonymous).getByTestId('pt-clear-102')).toBeInTheDocument();
    expect(within(named).queryByTestId('pt-clear-101')).not.toBeInTheDocument();
    expect(api.callsTo('POST /api/ParticipantTest/list')[0]!.body).toEqual({
      page: 1,
      pageSize: 20,
      sort: { field: 'schoolName', dir: 'asc' },
      filter: { diagnosticId: 2 },
    });

    await userEvent.selectOptions(within(table).getByLabelText('Школа'), '5');
    await userEvent.selectOptions(within(table).getByLabelText('Статус'), 'in_progress');
    await userEvent.type(within(table).getByLabelText('Фамилия или код'), 'Ива');
    await waitFor(() =>
      expect(api.callsTo('POST /api/ParticipantTest/list').at(-1)!.body).toMatchObject({
        filter: { diagnosticId: 2, schoolId: 5, status: 'in_progress', search: 'Ива' },
      }),
    );
  });

  it('validates the card before sending, then sends PUT with what changed', async () => {
    const api = server({
      'GET /api/ParticipantTest/info/101': () => json(200, info()),
      'PUT /api/ParticipantTest/info': () => json(200, info({ status: 'absent' })),
    });
    renderApp('/admin/diagnostics/2');
    await userEvent.click(await screen.findByTestId('pt-card-101'));
    const form = await screen.findByTestId('participant-card');
    const date = within(form).getByLabelText(/Дата/);
    await userEvent.clear(date);
    await userEvent.type(date, '2026-04-01');
    await pick(form, 'Статус', 'Отсутствует', { hidden: true });
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить', hidden: true }));

    expect(await within(form).findByText('Укажите причину смены статуса')).toBeInTheDocument();
    expect(within(form).getByText(/Дата вне окна диагностики/)).toBeInTheDocument();
    expect(api.callsTo('PUT /api/ParticipantTest/info')).toHaveLength(0);

    await userEvent.clear(date);
    await userEvent.type(date, '2026-03-03');
    await userEvent.type(within(form).getByLabelText(/Причина/), 'болеет');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить', hidden: true }));
    await waitFor(() => expect(api.callsTo('PUT /api/ParticipantTest/info')).toHaveLength(1));
    expect(api.callsTo('PUT /api/ParticipantTest/info')[0]!.body).toEqual({
      id: 101,
      testDate: '2026-03-03',
      status: 'absent',
      reason: 'болеет',
    });
    await waitFor(() => expect(screen.queryByTestId('participant-card')).not.toBeInTheDocument());
  });

  it('restores a deleted work from the card', async () => {
    const api = server({
      'GET /api/ParticipantTest/info/101': () =>
        json(
          200,
          info({
            deletedExamWorks: [
              { id: 77, status: 'finished', deletedAt: '2026-03-02T09:00:00.000Z', deletedReason: 'дубль' },
            ],
          }),
        ),
      'POST /api/ParticipantTest/RestoreExamWork': () =>
        json(200, { examWorkId: 77, participantTestId: 101, status: 'finished' }),
    });
    renderApp('/admin/diagnostics/2');
    await userEvent.click(await screen.findByTestId('pt-card-101'));
    await userEvent.click(await screen.findByTestId('restore-work-77'));
    await waitFor(() =>
      expect(api.callsTo('POST /api/ParticipantTest/RestoreExamWork')[0]!.body).toEqual({ examWorkId: 77 }),
    );
  });

  it('writes the live work’s status in words on the card', async () => {
    server({
      'GET /api/ParticipantTest/info/101': () =>
        json(
          200,
          info({
            status: 'in_progress',
            examWork: {
              id: 78,
              status: 'paused',
              answerMode: 'online',
              startedAt: '2026-03-02T08:00:00.000Z',
              deadlineAt: '2026-03-02T09:00:00.000Z',
              finishedAt: null,
              finishReason: null,
              deviceBound: false,
              answerCount: 3,
            },
          }),
        ),
    });
    renderApp('/admin/diagnostics/2');
    await userEvent.click(await screen.findByTestId('pt-card-101'));
    const work = await screen.findByTestId('participant-card-work');
    expect(work).toHaveTextContent('На паузе');
    expect(work).not.toHaveTextContent('paused');
  });

  it('clears a session after confirmation', async () => {
    const api = server({
      'GET /api/ParticipantTest/clearSession/102': () =>
        json(200, { participantTestId: 102, examWorkId: 9, sessionsEnded: 1 }),
    });
    renderApp('/admin/diagnostics/2');
    await userEvent.click(await screen.findByTestId('pt-clear-102'));
    expect(api.callsTo('GET /api/ParticipantTest/clearSession/102')).toHaveLength(0);
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() => expect(api.callsTo('GET /api/ParticipantTest/clearSession/102')).toHaveLength(1));
    expect(api.callsTo('GET /api/ParticipantTest/clearSession/102')[0]!.headers).toMatchObject({
      'X-Requested-With': 'XMLHttpRequest',
    });
    await waitFor(() => expect(api.callsTo('POST /api/ParticipantTest/list').length).toBeGreaterThan(1));
  });

  it('creates impersonal codes for a school of the diagnostic', async () => {
    const api = server({
      'POST /api/ParticipantTest/participantTestCreateImpersonal': () =>
        json(200, {
          items: [{ participantTestId: 301, activationCode: 'IMP-1', registrationCode: 'R-301' }],
        }),
    });
    renderApp('/admin/diagnostics/2');
    await userEvent.click(await screen.findByTestId('impersonal-open'));
    const form = await screen.findByTestId('impersonal-form');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить', hidden: true }));
    expect(api.callsTo('POST /api/ParticipantTest/participantTestCreateImpersonal')).toHaveLength(0);
    await pick(form, /Школа/, 'Гимназия № 5', { hidden: true });
    const count = within(form).getByLabelText(/Количество/);
    await userEvent.clear(count);
    await userEvent.type(count, '3');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить', hidden: true }));
    await waitFor(() =>
      expect(api.callsTo('POST /api/ParticipantTest/participantTestCreateImpersonal')[0]!.body).toEqual({
        diagnosticId: 2,
        subjectTestId: 21,
        testDate: '2026-03-01',
        count: 3,
        schoolId: 5,
      }),
    );
    expect(await screen.findByText('IMP-1')).toBeInTheDocument();
  });
});
