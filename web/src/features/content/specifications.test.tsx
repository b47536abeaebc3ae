import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, renderApp } from '../../test/test-app';
import { contentServer, element, pick, specification } from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

type El = ReturnType<typeof element>;

/** A specification kept by the fake server: its elements change with the calls, in tree order. */
function tree(initial: El[]) {
  let elements = initial;
  const ordered = () => {
    const out: El[] = [];
    const walk = (parentId: number | null, depth: number) =>
      elements
        .filter((e) => e.parentId === parentId)
        .sort((a, b) => a.position - b.position || a.id - b.id)
        .forEach((e) => {
          out.push({ ...e, depth });
          walk(e.id, depth + 1);
        });
    walk(null, 0);
    return out;
  };
  const answer = () => json(200, specification(4, ordered()));
  return {
    answer,
    add: (body: Partial<El>) => {
      const siblings = elements.filter((e) => e.parentId === (body.parentId ?? null));
      elements = [
        ...elements,
        element(70 + elements.length, body.code!, body.name!, {
          kind: body.kind,
          parentId: body.parentId ?? null,
          position: siblings.length,
        }),
      ];
      return answer();
    },
    update: (id: number, body: Partial<El>) => {
      elements = elements.map((e) =>
        e.id === id
          ? { ...e, ...body, parentId: body.parentId === undefined ? e.parentId : body.parentId }
          : e,
      );
      return answer();
    },
  };
}

