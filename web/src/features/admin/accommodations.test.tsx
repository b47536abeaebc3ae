import { NO_ACCOMMODATIONS } from '@attesta/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp } from '../../test/test-app';

// Issue 14, item 2: the admin sets any student's accommodations from the students page.

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
});
