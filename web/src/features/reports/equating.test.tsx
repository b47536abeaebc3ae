import type { Equating } from '@attesta/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json } from '../../test/test-app';
import { people, renderReports, reportsServer } from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const tables = {
  method: 'irt_true_score' as const,
  model: 'rasch_dichotomous' as const,
  referenceVariantId: 701,
  referenceNumber: 1,
  scaleMin: 0,
  scaleMax: 2,
  step: 1,
  variants: [
    {
      variantId: 701,
      number: 1,
      participants: 40,
      maxScore: 2,
      status: 'reference' as const,
      rows: [
        { primary: 0, theta: null, scaled: 0, csem: 0.4 },
        { primary: 1, theta: 0, scaled: 1, csem: 0.5 },
        { primary: 2, theta: null, scaled: 2, csem: 0.4 },
      ],
    },
    {
      variantId: 702,
      number: 2,
      participants: 38,
      maxScore: 2,
      status: 'common_items' as const,
      rows: [
        { primary: 0, theta: null, scaled: 0, csem: 0.4 },
        { primary: 1, theta: 0.6, scaled: 1.26, csem: 0.5 },
        { primary: 2, theta: null, scaled: 2, csem: 0.4 },
      ],
    },
    { variantId: 703, number: 3, participants: 2, maxScore: 2, status: 'not_linked' as const, rows: [] },
  ],
};
const proposedOnly: Equating = {
  subjectTestId: 31,
  diagnosticId: 5,
  proposed: tables,
  unavailable: null,
  adopted: null,
};
const adopted: Equating = {
  ...proposedOnly,
  adopted: {
    id: 9,
    version: 1,
    adoptedAt: '2026-12-03T10:00:00.000Z',
    adoptedBy: 'Орлов С. М.',
    tables,
    cutScores: { basic: 0.5, advanced: 1.2, high: 1.8 },
    levels: [
      { level: 'below_basic', participants: 10, share: 0.125 },
      { level: 'basic', participants: 30, share: 0.375 },
      { level: 'advanced', participants: 20, share: 0.25 },
      { level: 'high', participants: 20, share: 0.25 },
    ],
  },
};

describe('reports: the score conversion tab', { timeout: 20_000 }, () => {
  it('shows the proposed tables in words; the admin adopts them', async () => {
    const api = reportsServer(people.admin, {
      'GET /api/reports/equating': () => json(200, proposedOnly),
      'POST /api/reports/equating/adopt': () => json(200, adopted),
    });
    await renderReports('/admin/reports?tab=equating&diagnosticId=5&subjectTestId=31');
    expect(await screen.findByTestId('equating-not-adopted')).toBeInTheDocument();
    const second = screen.getByTestId('equating-variant-2');
    expect(second).toHaveTextContent('Вариант 2');
    expect(second).toHaveTextContent('связан общими заданиями');
    expect(second.textContent).toContain('1,3');
    expect(screen.getByTestId('equating-variant-3')).toHaveTextContent('нет общих заданий');
    expect(screen.getByTestId('equating')).not.toHaveTextContent('not_linked');
    fireEvent.click(screen.getByTestId('equating-adopt'));
    const box = await screen.findByTestId('equating-adopted');
    expect(api.callsTo('POST /api/reports/equating/adopt')).toHaveLength(1);
    expect(box).toHaveTextContent('версия 1');
    const levels = within(screen.getByTestId('equating-levels'));
    expect(levels.getByText('Ниже базового')).toBeInTheDocument();
    expect(levels.getByText('Повышенный')).toBeInTheDocument();
  });

  it('a refused cut score is explained by its code', async () => {
    reportsServer(people.admin, {
      'GET /api/reports/equating': () => json(200, adopted),
      'PUT /api/reports/equating/cutScores': () =>
        apiError(400, 'cut_scores_invalid', 'Cut scores must rise'),
    });
    await renderReports('/admin/reports?tab=equating&diagnosticId=5&subjectTestId=31');
    fireEvent.click(await screen.findByTestId('equating-save-cuts'));
    await waitFor(() =>
      expect(screen.getByTestId('equating-cuts-error')).toHaveTextContent('Пороги уровней должны возрастать'),
    );
  });

  it('an ugnik reads without the buttons; a coordinator has no such tab', async () => {
    reportsServer(people.ugnik, { 'GET /api/reports/equating': () => json(200, adopted) });
    const view = await renderReports('/ugnik/reports?tab=equating&diagnosticId=5&subjectTestId=31');
    expect(await screen.findByTestId('equating-adopted')).toBeInTheDocument();
    expect(screen.queryByTestId('equating-adopt')).toBeNull();
    expect(screen.queryByTestId('equating-save-cuts')).toBeNull();
    view.unmount();
    reportsServer(people.coordinator);
    await renderReports('/coordinator/reports');
    expect(screen.queryByTestId('report-tab-equating')).toBeNull();
  });
});
