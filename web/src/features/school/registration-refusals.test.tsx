import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp, users } from '../../test/test-app';

/* A refused registration says what is wrong in words, with the diagnostic window's dates and names. */

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

const diagnostic = {
  id: 5,
  code: 'D-2026-0005',
  name: 'Математика 7',
  kind: 'diagnostic',
  startsAt: '2026-12-01T06:00:00Z',
  endsAt: '2026-12-05T15:00:00Z',
  parallels: [7],
  status: 'planned',
  resultsPublished: false,
  subjectTests: [{ id: 31, name: 'Математика, 7 класс', parallels: [7] }],
  participantCount: 0,
};
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
  ],
  total: 1,
};

function server(refusal: object) {
  return fakeServer({
    'GET /api/user': () => json(200, users.coordinator),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'POST /api/coordinator/diagnostic/list': () => json(200, { items: [diagnostic], total: 1 }),
    'POST /api/coordinator/class/list': () => json(200, classes),
    'POST /api/coordinator/participantTest/list': () => json(200, { items: [], total: 0 }),
    'POST /api/coordinator/participantTest/save': () =>
      json(400, { status: 400, code: 'validation_failed', message: 'x', ...refusal }),
  });
}

async function submitClass() {
  renderApp('/coordinator/diagnostics/5');
  await screen.findByTestId('coordinator-participants-title');
  await userEvent.click(screen.getByTestId('register-open'));
  const form = await screen.findByTestId('register-form');
  await userEvent.click(within(form).getByLabelText('7 «А»'));
  await userEvent.click(within(form).getByTestId('register-submit'));
  return form;
}

describe('registration refusals', { timeout: 20_000 }, () => {
  it("a date outside the window names the window's days in dd.mm.yyyy", async () => {
    const api = server({
      errors: [
        {
          path: 'body.testDate',
          message: 'must be between 2026-12-01 and 2026-12-05 (the diagnostic window)',
          code: 'outside_window',
          params: { from: '2026-12-01', to: '2026-12-05', date: '2026-12-20' },
        },
      ],
    });
    const form = await submitClass();
    await waitFor(() => expect(api.callsTo('POST /api/coordinator/participantTest/save')).toHaveLength(1));
    expect(
      await within(form).findByText('дата вне окна диагностики 01.12.2026–05.12.2026'),
    ).toBeInTheDocument();
    expect(form).not.toHaveTextContent(/2026-12-0|must be between|outside_window/);
  });

  it('a student whose grade or school does not fit is named with what is wrong', async () => {
    server({
      errors: [
        {
          path: 'students.101',
          message: 'Иванова Анна (id 101): grade 8 is not among the test’s grades 7',
          code: 'grade_not_in_test',
          params: { name: 'Иванова Анна', grade: 8, grades: '7' },
        },
        {
          path: 'students.102',
          message: 'Петров Пётр (id 102): the diagnostic does not include this student’s school',
          code: 'school_not_in_diagnostic',
          params: { name: 'Петров Пётр' },
        },
      ],
    });
    const form = await submitClass();
    const alert = await within(form).findByTestId('register-error');
    expect(alert).toHaveTextContent('Иванова Анна: 8 класс, а тест для параллелей 7');
    expect(alert).toHaveTextContent('Петров Пётр: школа не участвует в диагностике');
    expect(alert).not.toHaveTextContent(/id 10|school_not_in_diagnostic/);
  });
});
