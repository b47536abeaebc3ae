import { NO_ACCOMMODATIONS } from '@attesta/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, users, type Handler } from '../../test/test-app';

// Issue 14, item 2: the coordinator sets accommodations for one student or the selected ones.

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const base = {
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
const anna = { ...base, id: 101, surname: 'Иванова', name: 'Анна', hasAccommodations: true };
const oleg = { ...base, id: 102, surname: 'Смирнов', name: 'Олег', hasAccommodations: false };
const petr = { ...base, id: 103, surname: 'Сидоров', name: 'Пётр', hasAccommodations: false };

function coordinator(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, users.coordinator),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'POST /api/coordinator/class/list': () => json(200, { items: [], total: 0 }),
    'POST /api/coordinator/student/list': () => json(200, { items: [anna, oleg, petr], total: 3 }),
    ...extra,
  });
}

describe('accommodations on the coordinator’s students page', () => {
  it(
    'marks who has accommodations and sends one student’s profile from the form',
    { timeout: 20_000 },
    async () => {
      const server = coordinator({
        'GET /api/accommodations/students/102': () => json(200, { studentId: 102, accommodations: null }),
        'PUT /api/accommodations/students/102': ({ body }) =>
          json(200, { studentId: 102, ...(body as object) }),
      });
      renderApp('/coordinator/students');
      expect(await screen.findByTestId('student-accommodations-mark-101')).toHaveTextContent('Есть');
      expect(screen.queryByTestId('student-accommodations-mark-102')).toBeNull();

      await userEvent.click(screen.getByTestId('student-accommodations-102'));
      const form = await screen.findByTestId('accommodations-form');
      const extra = within(form).getByLabelText(/Дополнительное время/);
      await userEvent.clear(extra);
      await userEvent.type(extra, '50');
      fireEvent.click(within(form).getByLabelText('Крупный шрифт и увеличенные интервалы'));
      fireEvent.click(within(form).getByLabelText('Высокий контраст'));
      fireEvent.click(within(form).getByLabelText('Чтение заданий вслух'));
      await userEvent.click(within(form).getByTestId('accommodations-save'));

      await waitFor(() => expect(server.callsTo('PUT /api/accommodations/students/102')).toHaveLength(1));
      expect(server.callsTo('PUT /api/accommodations/students/102')[0]!.body).toEqual({
        accommodations: {
          ...NO_ACCOMMODATIONS,
          extraTimePercent: 50,
          largeText: true,
          theme: 'high_contrast',
          textToSpeech: true,
        },
      });
      await waitFor(() => expect(screen.queryByTestId('accommodations-form')).toBeNull());
    },
  );

  it(
    'keeps the extra time within its range and shows a refusal by its code',
    { timeout: 20_000 },
    async () => {
      const server = coordinator({
        'GET /api/accommodations/students/101': () =>
          json(200, { studentId: 101, accommodations: { ...NO_ACCOMMODATIONS, extraTimePercent: 25 } }),
        'PUT /api/accommodations/students/101': () => apiError(403, 'forbidden'),
      });
      renderApp('/coordinator/students');
      await userEvent.click(await screen.findByTestId('student-accommodations-101'));
      const form = await screen.findByTestId('accommodations-form');
      const extra = within(form).getByLabelText(/Дополнительное время/);
      expect(extra).toHaveValue('25');
      await userEvent.clear(extra);
      await userEvent.type(extra, '300');
      fireEvent.blur(extra);
      await userEvent.click(within(form).getByTestId('accommodations-save'));
      // The input keeps to its range (max 200), so what is sent is valid; the server's refusal shows by code.
      await waitFor(() => expect(server.callsTo('PUT /api/accommodations/students/101')).toHaveLength(1));
      expect(
        (
          server.callsTo('PUT /api/accommodations/students/101')[0]!.body as {
            accommodations: { extraTimePercent: number };
          }
        ).accommodations.extraTimePercent,
      ).toBeLessThanOrEqual(200);
      expect(await within(form).findByTestId('accommodations-form-error')).toHaveTextContent(
        'Недостаточно прав',
      );
    },
  );

  it('sets the same profile for the selected students', { timeout: 20_000 }, async () => {
    const server = coordinator({
      'PUT /api/accommodations/students': ({ body }) =>
        json(200, { updated: (body as { studentIds: number[] }).studentIds.length }),
    });
    renderApp('/coordinator/students');
    const bulk = await screen.findByTestId('students-accommodations-bulk');
    expect(bulk).toBeDisabled();
    fireEvent.click(await screen.findByLabelText('Выбрать: Смирнов Олег'));
    fireEvent.click(screen.getByLabelText('Выбрать: Сидоров Пётр'));
    expect(bulk).toBeEnabled();
    expect(bulk).toHaveTextContent('(2)');
    await userEvent.click(bulk);
    const form = await screen.findByTestId('accommodations-form');
    fireEvent.click(within(form).getByLabelText('Линейка для чтения'));
    await userEvent.click(within(form).getByTestId('accommodations-save'));
    await waitFor(() => expect(server.callsTo('PUT /api/accommodations/students')).toHaveLength(1));
    expect(server.callsTo('PUT /api/accommodations/students')[0]!.body).toEqual({
      studentIds: [102, 103],
      accommodations: { ...NO_ACCOMMODATIONS, lineReader: true },
    });
    expect(await screen.findByText('Особые условия сохранены для учеников: 2')).toBeInTheDocument();
  });
});
