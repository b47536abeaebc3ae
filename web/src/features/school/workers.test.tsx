import { NO_ACCOMMODATIONS } from '@attesta/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp } from '../../test/test-app';

// Issue 14, item 2: the coordinator sets the accommodations of their school's workers too.

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const coordinator = { id: 2, login: 'coordinator', displayName: 'Смирнова Елена', roles: ['coordinator'] };

const worker = (id: number, surname: string, hasAccommodations: boolean) => ({
  id,
  surname,
  name: 'Ольга',
  patronymic: 'Петровна',
  email: `${id}@school.example`,
  schoolId: 5,
  schoolName: 'Гимназия № 5',
  positionName: 'Учитель',
  isBlocked: id === 43,
  hasAccommodations,
});

describe('the coordinator’s workers page', () => {
  it('lists the school’s workers, searches, and sets one worker’s profile', { timeout: 20_000 }, async () => {
    const server = fakeServer({
      'GET /api/user': () => json(200, coordinator),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'GET /api/accommodations/workers': () =>
        json(200, {
          items: [worker(41, 'Смирнова', true), worker(42, 'Козлова', false), worker(43, 'Орлова', false)],
          total: 3,
        }),
      'GET /api/accommodations/workers/42': () =>
        json(200, { workerId: 42, accommodations: NO_ACCOMMODATIONS }),
      'PUT /api/accommodations/workers/42': ({ body }) => json(200, { workerId: 42, ...(body as object) }),
    });
    renderApp('/coordinator/workers');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Работники школы: особые условия' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Работники: особые условия' })).toHaveAttribute(
      'href',
      '/coordinator/workers',
    );
    const table = await screen.findByTestId('workers-table');
    expect(await within(table).findByText('Козлова Ольга Петровна')).toBeInTheDocument();
    expect(within(table).getByText('Орлова Ольга Петровна (заблокирован)')).toBeInTheDocument();
    // Their own school only: no school column, no school filter.
    expect(within(table).queryByRole('columnheader', { name: 'Школа' })).toBeNull();
    expect(screen.queryByTestId('workers-school-filter')).toBeNull();
    expect(within(table).getByTestId('student-accommodations-mark-41')).toHaveTextContent('Есть');

    await userEvent.type(screen.getByLabelText('Поиск по ФИО или почте'), 'Коз');
    await waitFor(() =>
      expect(
        server
          .callsTo('GET /api/accommodations/workers')
          .some((c) => c.url.includes('search=%D0%9A%D0%BE%D0%B7')),
      ).toBe(true),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Особые условия: Козлова Ольга Петровна' }));
    const form = await screen.findByTestId('accommodations-form');
    fireEvent.click(within(form).getByLabelText('Линейка для чтения'));
    await userEvent.click(within(form).getByTestId('accommodations-save'));
    await waitFor(() => expect(server.callsTo('PUT /api/accommodations/workers/42')).toHaveLength(1));
    expect(server.callsTo('PUT /api/accommodations/workers/42')[0]!.body).toEqual({
      accommodations: { ...NO_ACCOMMODATIONS, lineReader: true },
    });
    expect(await screen.findByText('Особые условия сохранены')).toBeInTheDocument();
  });
});
