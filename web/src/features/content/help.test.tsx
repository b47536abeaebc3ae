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
    expect(within(reports).getByText('/coordinator/reports')).toBeInTheDocument();
    const general = within(table).getByText('Как войти').closest('tr')!;
    expect(within(general).getByText('Все')).toBeInTheDocument();
    expect(within(general).getByText('Общая справка')).toBeInTheDocument();
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
