import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError } from '../../test/test-app';
import { fileAnswer, lastQuery, people, renderReports, reportsServer } from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('reports: the admin’s exports', { timeout: 20_000 }, () => {
  it('offers Attesta and MRKO files with every filter but the class', async () => {
    const createObjectURL = vi.fn(() => 'blob:export');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const api = reportsServer(people.admin, {
      'GET /api/reports/mrko': () => fileAnswer('mrko.csv'),
      'GET /api/reports/attesta': () => apiError(400, 'invalid_date'),
    });
    await renderReports(
      '/admin/reports?tab=exports&diagnosticId=5&schoolId=101&classId=11&startDate=2026-04-01',
    );
    const attesta = await screen.findByTestId('export-attesta');
    expect(attesta).toHaveTextContent('Результаты для Аттесты');
    expect(within(attesta).getByTestId('attesta-csv')).toHaveAttribute(
      'href',
      '/api/reports/attesta?diagnosticId=5&schoolId=101&startDate=2026-04-01&format=csv',
    );
    expect(within(attesta).getByTestId('attesta-xlsx')).toHaveTextContent('Скачать Excel');
    expect(screen.getByTestId('exports-note')).toHaveTextContent('только опубликованные результаты');

    await userEvent.click(screen.getByTestId('mrko-csv'));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(lastQuery(api.callsTo('GET /api/reports/mrko'))).toEqual({
      diagnosticId: '5',
      schoolId: '101',
      startDate: '2026-04-01',
      format: 'csv',
    });
    await userEvent.click(screen.getByTestId('attesta-xlsx'));
    expect(await screen.findByTestId('attesta-xlsx-error')).toHaveTextContent(
      'Не удалось скачать файл: Неверная дата.',
    );
  });

  it('is the admin’s only', async () => {
    reportsServer(people.coordinator);
    await renderReports('/coordinator/reports?tab=exports');
    expect(await screen.findByTestId('common-table')).toBeInTheDocument();
    expect(screen.queryByTestId('report-tab-exports')).not.toBeInTheDocument();
  });
});
