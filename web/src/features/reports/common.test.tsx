import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, renderApp } from '../../test/test-app';
import {
  common,
  fileAnswer,
  jsonOrFile,
  lastQuery,
  people,
  pick,
  queueItem,
  renderReports,
  reportsServer,
} from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('reports: the common tab', { timeout: 20_000 }, () => {
  it('is in the coordinator navigation and shows the figures, marks and levels of each test', async () => {
    const api = reportsServer(people.coordinator);
    renderApp('/coordinator');
    const nav = await screen.findByRole('navigation', { name: 'Разделы' });
    await userEvent.click(await within(nav).findByRole('link', { name: 'Отчёты' }));

    // The page and its chart library load on first use.
    const table = await screen.findByTestId('common-table', {}, { timeout: 10_000 });
    const math = within(table).getByTestId('common-row-31');
    expect(within(math).getByRole('rowheader')).toHaveTextContent('Математика, 7 класс');
    const cell = (stat: string) => math.querySelector(`[data-stat="${stat}"]`)!.textContent;
    expect(cell('registered')).toBe('12');
    expect(cell('tookPart')).toBe('9');
    expect(cell('scored')).toBe('7');
    expect(cell('meanScore')).toBe('14,57');
    expect(cell('meanPercent')).toBe('72,86\u00a0%');
    expect(math).toHaveTextContent('10.04.2026 — 11.04.2026');

    // Charts of the test with results, their figures also in words; none for a test without.
    const marks = screen.getByTestId('marks-chart-31');
    expect(within(marks).getByRole('img')).toHaveAccessibleName(
      /Отметка «2»: 1; Отметка «3»: 2; Отметка «4»: 3; Отметка «5»: 1/,
    );
    expect(within(screen.getByTestId('levels-chart-31')).getByRole('img')).toHaveAccessibleName(
      /Недостаточный: 1; Базовый: 4; Повышенный: 2/,
    );
    expect(
      within(screen.getByTestId('common-charts-32')).getByText(/Результатов пока нет/),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('marks-chart-32')).not.toBeInTheDocument();
    expect(lastQuery(api.callsTo('GET /api/reports/common'))).toEqual({});
  });

  it('sends the chosen pickers and period, and its download links carry them', async () => {
    const api = reportsServer(people.coordinator);
    const { router } = await renderReports('/coordinator/reports');
    await screen.findByTestId('common-table');
    // A coordinator has no school picker: the report is of their school.
    expect(screen.queryByTestId('filter-school')).not.toBeInTheDocument();

    await pick('Диагностика', /Демонстрационная диагностика/);
    await pick('Тест по предмету', 'Математика, 7 класс');
    await pick('Класс', '7 «Б»');
    fireEvent.change(screen.getByLabelText('С даты'), { target: { value: '2026-04-01' } });
    fireEvent.change(screen.getByLabelText('По дату'), { target: { value: '2026-04-30' } });

    await waitFor(() =>
      expect(lastQuery(api.callsTo('GET /api/reports/common'))).toEqual({
        diagnosticId: '5',
        subjectTestId: '31',
        classId: '12',
        startDate: '2026-04-01',
        endDate: '2026-04-30',
      }),
    );
    expect(router.state.location.search).toContain('diagnosticId=5');
    expect(screen.getByTestId('common-xlsx')).toHaveAttribute(
      'href',
      '/api/reports/common?diagnosticId=5&subjectTestId=31&classId=12&startDate=2026-04-01&endDate=2026-04-30&format=xlsx',
    );
    expect(screen.getByTestId('common-pdf').getAttribute('href')).toMatch(/diagnosticId=5.*format=pdf$/);

    await userEvent.click(screen.getByTestId('filter-reset'));
    await waitFor(() =>
      expect(screen.getByTestId('common-xlsx')).toHaveAttribute('href', '/api/reports/common?format=xlsx'),
    );
    expect(router.state.location.search).toBe('');
  });

  it('downloads the file with the filters, and says why a download or the report failed', async () => {
    const createObjectURL = vi.fn(() => 'blob:report');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    let fileFails = false;
    const api = reportsServer(people.coordinator, {
      'GET /api/reports/common': jsonOrFile(common, () =>
        fileFails ? apiError(403, 'forbidden') : fileAnswer('obshchiy-otchet.xlsx'),
      ),
    });
    await renderReports('/coordinator/reports?classId=11');
    await screen.findByTestId('common-table');

    await userEvent.click(screen.getByTestId('common-xlsx'));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(await screen.findByText('Файл «obshchiy-otchet.xlsx» сохранён')).toBeInTheDocument();
    expect(lastQuery(api.callsTo('GET /api/reports/common'))).toEqual({ classId: '11', format: 'xlsx' });

    fileFails = true;
    await userEvent.click(screen.getByTestId('common-pdf'));
    expect(await screen.findByTestId('common-pdf-error')).toHaveTextContent(
      'Не удалось скачать файл: Недостаточно прав для этого файла.',
    );
  });

  it('says while the server prepares a file, and how much of it has come', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }),
    );
    let answer: (response: Response) => void = () => {};
    const pending = new Promise<Response>((resolve) => (answer = resolve));
    reportsServer(people.coordinator, {
      'GET /api/reports/common': jsonOrFile(common, () => pending as unknown as Response),
    });
    await renderReports('/coordinator/reports');
    await screen.findByTestId('common-table');
    await userEvent.click(screen.getByTestId('common-xlsx'));
    expect(await screen.findByTestId('common-xlsx-progress')).toHaveTextContent('Сервер готовит файл…');
    expect(screen.getByTestId('common-xlsx')).toHaveAttribute('aria-busy', 'true');
    answer(fileAnswer('obshchiy.xlsx', 300 * 1024));
    expect(await screen.findByText('Файл «obshchiy.xlsx» сохранён')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('common-xlsx-progress')).not.toBeInTheDocument());
  });

  it('follows a big file built in the queue, then saves it; a failed build is said by its code', async () => {
    const createObjectURL = vi.fn(() => 'blob:big');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const states = [
      queueItem({ progress: 0 }),
      queueItem({ progress: 40 }),
      queueItem({ status: 'done', progress: 100, resultFileId: 77 }),
    ];
    const api = reportsServer(people.coordinator, {
      'GET /api/reports/common': jsonOrFile(common, () => json(202, { queueItemId: 41 })),
      'GET /api/reports/queue/41': () => json(200, states.length > 1 ? states.shift() : states[0]),
      'GET /api/files/77': () => fileAnswer('obshchiy-bolshoy.xlsx'),
    });
    await renderReports('/coordinator/reports');
    await screen.findByTestId('common-table');
    await userEvent.click(screen.getByTestId('common-xlsx'));
    expect(
      await screen.findByText('Файл большой и строится в очереди задач: 40 %', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('Файл «obshchiy-bolshoy.xlsx» сохранён', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(createObjectURL).toHaveBeenCalled();
    expect(api.callsTo('GET /api/files/77')).toHaveLength(1);
    // The server's own progress text (Russian, for the queue pages) is not shown as such.
    expect(screen.queryByText(/Детальный отчёт: 0 из/)).not.toBeInTheDocument();

    states.splice(
      0,
      states.length,
      queueItem({ status: 'failed', errorCode: 'forbidden', error: 'scope changed' }),
    );
    await userEvent.click(screen.getByTestId('common-pdf'));
    expect(await screen.findByTestId('common-pdf-error', {}, { timeout: 5000 })).toHaveTextContent(
      'Не удалось скачать файл: Недостаточно прав для этого действия.',
    );
  });

  it('shows a refused period by its code and an empty answer as such', async () => {
    reportsServer(people.coordinator, {
      'GET /api/reports/common': ({ url }) =>
        url.includes('startDate')
          ? apiError(400, 'invalid_date_range', 'end before start')
          : json(200, { ...common, items: [] }),
    });
    await renderReports('/coordinator/reports?startDate=2026-05-01&endDate=2026-04-01');
    expect(await screen.findByTestId('report-error')).toHaveTextContent(
      'Не удалось получить отчёт: Неверный период: дата начала позже даты окончания.',
    );
    expect(screen.queryByText('end before start')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('filter-reset'));
    expect(await screen.findByTestId('report-empty')).toHaveTextContent('По выбранному отбору нет данных.');
  });

  it('speaks English', async () => {
    reportsServer(people.coordinator);
    const { i18n } = await renderReports('/coordinator/reports');
    await i18n.changeLanguage('en');
    expect(await screen.findByRole('tab', { name: 'Summary' })).toBeInTheDocument();
    const table = await screen.findByTestId('common-table');
    expect(within(table).getByText('Registered')).toBeInTheDocument();
    expect(
      within(table).getByTestId('common-row-31').querySelector('[data-stat="meanScore"]'),
    ).toHaveTextContent('14.57');
    expect(within(screen.getByTestId('marks-chart-31')).getByRole('img')).toHaveAccessibleName(/Mark “5”: 1/);
    expect(screen.getByTestId('common-xlsx')).toHaveTextContent('Download Excel');
  });
});
