import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, renderApp } from '../../test/test-app';
import { contentServer } from './test/fixtures';

const section = (id: number, extra = {}) => ({
  id,
  title: 'Отчёты школы',
  html: '<p>Фильтры</p>',
  roles: ['coordinator'],
  pages: ['/coordinator/reports'],
  sortOrder: 0,
  published: true,
  updatedAt: '2026-03-10T07:15:00.000Z',
  ...extra,
});
const page = (id: number, extra = {}) => ({
  id,
  code: 'rules',
  title: 'Правила',
  html: '<p>Не списывать</p>',
  published: true,
  updatedAt: '2026-03-10T07:15:00.000Z',
  ...extra,
});

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

/** Writes html through the rich-text field's html view. */
async function writeHtml(scope: HTMLElement, testId: string, name: string, html: string) {
  const field = await within(scope).findByTestId(testId);
  await userEvent.click(within(field).getByRole('button', { name: 'HTML-код' }));
  fireEvent.change(within(field).getByRole('textbox', { name: `${name}: HTML-код` }), {
    target: { value: html },
  });
}

describe('help sections and pages', { timeout: 30_000 }, () => {
  it('says for each help section and page where it shows, in words', async () => {
    contentServer({
      'GET /api/admin/help': () =>
        json(200, {
          items: [
            section(1, { title: 'Вход', pages: ['/login'] }),
            section(2, { title: 'Работа', pages: ['/participant/work', '/coordinator'] }),
            section(3, { title: 'Отчёт', pages: ['/coordinator/reports/cons'] }),
            section(4, { title: 'Опечатка', pages: ['/nowhere'] }),
          ],
        }),
      'GET /api/admin/htmltexts': () =>
        json(200, { items: [page(1), page(2, { code: null, title: 'Черновик правил' })] }),
    });
    const { router } = renderApp('/admin/content/help');
    const table = await screen.findByTestId('help-table');
    await within(table).findByText('Вход');
    expect(within(table).getByRole('columnheader', { name: 'Где показывается' })).toBeInTheDocument();
    const rowOf = (title: string) => within(table).getByText(title).closest('tr')!;
    expect(rowOf('Вход')).toHaveTextContent('Показывается: страница входа (по паролю и по коду участника)');
    expect(rowOf('Работа')).toHaveTextContent(
      'Показывается: выполнение работы участником; все страницы роли «Школьный координатор»',
    );
    expect(rowOf('Отчёт')).toHaveTextContent(
      'Показывается: Школьный координатор: отчёты — раздел /coordinator/reports/cons',
    );
    expect(rowOf('Опечатка')).toHaveTextContent('страница /nowhere (такой страницы в приложении нет)');
    expect(table).not.toHaveTextContent('contentHelp.');

    // The form says it too, as the pages are typed.
    await userEvent.click(screen.getByTestId('help-create'));
    const form = await screen.findByTestId('help-form');
    expect(within(form).getByTestId('help-where')).toHaveTextContent(
      'Показывается: на всех страницах (общая справка)',
    );
    await userEvent.type(within(form).getByTestId('help-pages'), '/organizator/room{Enter}');
    expect(within(form).getByTestId('help-where')).toHaveTextContent(
      'Показывается: Организатор в аудитории: аудитория онлайн',
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Отмена' }));

    await router.navigate('/admin/content/pages');
    const pages = await screen.findByTestId('pages-table');
    expect((await within(pages).findByText('Правила')).closest('tr')!).toHaveTextContent(
      'открывается по коду «rules» (в меню приложения её нет)',
    );
    expect(within(pages).getByText('Черновик правил').closest('tr')!).toHaveTextContent(
      'нигде: у страницы нет кода',
    );
  });

  it('lists help sections by role and page in words and creates one for chosen roles and pages', async () => {
    const api = contentServer({
      'GET /api/admin/help': () =>
        json(200, {
          items: [section(1), section(2, { title: 'Как войти', roles: [], pages: [], published: false })],
        }),
      'POST /api/admin/help': ({ body }) => json(200, section(3, body as object)),
    });
    renderApp('/admin/content/help');
    const table = await screen.findByTestId('help-table');
    const reports = (await within(table).findByText('Отчёты школы')).closest('tr')!;
    expect(within(reports).getByText('Школьный координатор')).toBeInTheDocument();
    // Where it shows, in words (not the address typed in its form).
    expect(within(reports).getByText('Показывается: Школьный координатор: отчёты')).toBeInTheDocument();
    const general = within(table).getByText('Как войти').closest('tr')!;
    expect(within(general).getByText('Все')).toBeInTheDocument();
    expect(within(general).getByText('Показывается: на всех страницах (общая справка)')).toBeInTheDocument();
    expect(within(general).getByText('Черновик')).toBeInTheDocument();
    expect(within(screen.getByTestId('content-nav')).getByRole('link', { name: 'Справка' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await userEvent.click(screen.getByTestId('help-create'));
    const form = await screen.findByTestId('help-form');
    // No title, and a page that is not an address: said by the fields, nothing sent.
    await userEvent.type(within(form).getByTestId('help-pages'), 'reports{Enter}');
    await userEvent.click(within(form).getByTestId('help-form-submit'));
    expect(await within(form).findByText('Укажите заголовок.')).toBeInTheDocument();
    expect(within(form).getByText(/Адрес страницы начинается с «\/»/)).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/help')).toHaveLength(0);

    // Backspace in the empty input takes the last page off.
    await userEvent.type(within(form).getByTestId('help-pages'), '{Backspace}');
    await userEvent.type(within(form).getByTestId('help-pages'), '/participant/work{Enter}');
    await userEvent.type(within(form).getByTestId('help-title'), 'Пауза');
    const roles = within(form).getByTestId('help-roles');
    await userEvent.click(roles);
    await userEvent.click(await screen.findByRole('option', { name: 'Участник', hidden: true }));
    await writeHtml(form, 'help-html', 'Текст', '<p>Пауза останавливает время</p>');
    await userEvent.click(within(form).getByTestId('help-form-submit'));
    await waitFor(() => expect(api.callsTo('POST /api/admin/help')).toHaveLength(1));
    expect(api.callsTo('POST /api/admin/help')[0]!.body).toEqual({
      title: 'Пауза',
      html: '<p>Пауза останавливает время</p>',
      roles: ['participant'],
      pages: ['/participant/work'],
      sortOrder: 0,
      published: true,
    });
  });

  it('edits a page; a code another page has is said by its field', async () => {
    const api = contentServer({
      'GET /api/admin/htmltexts': () => json(200, { items: [page(4)] }),
      'PUT /api/admin/htmltexts/4': ({ body }) =>
        (body as { code: string }).code === 'privacy'
          ? apiError(409, 'code_taken')
          : json(200, page(4, body as object)),
    });
    renderApp('/admin/content/pages');
    const table = await screen.findByTestId('pages-table');
    expect(await within(table).findByText('Правила')).toBeInTheDocument();
    await userEvent.click(within(table).getByTestId('page-edit-4'));
    const form = await screen.findByTestId('page-form');
    await userEvent.clear(within(form).getByTestId('page-code'));
    await userEvent.type(within(form).getByTestId('page-code'), 'privacy');
    await userEvent.click(within(form).getByTestId('page-form-submit'));
    expect(await within(form).findByText('Этот код уже у другой страницы.')).toBeInTheDocument();
    await userEvent.clear(within(form).getByTestId('page-code'));
    await userEvent.type(within(form).getByTestId('page-code'), 'exam-rules');
    await userEvent.click(within(form).getByTestId('page-form-submit'));
    await waitFor(() => expect(api.callsTo('PUT /api/admin/htmltexts/4')).toHaveLength(2));
    expect(api.callsTo('PUT /api/admin/htmltexts/4')[1]!.body).toEqual({
      code: 'exam-rules',
      title: 'Правила',
      html: '<p>Не списывать</p>',
      published: true,
    });
  });
});
