import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, renderApp } from '../../test/test-app';
import { contentServer, pick, subjectTest, variant } from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const contentInvalid = {
  status: 409,
  code: 'content_invalid',
  message:
    'The subject test cannot be published: 3 problem(s). First: variant 1, task 2: the task has no reference answer',
  errors: [
    {
      path: 'variants[21].tasks[2]',
      message: 'variant 1, task 2: the task has no reference answer',
      code: 'missing_key',
      params: { variantId: 21, taskId: 32, position: 2 },
    },
    {
      path: 'variants[22]',
      message: 'variant 2 gives 3 points, variant 1 gives 2',
      code: 'unequal_max_score',
      params: { variantId: 22 },
    },
    { path: 'subjectTest', message: 'the test has no mark scale', code: 'mark_scale_missing', params: {} },
  ],
};

describe('subject tests', { timeout: 30_000 }, () => {
  it('lists subject tests with their filters sent to the server, status and kind in words', async () => {
    const api = contentServer({
      'POST /api/admin/content/subjectTests/list': () =>
        json(200, {
          items: [
            subjectTest(3),
            subjectTest(4, { name: 'Физика 8', status: 'published', testGroupId: 5, parallels: [0, 8] }),
          ],
          total: 2,
        }),
    });
    renderApp('/admin/content/tests');
    const table = await screen.findByTestId('tests-table');
    const row = (await within(table).findByText('Физика 8')).closest('tr')!;
    expect(within(row).getByText('Опубликован')).toBeInTheDocument();
    expect(within(row).getByText('Функциональная грамотность')).toBeInTheDocument();
    expect(within(row).getByText('Дошкольники, 8 класс')).toBeInTheDocument();
    expect(within(table).getByText('Черновик')).toBeInTheDocument();
    expect(within(table).getAllByText('Диагностика')).toHaveLength(2);
    expect(within(table).getByTestId('test-link-3')).toHaveAttribute('href', '/admin/content/tests/3');

    const search = screen.getByRole('search');
    await pick(search, 'Предмет', 'Математика (MATH)');
    await pick(search, 'Вид экзамена', 'Диагностика');
    await pick(search, 'Параллель', '7 класс');
    await pick(search, 'Состояние', 'Черновик');
    await pick(search, 'Группа тестов', 'Функциональная грамотность');
    await waitFor(() =>
      expect(api.callsTo('POST /api/admin/content/subjectTests/list').at(-1)!.body).toEqual({
        page: 1,
        pageSize: 20,
        sort: { field: 'updatedAt', dir: 'desc' },
        filter: { subjectId: 1, kind: 'diagnostic', parallel: 7, status: 'draft', testGroupId: 5 },
      }),
    );
  });

  it('creates a draft: checked before sending, the html previewed sanitised, then the new test opens', async () => {
    const api = contentServer({
      'POST /api/admin/content/subjectTests': ({ body }) => json(200, subjectTest(9, body as object)),
      'GET /api/admin/content/subjectTests/9': () => json(200, subjectTest(9, { name: 'Алгебра 8' })),
      'GET /api/admin/content/subjectTests/9/variants': () => json(200, []),
    });
    const { router } = renderApp('/admin/content/tests/new');
    const form = await screen.findByTestId('test-form');
    await userEvent.click(within(form).getByTestId('test-save'));
    expect(await within(form).findAllByText('Заполните поле')).not.toHaveLength(0);
    expect(api.callsTo('POST /api/admin/content/subjectTests')).toHaveLength(0);

    await pick(form, 'Предмет', 'Математика (MATH)');
    await pick(form, 'Экзамен', 'Диагностика');
    await userEvent.type(within(form).getByTestId('test-name'), 'Алгебра 8');
    await pick(form, 'Параллели', '8 класс');
    await pick(form, 'Группа тестов', 'Функциональная грамотность');
    // The rich-text field's html view.
    const instruction = await within(form).findByTestId('test-instruction');
    await userEvent.click(within(instruction).getByRole('button', { name: 'HTML-код' }));
    fireEvent.change(
      within(instruction).getByRole('textbox', { name: 'Инструкция для участника: HTML-код' }),
      {
        target: { value: '<p>Решите задания</p><img src=x onerror="alert(1)"><script>alert(2)</script>' },
      },
    );
    const preview = await within(form).findByTestId('test-instruction-preview');
    await waitFor(() => expect(preview).toHaveTextContent('Решите задания'));
    expect(preview.querySelector('script')).toBeNull();
    expect(preview.querySelector('[onerror]')).toBeNull();

    await userEvent.click(within(form).getByTestId('mark-add'));
    await userEvent.type(within(form).getByTestId('mark-0'), '2');
    await userEvent.type(within(form).getByTestId('mark-min-0'), '0');
    await userEvent.click(within(form).getByTestId('mark-add'));
    await userEvent.type(within(form).getByTestId('mark-1'), '5');
    await userEvent.type(within(form).getByTestId('mark-min-1'), '8');
    await userEvent.click(within(form).getByTestId('test-save'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/content/tests/9'));
    expect(api.callsTo('POST /api/admin/content/subjectTests')[0]!.body).toEqual({
      subjectExamId: 10,
      name: 'Алгебра 8',
      parallels: [8],
      durationMinutes: 45,
      testGroupId: 5,
      specificationId: null,
      isOpen: false,
      allowCalculator: false,
      description: null,
      procedureHtml: null,
      // As written in the html view: the server sanitises what it stores, the preview what it shows.
      instructionHtml: '<p>Решите задания</p><img src=x onerror="alert(1)"><script>alert(2)</script>',
      markScale: [
        { mark: '2', minScore: 0 },
        { mark: '5', minScore: 8 },
      ],
      levelBands: [],
    });
    expect(await screen.findByTestId('test-title')).toHaveTextContent('Алгебра 8');
  });

  it('a subject without exams says where to add one', async () => {
    contentServer();
    renderApp('/admin/content/tests/new');
    const form = await screen.findByTestId('test-form');
    await pick(form, 'Предмет', 'Физика');
    expect(
      await within(form).findByText(
        'У предмета нет экзаменов: добавьте экзамен в разделе «Предметы и группы».',
      ),
    ).toBeInTheDocument();
  });

  it('shows the check before publication in words by variant, position and task, never the codes', async () => {
    contentServer({
      'GET /api/admin/content/subjectTests/3': () => json(200, subjectTest(3)),
      'GET /api/admin/content/subjectTests/3/variants': () => json(200, [variant(21, 1), variant(22, 2)]),
      'GET /api/admin/content/subjectTests/3/validation': () =>
        json(200, {
          valid: false,
          maxScore: null,
          problems: contentInvalid.errors.map((e) => ({ ...e.params, code: e.code, message: e.message })),
        }),
    });
    renderApp('/admin/content/tests/3?tab=validation');
    const panel = await screen.findByTestId('validation-problems');
    const problems = within(panel).getAllByTestId('problem');
    expect(problems.map((p) => p.textContent)).toEqual([
      'Вариант 1, задание 2: Не задан ключ — правильный ответ. Открыть задание № 32',
      'Вариант 2: Максимальный балл этого варианта не такой, как у других вариантов.',
      'Тест: Не задана шкала отметок.',
    ]);
    expect(within(panel).getByText('Найдено 3 ошибки — тест нельзя опубликовать:')).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'Открыть задание № 32' })).toHaveAttribute(
      'href',
      '/admin/content/tasks/32',
    );
    expect(panel).not.toHaveTextContent('missing_key');
    expect(panel).not.toHaveTextContent('reference answer');
  });

  it('publishes after confirmation; a refusal (409 content_invalid) lists the problems in the dialog', async () => {
    let valid = false;
    let status = 'draft';
    const api = contentServer({
      'GET /api/admin/content/subjectTests/3': () => json(200, subjectTest(3, { status })),
      'GET /api/admin/content/subjectTests/3/variants': () => json(200, [variant(21, 1), variant(22, 2)]),
      'POST /api/admin/content/subjectTests/3/publish': () => {
        if (!valid) return json(409, contentInvalid);
        status = 'published';
        return json(200, subjectTest(3, { status, updatedAt: '2026-03-02T10:00:00.000Z' }));
      },
    });
    renderApp('/admin/content/tests/3');
    await userEvent.click(await screen.findByTestId('publish'));
    const dialog = await screen.findByRole('dialog', { name: 'Опубликовать тест «Математика 7»?' });
    await userEvent.click(within(dialog).getByTestId('publish-confirm'));
    const problems = await within(dialog).findByTestId('publish-problems');
    expect(within(problems).getByText('Тест не опубликован: исправьте ошибки.')).toBeInTheDocument();
    expect(within(problems).getAllByTestId('problem')).toHaveLength(3);
    expect(problems).toHaveTextContent('Вариант 1, задание 2: Не задан ключ — правильный ответ.');
    expect(problems).not.toHaveTextContent('content_invalid');

    valid = true;
    await userEvent.click(within(dialog).getByTestId('publish-confirm'));
    expect(await screen.findByText('Тест опубликован')).toBeInTheDocument();
    expect(screen.getByTestId('test-status')).toHaveTextContent('Опубликован');
    expect(screen.queryByTestId('publish')).toBeNull();
    expect(api.callsTo('POST /api/admin/content/subjectTests/3/publish')).toHaveLength(2);
  });

  it('exports QTI 3.0 as a file download; a refused export is a notice by code', async () => {
    const createObjectURL = vi.fn(() => 'blob:zip');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    let fail = false;
    const api = contentServer({
      'GET /api/admin/content/subjectTests/3': () => json(200, subjectTest(3)),
      'GET /api/admin/content/subjectTests/3/variants': () => json(200, [variant(21, 1)]),
      'GET /api/admin/content/subjectTests/3/export': () =>
        fail
          ? json(404, { status: 404, code: 'not_found', message: 'No such subject test' })
          : new Response(new Blob(['PK']), {
              status: 200,
              headers: {
                'content-type': 'application/zip',
                'content-disposition': 'attachment; filename="matematika-7-qti3.zip"',
              },
            }),
    });
    renderApp('/admin/content/tests/3');
    await userEvent.click(await screen.findByTestId('export-qti'));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(api.callsTo('GET /api/admin/content/subjectTests/3/export')[0]!.url).toContain('format=qti3');
    fail = true;
    await userEvent.click(screen.getByTestId('export-qti'));
    expect(await screen.findByText(/Не удалось скачать файл/)).not.toHaveTextContent('No such subject test');
  });

  it('edits the settings: the subject stays, the scale is sent from the rows, a saved notice shows', async () => {
    const api = contentServer({
      'GET /api/admin/content/subjectTests/3': () =>
        json(
          200,
          subjectTest(3, {
            markScale: [
              { mark: '5', minScore: 8 },
              { mark: '2', minScore: 0 },
            ],
          }),
        ),
      'GET /api/admin/content/subjectTests/3/variants': () => json(200, []),
      'PUT /api/admin/content/subjectTests/3': ({ body }) =>
        json(200, subjectTest(3, { ...(body as object), updatedAt: '2026-03-02T10:00:00.000Z' })),
    });
    renderApp('/admin/content/tests/3?tab=settings');
    const form = await screen.findByTestId('test-form');
    expect(within(form).getByRole('combobox', { name: /Предмет/ })).toBeDisabled();
    await userEvent.clear(within(form).getByTestId('test-duration'));
    await userEvent.type(within(form).getByTestId('test-duration'), '60');
    await userEvent.click(within(form).getByRole('button', { name: 'Убрать отметку 5' }));
    await userEvent.click(within(form).getByTestId('test-save'));
    expect(await screen.findByText('Параметры теста сохранены')).toBeInTheDocument();
    expect(api.callsTo('PUT /api/admin/content/subjectTests/3')[0]!.body).toMatchObject({
      subjectExamId: 10,
      durationMinutes: 60,
      markScale: [{ mark: '2', minScore: 0 }],
      isOpen: false,
    });
  });

  it('opens a test to guests by its switch; a refusal for expert-graded tasks is said in words', async () => {
    const api = contentServer({
      'GET /api/admin/content/subjectTests/3': () => json(200, subjectTest(3)),
      'GET /api/admin/content/subjectTests/3/variants': () => json(200, []),
      'PUT /api/admin/content/subjectTests/3': () =>
        json(400, {
          status: 400,
          code: 'open_test_needs_auto_scoring',
          message: 'raw server text',
          errors: [
            {
              path: 'body.isOpen',
              message: 'a task is graded by experts',
              code: 'open_test_needs_auto_scoring',
            },
          ],
        }),
    });
    renderApp('/admin/content/tests/3?tab=settings');
    const form = await screen.findByTestId('test-form');
    const open = within(form).getByRole('switch', { name: /^Открытый тест для гостей/ });
    expect(open).not.toBeChecked();
    expect(form).toHaveTextContent('Только для тестов, все задания которых проверяются автоматически');
    await userEvent.click(open);
    await userEvent.click(within(form).getByTestId('test-save'));
    expect(await within(form).findAllByText(/Открытым может быть только тест/)).not.toHaveLength(0);
    expect(form).not.toHaveTextContent('raw server text');
    expect(api.callsTo('PUT /api/admin/content/subjectTests/3')[0]!.body).toMatchObject({ isOpen: true });
  });

  it('says before the click why a test sharing items with a secure test cannot be opened, and the 409 by its code', async () => {
    const conflicts = [
      {
        subjectTestId: 8,
        name: 'Контрольная по математике',
        diagnostics: ['Весенняя диагностика'],
        sharedTasks: 2,
      },
    ];
    const api = contentServer({
      'GET /api/admin/content/subjectTests/3': () =>
        json(200, { ...subjectTest(3), openConflicts: conflicts }),
      'GET /api/admin/content/subjectTests/3/variants': () => json(200, []),
      'PUT /api/admin/content/subjectTests/3': () =>
        json(409, {
          status: 409,
          code: 'open_test_shares_tasks',
          message: 'raw server text',
          errors: [
            {
              path: 'body.isOpen',
              message: 'shares 2 task(s)',
              code: 'open_test_shares_tasks',
              params: { subjectTestId: 8, name: 'Контрольная по математике', sharedTasks: 2 },
            },
          ],
        }),
    });
    renderApp('/admin/content/tests/3?tab=settings');
    const form = await screen.findByTestId('test-form');
    const blocked = within(form).getByTestId('open-blocked');
    expect(blocked).toHaveTextContent('Открыть тест для гостей нельзя');
    expect(blocked).toHaveTextContent(
      '«Контрольная по математике» — диагностики: Весенняя диагностика; общих заданий: 2',
    );
    expect(within(form).getByRole('switch', { name: /^Открытый тест для гостей/ })).toBeDisabled();
    // Saved anyway (the rule changed since the page was read): the 409 is said by its code.
    await userEvent.click(within(form).getByTestId('test-save'));
    expect(api.callsTo('PUT /api/admin/content/subjectTests/3')).toHaveLength(1);
    expect(await within(form).findByTestId('test-form-error')).toHaveTextContent(
      'Тест нельзя открыть для гостей: его задания ещё используются в проводимых диагностиках.',
    );
    expect(form).not.toHaveTextContent('raw server text');
  });

  it('offers the open switch when nothing is shared', async () => {
    contentServer({
      'GET /api/admin/content/subjectTests/3': () => json(200, { ...subjectTest(3), openConflicts: [] }),
      'GET /api/admin/content/subjectTests/3/variants': () => json(200, []),
    });
    renderApp('/admin/content/tests/3?tab=settings');
    const form = await screen.findByTestId('test-form');
    expect(within(form).getByRole('switch', { name: /^Открытый тест для гостей/ })).toBeEnabled();
    expect(within(form).queryByTestId('open-blocked')).toBeNull();
  });

  it('speaks English when the interface does', async () => {
    contentServer({
      'GET /api/admin/content/subjectTests/3': () => json(200, subjectTest(3, { status: 'published' })),
      'GET /api/admin/content/subjectTests/3/variants': () => json(200, [variant(21, 1)]),
    });
    const { i18n } = renderApp('/admin/content/tests/3');
    await i18n.changeLanguage('en');
    expect(await screen.findByRole('link', { name: 'Task pool' })).toBeInTheDocument();
    expect(await screen.findByTestId('test-status')).toHaveTextContent('Published');
    expect(screen.getByRole('tab', { name: 'Variants' })).toBeInTheDocument();
    expect(await screen.findByTestId('variant-tasks-1')).toHaveTextContent(
      '1. Задание 31 — Single choice, 1 pt',
    );
  });
});
