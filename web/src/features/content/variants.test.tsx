import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, renderApp } from '../../test/test-app';
import {
  contentServer,
  element,
  pick,
  slot,
  specification,
  subjectTest,
  task,
  taskItem,
  variant,
} from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('variants of a subject test', { timeout: 30_000 }, () => {
  it('builds a variant by hand: tasks picked by search, ordered, each with its points', async () => {
    let variants = [variant(21, 1)];
    const api = contentServer({
      'GET /api/admin/content/subjectTests/3': () => json(200, subjectTest(3)),
      'GET /api/admin/content/subjectTests/3/variants': () => json(200, variants),
      'POST /api/admin/content/tasks/list': ({ body }) => {
        const search = (body as { filter?: { search?: string } }).filter?.search;
        const items = [
          taskItem(31),
          taskItem(41, { title: 'Дроби', maxScore: 2 }),
          taskItem(42, { title: 'Проценты' }),
        ];
        return json(200, {
          items: search ? items.filter((i) => i.title.includes(search)) : items,
          total: 3,
        });
      },
      'POST /api/admin/content/subjectTests/3/variants': ({ body }) => {
        const b = body as { number?: number; tasks: { taskId: number; maxScore?: number }[] };
        if (b.number === 1) return apiError(409, 'conflict');
        const created = variant(
          23,
          2,
          b.tasks.map((t, i) => slot(i + 1, t.taskId, { maxScore: t.maxScore ?? 1 })),
        );
        variants = [...variants, created];
        return json(200, created);
      },
    });
    renderApp('/admin/content/tests/3');
    await userEvent.click(await screen.findByTestId('variant-build'));
    const form = await screen.findByTestId('variant-builder');

    // Nothing chosen: said, nothing sent.
    await userEvent.click(within(form).getByTestId('variant-builder-submit'));
    expect(await within(form).findByText('Добавьте хотя бы одно задание.')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/content/subjectTests/3/variants')).toHaveLength(0);

    const picker = within(form).getByRole('combobox', { name: 'Задание из банка предмета' });
    await userEvent.type(picker, 'Дроби');
    await waitFor(() =>
      expect(api.callsTo('POST /api/admin/content/tasks/list').at(-1)!.body).toMatchObject({
        filter: { subjectId: 1, search: 'Дроби' },
      }),
    );
    await userEvent.click(await screen.findByRole('option', { name: /№ 41 · Дроби/, hidden: true }));
    await userEvent.type(picker, 'Проценты');
    await userEvent.click(await screen.findByRole('option', { name: /№ 42 · Проценты/, hidden: true }));

    const rows = within(form).getAllByTestId('variant-task-row');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('№ 41 · Дроби'),
      expect.stringContaining('№ 42 · Проценты'),
    ]);
    // The second goes first; its points become 3.
    await userEvent.click(within(form).getByRole('button', { name: 'Выше: 2' }));
    await userEvent.clear(within(form).getByTestId('variant-score-0'));
    await userEvent.type(within(form).getByTestId('variant-score-0'), '3');
    expect(within(form).getByTestId('variant-total')).toHaveTextContent('Всего баллов: 5');

    await userEvent.type(within(form).getByTestId('variant-number'), '1');
    await userEvent.click(within(form).getByTestId('variant-builder-submit'));
    expect(await within(form).findByText('Вариант с этим номером уже есть')).toBeInTheDocument();
    await userEvent.clear(within(form).getByTestId('variant-number'));
    await userEvent.click(within(form).getByTestId('variant-builder-submit'));
    expect(await screen.findByText('Вариант 2 создан')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/content/subjectTests/3/variants').map((c) => c.body)).toEqual([
      {
        number: 1,
        tasks: [
          { taskId: 42, maxScore: 3 },
          { taskId: 41, maxScore: 2 },
        ],
      },
      {
        tasks: [
          { taskId: 42, maxScore: 3 },
          { taskId: 41, maxScore: 2 },
        ],
      },
    ]);
    expect(await screen.findByTestId('variant-tasks-2')).toHaveTextContent('1. Задание 42');
  });

  it('generates variants from a blueprint; a pool too small is said plainly with the row and numbers', async () => {
    let pool = 1;
    const api = contentServer({
      'GET /api/admin/content/subjectTests/3': () => json(200, subjectTest(3, { specificationId: 4 })),
      'GET /api/admin/content/subjectTests/3/variants': () => json(200, [variant(21, 1)]),
      'GET /api/admin/content/specifications/4': () =>
        json(
          200,
          specification(4, [
            element(61, '1', 'Числа'),
            element(62, '1.1', 'Дроби', { parentId: 61, depth: 1 }),
          ]),
        ),
      'POST /api/admin/content/subjectTests/3/variants/generate': ({ body }) => {
        const b = body as { count: number; blueprint: { count: number }[] };
        if (b.blueprint[1]!.count > pool)
          return json(409, {
            status: 409,
            code: 'pool_too_small',
            message: 'Blueprint row 2 needs 2 distinct task(s) per variant, the pool has 1',
            errors: [
              {
                path: 'body.blueprint.1',
                message: 'needs 2, the pool has 1',
                code: 'pool_too_small',
                params: { row: 1, needed: b.blueprint[1]!.count, available: pool },
              },
            ],
          });
        return json(200, [variant(24, 2), variant(25, 3)]);
      },
    });
    renderApp('/admin/content/tests/3');
    await userEvent.click(await screen.findByTestId('variant-generate'));
    const form = await screen.findByTestId('generate-form');
    await userEvent.clear(within(form).getByTestId('generate-seed'));
    await userEvent.type(within(form).getByTestId('generate-seed'), 'весна');

    // Row 1: by element 1.1, 2 points each; row 2: category «Алгебра», 2 tasks.
    const row1 = within(form).getByTestId('blueprint-row-0');
    await pick(row1, 'Откуда брать', 'Элемент кодификатора');
    await pick(row1, 'Элемент', /1\.1 Дроби/);
    await userEvent.type(within(row1).getByTestId('blueprint-score-0'), '2');
    await userEvent.click(within(form).getByTestId('blueprint-add'));
    const row2 = within(form).getByTestId('blueprint-row-1');
    await pick(row2, 'Откуда брать', 'Категория');
    await userEvent.type(within(row2).getByTestId('blueprint-category-1'), 'Алгебра');
    await userEvent.clear(within(row2).getByTestId('blueprint-count-1'));
    await userEvent.type(within(row2).getByTestId('blueprint-count-1'), '2');

    await userEvent.click(within(form).getByTestId('generate-form-submit'));
    expect(await within(form).findByTestId('pool-too-small')).toHaveTextContent(
      'В банке предмета не хватает заданий для строки 2: в каждом варианте нужно 2 разных, а подходящих только 1.',
    );
    expect(within(form).getByTestId('pool-too-small')).not.toHaveTextContent('Blueprint');

    pool = 5;
    await userEvent.click(within(form).getByTestId('generate-form-submit'));
    expect(await screen.findByText('Создано 2 варианта')).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/content/subjectTests/3/variants/generate').at(-1)!.body).toEqual({
      count: 2,
      seed: 'весна',
      blueprint: [
        { elementId: 62, count: 1, maxScore: 2 },
        { category: 'Алгебра', count: 2 },
      ],
    });
  });

  it('deletes a variant no work used; one with works cannot be deleted and says why', async () => {
    let variants = [variant(21, 1), variant(22, 2, undefined, { usedByWorks: true })];
    const api = contentServer({
      'GET /api/admin/content/subjectTests/3': () => json(200, subjectTest(3)),
      'GET /api/admin/content/subjectTests/3/variants': () => json(200, variants),
      'DELETE /api/admin/content/variants/21': () => {
        variants = variants.slice(1);
        return json(200, { ok: true });
      },
    });
    renderApp('/admin/content/tests/3');
    expect(await screen.findByTestId('variant-delete-1')).toBeInTheDocument();
    expect(screen.queryByTestId('variant-delete-2')).toBeNull();
    expect(screen.getByText('есть работы')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('variant-delete-1'));
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    expect(await screen.findByText('Вариант 1 удалён')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('variant-tasks-1')).toBeNull());
    expect(api.callsTo('DELETE /api/admin/content/variants/21')).toHaveLength(1);
  });

  it('previews a variant as the participant sees it, answers a task and shows its score', async () => {
    const api = contentServer({
      'GET /api/admin/content/subjectTests/3': () => json(200, subjectTest(3)),
      'GET /api/admin/content/subjectTests/3/variants': () =>
        json(200, [variant(21, 1, [slot(1, 31), slot(2, 32, { answerType: 'short_text', maxScore: 2 })])]),
      'GET /api/admin/content/tasks/31': () =>
        json(200, task(31, { html: '<p>Сколько будет 2+2?</p><script>alert(1)</script>' })),
      'GET /api/admin/content/tasks/32': () =>
        json(
          200,
          task(32, {
            answerType: 'short_text',
            html: '<p>Столица России?</p>',
            content: { maxLength: 100 },
            reference: { accepted: ['Москва'] },
            scoring: { method: 'all_or_nothing' },
            maxScore: 2,
          }),
        ),
      'POST /api/admin/content/tasks/31/score': ({ body }) =>
        json(200, {
          score: (body as { value: string }).value === 'b' ? 1 : 0,
          maxScore: 1,
          status: 'scored',
          correct: (body as { value: string }).value === 'b',
        }),
      'POST /api/admin/content/tasks/32/score': () =>
        apiError(400, 'invalid_answer', 'value: expected string'),
    });
    renderApp('/admin/content/tests/3');
    await userEvent.click(await screen.findByTestId('variant-preview-1'));
    const first = await screen.findByTestId('preview-task-1');
    expect(within(first).getByRole('heading', { name: 'Задание 1 из 2' })).toBeInTheDocument();
    expect(await within(first).findByText('Сколько будет 2+2?')).toBeInTheDocument();
    expect(first.querySelector('script')).toBeNull();

    await userEvent.click(within(first).getByTestId('option-a'));
    await userEvent.click(within(first).getByTestId('score-check'));
    expect(await within(first).findByTestId('score-result')).toHaveTextContent('Баллов: 0 из 1Неверно');
    await userEvent.click(within(first).getByTestId('option-b'));
    expect(within(first).queryByTestId('score-result')).toBeNull();
    await userEvent.click(within(first).getByTestId('score-check'));
    expect(await within(first).findByTestId('score-result')).toHaveTextContent('Баллов: 1 из 1Верно');
    expect(api.callsTo('POST /api/admin/content/tasks/31/score').map((c) => c.body)).toEqual([
      { value: 'a' },
      { value: 'b' },
    ]);
    expect(screen.getByTestId('preview-total')).toHaveTextContent('Проверено заданий: 1 из 2, баллов: 1');

    // A refused trial answer is said by its code.
    await userEvent.click(screen.getByTestId('preview-next'));
    const second = await screen.findByTestId('preview-task-2');
    expect(await within(second).findByText('Столица России?')).toBeInTheDocument();
    await userEvent.click(within(second).getByTestId('score-check'));
    expect(await within(second).findByTestId('score-error')).toHaveTextContent(
      'Ответ не подходит к этому заданию.',
    );
    expect(within(second).getByTestId('score-error')).not.toHaveTextContent('expected string');
  });
});
