import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json } from '../../test/test-app';
import { cons, detailed, lastQuery, people, pick, renderReports, reportsServer } from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('reports: the detailed tab', { timeout: 20_000 }, () => {
  it('lists each participant with task columns, school and class by name, the first columns sticky', async () => {
    const api = reportsServer(people.coordinator);
    await renderReports('/coordinator/reports?tab=detailed&subjectTestId=31');
    const table = await screen.findByTestId('detailed-table');
    const header = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent!.replace(/\u00a0/g, ' '));
    expect(header).toEqual([
      'Код участника',
      'Фамилия',
      'Школа',
      'Класс',
      'Вариант',
      'Первичный балл',
      '%',
      'Отметка',
      'Уровень',
      '№ 1',
      '№ 2',
      '№ 3',
    ]);
    expect(within(table).getByLabelText('Задание 3 (макс. 17)')).toBeInTheDocument();
    const [first, second] = within(table).getAllByTestId('detailed-row');
    const cells = (row: HTMLElement) =>
      [...row.querySelectorAll('th, td')].map((c) => c.textContent!.replace(/\u00a0/g, ' '));
    expect(cells(first!)).toEqual([
      'R-0001',
      'Андреева',
      'Школа № 1',
      '7 «А»',
      '1',
      '17 / 20',
      '85 %',
      '5',
      'Повышенный',
      '1',
      '0',
      '16',
    ]);
    // An impersonal participant has no surname; a task still with the experts says so.
    expect(cells(second!).slice(0, 4)).toEqual(['R-0003', '—', 'Школа № 1', '7 «Б»']);
    expect(second!.querySelector('[data-task="3"]')).toHaveAttribute('title', 'ожидает проверки');
    expect(first!.querySelector('th')).toHaveClass('sticky-col');
    expect(first!.querySelector('td')).toHaveClass('sticky-col', 'last-sticky');
    expect(screen.queryByTestId('detailed-mixed')).not.toBeInTheDocument();

    expect(lastQuery(api.callsTo('GET /api/reports/detailed'))).toEqual({
      subjectTestId: '31',
      page: '1',
      pageSize: '100',
    });
    expect(screen.getByTestId('detailed-xlsx')).toHaveAttribute(
      'href',
      '/api/reports/detailed?subjectTestId=31&format=xlsx',
    );
  });

  it('asks the ugnik to narrow it first, then warns that several tests share task numbers', async () => {
    // Two subject tests with results in the filter.
    const russian = { ...cons.items[0]!, subjectTestId: 32, subjectTestName: 'Русский язык, 7 класс' };
    const api = reportsServer(people.ugnik, {
      'GET /api/reports/cons': () => json(200, { ...cons, items: [cons.items[0]!, russian] }),
    });
    await renderReports('/ugnik/reports?tab=detailed');
    expect(await screen.findByTestId('detailed-choose')).toHaveTextContent(
      'Выберите диагностику или тест по предмету',
    );
    expect(api.callsTo('GET /api/reports/detailed')).toHaveLength(0);
    await pick('Диагностика', /Проверка математики/);
    expect(await screen.findByTestId('detailed-table')).toBeInTheDocument();
    expect(screen.getByTestId('detailed-mixed')).toHaveTextContent('задания с одним номером в разных тестах');
    expect(lastQuery(api.callsTo('GET /api/reports/detailed'))).toEqual({
      diagnosticId: '7',
      page: '1',
      pageSize: '100',
    });
    // The ugnik's schools now come from the inspection itself.
    await pick('Школа', 'Школа № 2');
    await waitFor(() =>
      expect(lastQuery(api.callsTo('GET /api/reports/detailed'))).toEqual({
        diagnosticId: '7',
        schoolId: '102',
        page: '1',
        pageSize: '100',
      }),
    );
  });

  it('pages the rows on the server', async () => {
    const api = reportsServer(people.coordinator, {
      'GET /api/reports/detailed': ({ url }) => {
        const page = Number(new URL(url, 'http://x').searchParams.get('page'));
        return json(200, { ...detailed, total: 250, page, pageSize: 100 });
      },
    });
    await renderReports('/coordinator/reports?tab=detailed');
    await screen.findByTestId('detailed-table');
    expect(screen.getByText('Участников: 250')).toBeInTheDocument();
    const pages = screen.getByTestId('detailed-pages');
    await userEvent.click(within(pages).getByRole('button', { name: '3' }));
    await waitFor(() =>
      expect(lastQuery(api.callsTo('GET /api/reports/detailed'))).toEqual({ page: '3', pageSize: '100' }),
    );
    // The file has every row: no paging in its link.
    expect(screen.getByTestId('detailed-xlsx')).toHaveAttribute('href', '/api/reports/detailed?format=xlsx');
  });

  it('shows an unknown record by its status', async () => {
    reportsServer(people.coordinator, { 'GET /api/reports/detailed': () => apiError(404, 'not_found') });
    await renderReports('/coordinator/reports?tab=detailed&classId=99');
    expect(await screen.findByTestId('report-error')).toHaveTextContent(
      'Выбранная диагностика, школа, класс или тест не найдены.',
    );
  });
});
