import { NO_ACCOMMODATIONS } from '@attesta/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp } from '../../test/test-app';

// Issue 14, items 2 and 6: the admin sets any student's or worker's accommodations, one or many.

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const admin = { id: 1, login: 'admin', displayName: 'Администратор Платформы', roles: ['admin'] };

const student = (id: number, surname: string, hasAccommodations: boolean) => ({
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
  hasAccommodations,
});

describe('accommodations on the admin’s students page', () => {
  it('marks who has them and sends the changed profile', { timeout: 20_000 }, async () => {
    const profile = { ...NO_ACCOMMODATIONS, extraTimePercent: 25, theme: 'dark' as const };
    const server = fakeServer({
      'GET /api/user': () => json(200, admin),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'POST /api/admin/students/list': () =>
        json(200, { items: [student(31, 'Иванова', true), student(32, 'Петрова', false)], total: 2 }),
      'GET /api/accommodations/students/31': () => json(200, { studentId: 31, accommodations: profile }),
      'PUT /api/accommodations/students/31': ({ body }) => json(200, { studentId: 31, ...(body as object) }),
    });
    renderApp('/admin/students');
    expect(await screen.findByTestId('student-accommodations-mark-31')).toHaveTextContent('Есть');
    expect(screen.queryByTestId('student-accommodations-mark-32')).toBeNull();

    await userEvent.click(screen.getByTestId('student-accommodations-31'));
    const form = await screen.findByTestId('accommodations-form');
    expect(within(form).getByLabelText('Тёмное')).toBeChecked();
    fireEvent.click(within(form).getByLabelText('Линейка для чтения'));
    await userEvent.click(within(form).getByTestId('accommodations-save'));
    await waitFor(() => expect(server.callsTo('PUT /api/accommodations/students/31')).toHaveLength(1));
    expect(server.callsTo('PUT /api/accommodations/students/31')[0]!.body).toEqual({
      accommodations: { ...profile, lineReader: true },
    });
    await waitFor(() => expect(screen.queryByTestId('accommodations-form')).toBeNull());
  });

  it('removes them all with one button', { timeout: 20_000 }, async () => {
    const server = fakeServer({
      'GET /api/user': () => json(200, admin),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'POST /api/admin/students/list': () => json(200, { items: [student(31, 'Иванова', true)], total: 1 }),
      'GET /api/accommodations/students/31': () =>
        json(200, { studentId: 31, accommodations: { ...NO_ACCOMMODATIONS, largeText: true } }),
      'PUT /api/accommodations/students/31': () => json(200, { studentId: 31, accommodations: null }),
    });
    renderApp('/admin/students');
    await userEvent.click(await screen.findByTestId('student-accommodations-31'));
    const form = await screen.findByTestId('accommodations-form');
    await userEvent.click(within(form).getByTestId('accommodations-clear'));
    await waitFor(() => expect(server.callsTo('PUT /api/accommodations/students/31')).toHaveLength(1));
    expect(server.callsTo('PUT /api/accommodations/students/31')[0]!.body).toEqual({ accommodations: null });
  });

  it('sets the same profile for the selected students at once', { timeout: 20_000 }, async () => {
    const server = fakeServer({
      'GET /api/user': () => json(200, admin),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'POST /api/admin/students/list': () =>
        json(200, { items: [student(31, 'Иванова', false), student(32, 'Петрова', false)], total: 2 }),
      'PUT /api/accommodations/students': () => json(200, { updated: 2 }),
    });
    renderApp('/admin/students');
    const bulk = await screen.findByTestId('students-accommodations-bulk');
    expect(bulk).toBeDisabled();
    await userEvent.click(await screen.findByTestId('student-select-31'));
    await userEvent.click(screen.getByTestId('student-select-32'));
    expect(bulk).toHaveTextContent('(2)');
    await userEvent.click(bulk);
    const form = await screen.findByTestId('accommodations-form');
    fireEvent.click(within(form).getByLabelText('Линейка для чтения'));
    await userEvent.click(within(form).getByTestId('accommodations-save'));
    await waitFor(() => expect(server.callsTo('PUT /api/accommodations/students')).toHaveLength(1));
    expect(server.callsTo('PUT /api/accommodations/students')[0]!.body).toEqual({
      studentIds: [31, 32],
      accommodations: { ...NO_ACCOMMODATIONS, lineReader: true },
    });
  });
});

describe('accommodations on the admin’s workers page', () => {
  const worker = (id: number, surname: string, hasAccommodations: boolean) => ({
    id,
    surname,
    name: 'Ольга',
    patronymic: null,
    email: null,
    schoolId: 5,
    schoolName: 'Гимназия № 5',
    positionName: 'Организатор в аудитории',
    isBlocked: false,
    hasAccommodations,
  });

  it(
    'marks who has them, sends one worker’s profile and the same for the selected',
    { timeout: 20_000 },
    async () => {
      const profile = { ...NO_ACCOMMODATIONS, extraTimePercent: 25 };
      const server = fakeServer({
        'GET /api/user': () => json(200, admin),
        'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
        'GET /api/accommodations/workers': () =>
          json(200, { items: [worker(41, 'Смирнова', true), worker(42, 'Козлова', false)], total: 2 }),
        'GET /api/accommodations/workers/41': () => json(200, { workerId: 41, accommodations: profile }),
        'PUT /api/accommodations/workers/41': ({ body }) => json(200, { workerId: 41, ...(body as object) }),
        'PUT /api/accommodations/workers': () => json(200, { updated: 2 }),
      });
      renderApp('/admin/workers?schoolId=5');
      expect(await screen.findByTestId('student-accommodations-mark-41')).toHaveTextContent('Есть');
      // The school of the address filters the list; the school column links to the school.
      expect(server.callsTo('GET /api/accommodations/workers')[0]!.url).toContain('schoolId=5');
      expect(screen.getAllByRole('link', { name: 'Гимназия № 5' })[0]).toHaveAttribute(
        'href',
        '/admin/schools/5',
      );
      expect(screen.queryByTestId('student-accommodations-mark-42')).toBeNull();

      await userEvent.click(screen.getByTestId('worker-accommodations-41'));
      let form = await screen.findByTestId('accommodations-form');
      fireEvent.click(within(form).getByLabelText('Крупный шрифт и увеличенные интервалы'));
      await userEvent.click(within(form).getByTestId('accommodations-save'));
      await waitFor(() => expect(server.callsTo('PUT /api/accommodations/workers/41')).toHaveLength(1));
      expect(server.callsTo('PUT /api/accommodations/workers/41')[0]!.body).toEqual({
        accommodations: { ...profile, largeText: true },
      });
      await waitFor(() => expect(screen.queryByTestId('accommodations-form')).toBeNull());

      await userEvent.click(screen.getByTestId('worker-select-41'));
      await userEvent.click(screen.getByTestId('worker-select-42'));
      await userEvent.click(screen.getByTestId('workers-accommodations-bulk'));
      form = await screen.findByTestId('accommodations-form');
      expect(screen.getByText('Особые условия для выбранных работников (2)')).toBeInTheDocument();
      fireEvent.click(within(form).getByLabelText('Линейка для чтения'));
      await userEvent.click(within(form).getByTestId('accommodations-save'));
      await waitFor(() => expect(server.callsTo('PUT /api/accommodations/workers')).toHaveLength(1));
      expect(server.callsTo('PUT /api/accommodations/workers')[0]!.body).toEqual({
        workerIds: [41, 42],
        accommodations: { ...NO_ACCOMMODATIONS, lineReader: true },
      });
    },
  );
});
