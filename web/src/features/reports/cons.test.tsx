import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError } from '../../test/test-app';
import { cons, lastQuery, people, pick, renderReports, reportsServer } from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('reports: the consolidated tab', { timeout: 20_000 }, () => {
  it('shows the total, each school and its classes, sorts on the server and charts marks by school', async () => {
    const api = reportsServer(people.admin);
    const { router } = await renderReports('/admin/reports?tab=cons');
    const table = await screen.findByTestId('cons-table');
    const total = within(table).getByTestId('cons-total');
    expect(within(total).getByRole('rowheader')).toHaveTextContent('Итого');
    expect(total.querySelector('[data-stat="registered"]')).toHaveTextContent('12');
    expect(total.querySelector('[data-stat="meanPercent"]')).toHaveTextContent(/^72,86\s%$/);
    expect(total.querySelector('[data-mark="4"]')).toHaveTextContent('3');
    const schools = within(table).getAllByTestId('cons-school');
    expect(schools.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'Школа № 1',
      'Школа № 2',
    ]);
    const classes = within(table).getAllByTestId('cons-class');
    expect(classes.map((r) => r.firstElementChild!.textContent)).toEqual(['7 «А»', '7 «Б»', '7 «В»']);
    expect(classes[0]!.querySelector('[data-stat="meanScore"]')).toHaveTextContent('16');

    const chart = screen.getByTestId('cons-chart-31');
    expect(within(chart).getByText('Отметки по школам: Математика, 7 класс')).toBeInTheDocument();
    expect(within(chart).getByRole('img')).toHaveAccessibleName(
      /Школа № 1 — «2» 0, «3» 1, «4» 3, «5» 1; Школа № 2 — «2» 1, «3» 1, «4» 0, «5» 0/,
    );

    expect(lastQuery(api.callsTo('GET /api/reports/cons'))).toEqual({ sort: 'name', dir: 'asc' });
    await userEvent.click(within(table).getByTestId('cons-sort-meanPercent'));
    await waitFor(() =>
      expect(lastQuery(api.callsTo('GET /api/reports/cons'))).toEqual({ sort: 'meanPercent', dir: 'asc' }),
    );
    await userEvent.click(
      within(await screen.findByTestId('cons-table')).getByTestId('cons-sort-meanPercent'),
    );
    await waitFor(() =>
      expect(lastQuery(api.callsTo('GET /api/reports/cons'))).toEqual({ sort: 'meanPercent', dir: 'desc' }),
    );
    expect(router.state.location.search).toContain('sort=meanPercent');
    expect(screen.getByTestId('cons-xlsx').getAttribute('href')).toBe(
      '/api/reports/cons?sort=meanPercent&dir=desc&format=xlsx',
    );
    expect(
      within(screen.getByTestId('cons-table')).getByTestId('cons-sort-meanPercent').closest('th'),
    ).toHaveAttribute('aria-sort', 'descending');
  });

  it('lets the admin pick a school of the chosen diagnostic and a class of that school', async () => {
    const api = reportsServer(people.admin);
    await renderReports('/admin/reports?tab=cons');
    await screen.findByTestId('cons-table');
    // Without a class picker's school, the class picker waits for one.
    expect(screen.getByRole('combobox', { name: 'Класс', hidden: true })).toBeDisabled();
    await pick('Диагностика', /Демонстрационная диагностика \(DEMO-2026\)/);
    await pick('Школа', 'Школа № 1 (S101)');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Класс', hidden: true })).toBeEnabled());
    await pick('Класс', '7 «А»');
    await waitFor(() =>
      expect(lastQuery(api.callsTo('GET /api/reports/cons'))).toEqual({
        diagnosticId: '5',
        schoolId: '101',
        classId: '11',
        sort: 'name',
        dir: 'asc',
      }),
    );
    // The schools came from the diagnostic's card, not from a search of every school.
    expect(api.callsTo('GET /api/admin/diagnostics/5').length).toBeGreaterThan(0);
  });

  it('charts one school by its classes and names the coordinator’s total', async () => {
    const one = { ...cons, items: [{ ...cons.items[0]!, schools: [cons.items[0]!.schools[0]!] }] };
    reportsServer(people.coordinator, {
      'GET /api/reports/cons': () =>
        new Response(JSON.stringify(one), { headers: { 'content-type': 'application/json' } }),
    });
    await renderReports('/coordinator/reports?tab=cons');
    const table = await screen.findByTestId('cons-table');
    expect(within(table).getByTestId('cons-total')).toHaveTextContent('Итого по школе');
    const chart = screen.getByTestId('cons-chart-31');
    expect(within(chart).getByText('Отметки по классам: Математика, 7 класс')).toBeInTheDocument();
    expect(within(chart).getByRole('img')).toHaveAccessibleName(/7 «А» — «2» 0, «3» 0, «4» 2, «5» 1/);
  });

  it('says a school outside the scope is not available, by the answer’s status', async () => {
    reportsServer(people.ugnik, { 'GET /api/reports/cons': () => apiError(403, 'forbidden') });
    await renderReports('/ugnik/reports?tab=cons&schoolId=101');
    expect(await screen.findByTestId('report-error')).toHaveTextContent(
      'Этот отчёт вам недоступен: выбранная диагностика, школа или класс вне ваших прав.',
    );
  });
});
