import { configure, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp } from '../../test/test-app';

// A page's first render (its lazy route chunks) takes seconds on a busy machine: wait for it.
configure({ asyncUtilTimeout: 15_000 });

/* The ugnik's diagnostic page warns when its expert-graded tasks have too few experts. */

const ugnik = { id: 5, login: 'ugnik', displayName: 'Сидоров Сергей', roles: ['ugnik'] };
const diagnostic = {
  id: 7,
  code: 'I-2026-ABC123',
  name: 'Проверка русского языка',
  kind: 'inspection',
  startsAt: '2026-03-01T06:00:00.000Z',
  endsAt: '2026-03-05T15:00:00.000Z',
  parallels: [9],
  createdBy: 5,
  participantCount: 0,
  examWorkCount: 1,
  resultsPublished: false,
  createdAt: '2026-02-01T10:00:00.000Z',
  subjectTestCount: 1,
  schoolCount: 0,
  subjectTests: [{ id: 4, name: 'Русский язык 9' }],
  schools: [],
};

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('the ugnik’s diagnostic page', { timeout: 90_000 }, () => {
  it('names the subject test no expert can grade, in words', async () => {
    fakeServer({
      'GET /api/user': () => json(200, ugnik),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'GET /api/ugnik/diagnostic/7': () => json(200, diagnostic),
      'POST /api/ugnik/participantTest/list': () => json(200, { items: [], total: 0 }),
      'GET /api/expert/coverage': () =>
        json(200, {
          items: [
            {
              subjectTestId: 4,
              subjectTestName: 'Русский язык 9',
              subjectName: 'Русский язык',
              expertTaskPositions: [11, 12],
              experts: 0,
              grades: [
                { grade: 8, experts: 2 },
                { grade: 9, experts: 0 },
              ],
              waitingAnswers: 0,
            },
          ],
        }),
    });
    renderApp('/ugnik/diagnostics/7');
    const warning = await screen.findByTestId('expert-coverage-warning');
    expect(warning).toHaveTextContent(
      'Задания 11, 12 теста «Русский язык 9» (Русский язык) проверяют эксперты, но ни один эксперт не может их проверить.',
    );
    expect(warning).toHaveTextContent('Экспертов меньше двух в классах: 9 класс (0).');
    expect(warning).toHaveTextContent('Экспертов назначает администратор');
  });
});