describe('specifications', { timeout: 30_000 }, () => {
  it('lists specifications and creates one, which then opens', async () => {
    const api = contentServer({
      'POST /api/admin/content/specifications': ({ body }) =>
        json(200, specification(8, [], { ...(body as object) })),
      'GET /api/admin/content/specifications/8': () => json(200, specification(8, [], { name: 'Физика 8' })),
    });
    const { router } = renderApp('/admin/content/specifications');
    const table = await screen.findByTestId('specs-table');
    expect(await within(table).findByText('Кодификатор по математике, 7 класс')).toBeInTheDocument();
    expect(within(table).getByText('7 класс')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('spec-create'));
    const form = await screen.findByTestId('spec-form');
    await userEvent.type(within(form).getByTestId('spec-name'), 'Физика 8');
    await pick(form, 'Предмет', 'Физика');
    await pick(form, 'Параллель', '8 класс');
    await userEvent.click(within(form).getByTestId('spec-form-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/content/specifications/8'));
    expect(api.callsTo('POST /api/admin/content/specifications')[0]!.body).toEqual({
      name: 'Физика 8',
      subjectId: 2,
      parallel: 8,
      description: null,
    });
    expect(
      await screen.findByText(
        'Элементов пока нет: добавьте их или загрузите из файла.',
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
  });

  it('edits the tree: adds a child of a kind, moves an element up, refuses to delete one that classifies tasks', async () => {
    const spec = tree([
      element(61, '1', 'Числа и вычисления'),
      element(62, '2', 'Алгебра', { position: 1 }),
      element(63, '2.1', 'Уравнения', { parentId: 62 }),
    ]);
    const api = contentServer({
      'GET /api/admin/content/specifications/4': () => spec.answer(),
      'POST /api/admin/content/specifications/4/elements': ({ body }) => spec.add(body as Partial<El>),
      'PUT /api/admin/content/specificationElements/61': ({ body }) => spec.update(61, body as Partial<El>),
      'PUT /api/admin/content/specificationElements/62': ({ body }) => spec.update(62, body as Partial<El>),
      'DELETE /api/admin/content/specificationElements/63': () => apiError(409, 'conflict'),
    });
    renderApp('/admin/content/specifications/4');
    const treeView = await screen.findByRole('tree');
    expect(
      within(treeView)
        .getAllByRole('treeitem')
        .map((i) => i.getAttribute('aria-level')),
    ).toEqual(['1', '1', '2']);

    await userEvent.click(within(treeView).getByRole('button', { name: 'Добавить элемент в 2' }));
    const form = await screen.findByTestId('element-form');
    expect(within(form).getByRole('combobox', { name: 'Входит в' })).toHaveValue('2 Алгебра');
    await userEvent.type(within(form).getByTestId('element-code'), '2.2');
    await userEvent.type(within(form).getByTestId('element-name'), 'Решать уравнения');
    await userEvent.click(within(form).getByRole('radio', { name: 'Умение' }));
    await userEvent.click(within(form).getByTestId('element-form-submit'));
    expect(await within(treeView).findByTestId('element-2.2')).toHaveTextContent('Умение');
    expect(api.callsTo('POST /api/admin/content/specifications/4/elements')[0]!.body).toEqual({
      code: '2.2',
      name: 'Решать уравнения',
      kind: 'skill',
      parentId: 62,
    });

    await userEvent.click(within(treeView).getByTestId('element-up-2'));
    await waitFor(() =>
      expect(
        within(treeView)
          .getAllByRole('treeitem')
          .map((i) => i.getAttribute('data-testid')),
      ).toEqual(['element-2', 'element-2.1', 'element-2.2', 'element-1']),
    );
    expect(api.callsTo('PUT /api/admin/content/specificationElements/62')[0]!.body).toEqual({
      code: '2',
      name: 'Алгебра',
      kind: 'content',
      position: 0,
    });

    await userEvent.click(within(treeView).getByTestId('element-delete-2.1'));
    await userEvent.click(await screen.findByTestId('confirm-delete'));
    expect(await screen.findByTestId('delete-error')).toHaveTextContent(
      'Элемент (или вложенный в него) привязан к заданиям — удалить его нельзя.',
    );
  });

  it('imports elements from a file: errors are shown by row and column in words; the template downloads', async () => {
    const createObjectURL = vi.fn(() => 'blob:csv');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    let valid = false;
    const api = contentServer({
      'GET /api/admin/content/specifications/4': () => json(200, specification(4)),
      'POST /api/admin/content/specifications/4/import': () =>
        valid
          ? json(200, {
              created: 2,
              updated: 0,
              specification: specification(4, [element(61, '1', 'Числа')]),
            })
          : json(400, {
              status: 400,
              code: 'import_invalid',
              message:
                'The file has 2 error(s); nothing was imported. First: row 3: no element with the code 9',
              errors: [
                {
                  path: 'rows[3].parent',
                  message: 'row 3: no element with the code 9',
                  code: 'unknown_parent',
                  params: { row: 3, column: 'parent' },
                },
                {
                  path: 'rows[5].kind',
                  message: 'row 5: «x» is not a kind',
                  code: 'invalid_kind',
                  params: { row: 5, column: 'kind' },
                },
              ],
            }),
    });
    renderApp('/admin/content/specifications/4');
    await screen.findByTestId('spec-import-file');
    const fileInput = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(
      fileInput,
      new File(['код;название\n1;Числа'], 'elements.csv', { type: 'text/csv' }),
    );
    await userEvent.click(screen.getByTestId('spec-import-upload'));
    const errors = await screen.findByTestId('spec-import-errors');
    expect(
      within(errors)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Строка 3, столбец «родитель»: нет элемента с таким кодом родителя',
      'Строка 5, столбец «вид»: вид должен быть «содержание» или «умение»',
    ]);
    expect(errors).not.toHaveTextContent('no element with the code');
    const sent = api.callsTo('POST /api/admin/content/specifications/4/import')[0]!.body as FormData;
    expect((sent.get('file') as File).name).toBe('elements.csv');

    valid = true;
    await userEvent.click(screen.getByTestId('spec-import-upload'));
    expect(await screen.findByTestId('spec-import-done')).toHaveTextContent(
      'Загружено: новых элементов — 2, обновлено — 0',
    );
    expect(await screen.findByTestId('element-1')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('spec-import-template'));
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob);
    });
    expect(text.replace(/^\ufeff/, '').split('\r\n')[0]).toBe('код;название;родитель;вид');
  });
});
