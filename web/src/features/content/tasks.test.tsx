import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, renderApp } from '../../test/test-app';
import { contentServer, pick, task, taskItem } from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('task pool', { timeout: 30_000 }, () => {
  it('lists tasks with answer types in words; filters by subject, category, type and search go to the server', async () => {
    const api = contentServer({
      'POST /api/admin/content/tasks/list': () =>
        json(200, {
          items: [
            taskItem(31),
            taskItem(32, {
              answerType: 'hotspot',
              title: null,
              text: 'Отметьте на карте столицу',
              subjectId: 2,
            }),
          ],
          total: 2,
        }),
    });
    renderApp('/admin/content/tasks');
    const table = await screen.findByTestId('tasks-table');
    const row = (await within(table).findByTestId('task-link-32')).closest('tr')!;
    expect(within(row).getByText('Выбор области на рисунке')).toBeInTheDocument();
    expect(within(row).getByText('Физика')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Отметьте на карте столицу' })).toBeInTheDocument();
    expect(within(table).getByText('Выбор одного ответа')).toBeInTheDocument();
    expect(table).not.toHaveTextContent('single_choice');
    expect(within(table).getByTestId('task-link-31')).toHaveAttribute('href', '/admin/content/tasks/31');

    const search = screen.getByRole('search');
    await pick(search, 'Предмет', 'Математика (MATH)');
    await pick(search, 'Тип ответа', 'Установление соответствия');
    await userEvent.type(within(search).getByRole('textbox', { name: 'Категория' }), 'Алгебра');
    await userEvent.type(screen.getByTestId('tasks-search'), 'дроби');
    await waitFor(() =>
      expect(api.callsTo('POST /api/admin/content/tasks/list').at(-1)!.body).toEqual({
        page: 1,
        pageSize: 20,
        sort: { field: 'id', dir: 'desc' },
        filter: { subjectId: 1, answerType: 'matching', category: 'Алгебра', search: 'дроби' },
      }),
    );
    expect(screen.getByTestId('task-create')).toHaveAttribute('href', '/admin/content/tasks/new?subjectId=1');
  });

  it('shows the versions of a task: which is current, which replaced, which have works', async () => {
    contentServer({
      'POST /api/admin/content/tasks/list': () =>
        json(200, { items: [taskItem(35, { version: 2 })], total: 1 }),
      'GET /api/admin/content/tasks/35/versions': () =>
        json(200, [
          {
            id: 31,
            version: 1,
            previousVersionId: null,
            supersededAt: '2026-03-02T09:00:00.000Z',
            createdBy: 1,
            createdAt: '2026-03-01T10:00:00.000Z',
            updatedAt: null,
            usedByWorks: true,
          },
          {
            id: 35,
            version: 2,
            previousVersionId: 31,
            supersededAt: null,
            createdBy: 1,
            createdAt: '2026-03-02T09:00:00.000Z',
            updatedAt: null,
            usedByWorks: false,
          },
        ]),
    });
    renderApp('/admin/content/tasks');
    await userEvent.click(await screen.findByTestId('task-versions-35'));
    const dialog = await screen.findByRole('dialog', { name: 'Версии задания № 35' });
    const rows = await within(dialog).findAllByTestId('versions-table-row');
    expect(rows[0]).toHaveTextContent(/Заменена/);
    expect(rows[0]).toHaveTextContent('Да');
    expect(rows[1]).toHaveTextContent('Текущая');
    expect(within(rows[0]!).getByRole('link', { name: '31' })).toHaveAttribute(
      'href',
      '/admin/content/tasks/31',
    );
  });

  it('a failed list is said by its code with a retry', async () => {
    let fail = true;
    contentServer({
      'POST /api/admin/content/tasks/list': () =>
        fail
          ? apiError(503, 'service_unavailable', 'pool exhausted')
          : json(200, { items: [taskItem(31)], total: 1 }),
    });
    renderApp('/admin/content/tasks');
    const error = await screen.findByTestId('tasks-table-error');
    expect(error).not.toHaveTextContent('pool exhausted');
    fail = false;
    await userEvent.click(within(error).getByRole('button', { name: 'Повторить' }));
    expect(await screen.findByTestId('task-link-31')).toBeInTheDocument();
  });

  it('a task opens in the task editor, inside the КИМ section', async () => {
    contentServer({
      'GET /api/admin/content/tasks/31': () => json(200, task(31)),
      'GET /api/admin/content/tasks/31/versions': () => json(200, []),
    });
    renderApp('/admin/content/tasks/31');
    expect(await screen.findByRole('heading', { name: 'Задание «Задание 31»' })).toBeInTheDocument();
    expect(
      within(screen.getByTestId('content-nav')).getByRole('link', { name: 'Банк заданий' }),
    ).toHaveAttribute('aria-current', 'page');
  });
});
