import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, renderApp } from '../../test/test-app';
import { contentServer, exam, pick, subject } from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('subjects, exams and test groups', { timeout: 30_000 }, () => {
  it('the КИМ section opens on the subject tests and names its parts', async () => {
    contentServer({
      'POST /api/admin/content/subjectTests/list': () => json(200, { items: [], total: 0 }),
    });
    const { router } = renderApp('/admin/content');
    expect(await screen.findByRole('heading', { name: 'Тесты по предметам' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/content/tests');
    const nav = screen.getByTestId('content-nav');
    for (const name of ['Тесты', 'Банк заданий', 'Предметы и группы', 'Кодификаторы', 'Импорт'])
      expect(within(nav).getByRole('link', { name })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Тесты' })).toHaveAttribute('aria-current', 'page');
    // The admin's navigation keeps one КИМ entry, marked while any part of the section is open.
    expect(screen.getByTestId('nav-admin-content')).toHaveAttribute('aria-current', 'page');
  });

  it('lists subjects, creates one (a taken code is said by its field) and renames one', async () => {
    const api = contentServer({
      'POST /api/admin/content/subjects': ({ body }) =>
        (body as { code?: string }).code === 'MATH'
          ? apiError(409, 'code_taken')
          : json(
              200,
              subject(7, (body as { name: string }).name, { code: 'CHEM', examCount: 0, taskCount: 0 }),
            ),
      'PUT /api/admin/content/subjects/2': ({ body }) =>
        json(200, subject(2, (body as { name: string }).name)),
    });
    renderApp('/admin/content/subjects');
    const table = await screen.findByTestId('subjects-table');
    expect(await within(table).findByText('Математика')).toBeInTheDocument();
    expect(within(table).getByText('MATH')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('subject-create'));
    const form = await screen.findByTestId('subject-form');
    // Empty: said by the field, nothing sent.
    await userEvent.click(within(form).getByTestId('subject-form-submit'));
    await waitFor(() =>
      expect(within(form).getByTestId('subject-name')).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(api.callsTo('POST /api/admin/content/subjects')).toHaveLength(0);

    await userEvent.type(within(form).getByTestId('subject-name'), 'Химия');
    await userEvent.type(within(form).getByTestId('subject-code'), 'MATH');
    await userEvent.click(within(form).getByTestId('subject-form-submit'));
    expect(await within(form).findByText('Этот код уже у другого предмета')).toBeInTheDocument();
    await userEvent.clear(within(form).getByTestId('subject-code'));
    await userEvent.type(within(form).getByTestId('subject-code'), 'CHEM');
    await userEvent.click(within(form).getByTestId('subject-form-submit'));
    await waitFor(() => expect(screen.queryByTestId('subject-form')).toBeNull());
    expect(api.callsTo('POST /api/admin/content/subjects').map((c) => c.body)).toEqual([
      { name: 'Химия', code: 'MATH' },
      { name: 'Химия', code: 'CHEM' },
    ]);

    await userEvent.click(screen.getByTestId('subject-edit-2'));
    const edit = await screen.findByTestId('subject-form');
    await userEvent.clear(within(edit).getByTestId('subject-name'));
    await userEvent.type(within(edit).getByTestId('subject-name'), 'Физика и астрономия');
    await userEvent.click(within(edit).getByTestId('subject-form-submit'));
    await waitFor(() =>
      expect(api.callsTo('PUT /api/admin/content/subjects/2').map((c) => c.body)).toEqual([
        { name: 'Физика и астрономия', code: null },
      ]),
    );
  });

  it('shows a subject’s exams by kind in words and adds one; a second of a kind is refused by its field', async () => {
    let exams = [exam(10, 1)];
    const api = contentServer({
      'GET /api/admin/content/subjects/1/exams': () => json(200, exams),
      'POST /api/admin/content/subjects/1/exams': ({ body }) => {
        const b = body as { kind: string; name: string };
        if (exams.some((e) => e.kind === b.kind)) return apiError(409, 'conflict');
        exams = [...exams, exam(11, 1, b.kind, b.name)];
        return json(200, exams[1]);
      },
    });
    renderApp('/admin/content/subjects');
    await userEvent.click(await screen.findByTestId('subject-exams-1'));
    const dialog = await screen.findByRole('dialog', { name: 'Экзамены предмета «Математика»' });
    const table = within(dialog).getByTestId('exams-table');
    expect(await within(table).findAllByText('Диагностика')).toHaveLength(2);

    await pick(dialog, 'Вид', 'Диагностика');
    await userEvent.click(within(dialog).getByTestId('exam-save'));
    expect(await within(dialog).findByText('У предмета уже есть экзамен этого вида')).toBeInTheDocument();

    await pick(dialog, 'Вид', 'Предпрофессиональный экзамен');
    await userEvent.click(within(dialog).getByTestId('exam-save'));
    expect(await within(table).findAllByText('Предпрофессиональный экзамен')).toHaveLength(2);
    // Without a name of its own the exam is named by its kind.
    expect(api.callsTo('POST /api/admin/content/subjects/1/exams').map((c) => c.body)).toEqual([
      { kind: 'diagnostic', name: 'Диагностика' },
      { kind: 'preprof', name: 'Предпрофессиональный экзамен' },
    ]);
  });

  it('creates a test group; a failure is said by its code, not the server’s words', async () => {
    let fail = true;
    const api = contentServer({
      'POST /api/admin/content/testGroups': ({ body }) =>
        fail
          ? apiError(500, 'internal_error', 'boom: relation test_groups')
          : json(200, { id: 6, name: (body as { name: string }).name }),
    });
    renderApp('/admin/content/subjects');
    const groups = await screen.findByTestId('groups-table');
    expect(await within(groups).findByText('Функциональная грамотность')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('group-name'), 'Естественные науки');
    await userEvent.click(screen.getByTestId('group-create'));
    expect(await screen.findByRole('alert')).not.toHaveTextContent('boom');
    fail = false;
    await userEvent.click(screen.getByTestId('group-create'));
    expect(await screen.findByText('Группа «Естественные науки» создана')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/content/testGroups')).toHaveLength(2);
  });
});
