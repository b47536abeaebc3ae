import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json } from '../../test/test-app';
import { lastQuery, people, pick, renderReports, reportsServer, specification } from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('reports: the specification tab', { timeout: 20_000 }, () => {
  it('shows the element tree against schools or classes as a heat map of mastery', async () => {
    const api = reportsServer(people.admin);
    await renderReports('/admin/reports?tab=specification&subjectTestId=31');
    const map = await screen.findByTestId('specification-heatmap');
    expect(
      within(map).getByText(/Освоение элементов спецификации «Кодификатор математики 7»/),
    ).toBeInTheDocument();
    expect(
      within(map)
        .getAllByTestId('heat-column')
        .map((th) => th.firstElementChild!.textContent),
    ).toEqual(['Всего', 'Школа № 1', 'Школа № 2']);
    const rows = within(map).getAllByTestId('heat-row');
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      '1 Числа и вычисления',
      '1.1 Дроби',
      '2 Геометрия',
    ]);
    const cells = (row: HTMLElement) =>
      [...row.querySelectorAll('td')].map((c) => c.textContent!.replace(/\u00a0/g, ' '));
    expect(cells(rows[0]!)).toEqual(['66,7 %', '80 %', '33,3 %']);
    expect(cells(rows[2]!)).toEqual(['—', '—', '—']);
    const low = rows[0]!.querySelectorAll('td')[2]!;
    const high = rows[1]!.querySelectorAll('td')[1]!;
    expect(low).toHaveAttribute('title', '2 / 6');
    // Red through yellow to green: a third is orange, all of it green.
    expect(low).toHaveStyle({ background: 'hsl(40 70% 84%)' });
    expect(high).toHaveStyle({ background: 'hsl(120 70% 84%)' });
    expect(low).not.toHaveStyle({ background: 'hsl(120 70% 84%)' });
    expect(rows[2]!.querySelector('td')).toHaveAttribute('title', 'нет заданий');

    await userEvent.click(screen.getByText('По классам'));
    await waitFor(() =>
      expect(
        within(screen.getByTestId('specification-heatmap'))
          .getAllByTestId('heat-column')
          .map((th) => th.firstElementChild!.textContent),
      ).toEqual(['Всего', '7 «А» (Школа № 1)']),
    );

    expect(lastQuery(api.callsTo('GET /api/reports/specification'))).toEqual({ subjectTestId: '31' });
    await pick('Спецификация', 'Кодификатор русского языка 7 (Русский язык)');
    await waitFor(() =>
      expect(lastQuery(api.callsTo('GET /api/reports/specification'))).toEqual({
        subjectTestId: '31',
        specId: '62',
      }),
    );
    expect(screen.getByTestId('specification-xlsx')).toHaveAttribute(
      'href',
      '/api/reports/specification?subjectTestId=31&specId=62&format=xlsx',
    );
  });

  it('asks for a specification when neither the test nor the diagnostic has one', async () => {
    reportsServer(people.coordinator, {
      'GET /api/reports/specification': ({ url }) =>
        url.includes('specId') ? json(200, specification) : apiError(400, 'validation_failed'),
    });
    await renderReports('/coordinator/reports?tab=specification');
    expect(await screen.findByTestId('specification-none')).toHaveTextContent(
      'У теста и диагностики нет спецификации: выберите её.',
    );
    await pick('Спецификация', 'Кодификатор математики 7 (Математика)');
    expect(await screen.findByTestId('specification-heatmap')).toBeInTheDocument();
  });
});
