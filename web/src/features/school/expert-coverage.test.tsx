import { configure, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp } from '../../test/test-app';

// A page's first render (its lazy route chunks) takes seconds on a busy machine: wait for it.
configure({ asyncUtilTimeout: 15_000 });

/* The coordinator's diagnostic page warns when its expert-graded tasks have too few experts. */

const coordinator = { id: 3, login: 'coordinator', displayName: 'Петрова Анна', roles: ['coordinator'] };
const diagnostic = {
  id: 5,
  code: 'D-2026-0005',
  name: 'Русский язык 9',
  kind: 'diagnostic',
  startsAt: '2026-04-10T06:00:00Z',
  endsAt: '2026-04-12T15:00:00Z',
  parallels: [9],
  status: 'planned',
  resultsPublished: false,
  subjectTests: [{ id: 31, name: 'Русский язык, 9 класс', parallels: [9] }],
  participantCount: 0,
};
const coverage = (over: object = {}) => ({
  subjectTestId: 31,
  subjectTestName: 'Русский язык, 9 класс',
  subjectName: 'Русский язык',
  expertTaskPositions: [12],
  experts: 1,
  grades: [{ grade: 9, experts: 1 }],
  waitingAnswers: 0,
  ...over,
});

function server(items: object[]) {
  return fakeServer({
    'GET /api/user': () => json(200, coordinator),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'POST /api/coordinator/diagnostic/list': () => json(200, { items: [diagnostic], total: 1 }),
    'POST /api/coordinator/class/list': () => json(200, { items: [], total: 0 }),
    'POST /api/coordinator/participantTest/list': () => json(200, { items: [], total: 0 }),
    'GET /api/expert/coverage': () => json(200, { items }),
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('the coordinator’s diagnostic page', { timeout: 90_000 }, () => {
  it('names the subject test with too few experts and says to ask the admin', async () => {
    const api = server([coverage()]);
    renderApp('/coordinator/diagnostics/5');
    const warning = await screen.findByTestId('expert-coverage-warning');
    expect(warning).toHaveTextContent(
      'Задание 12 теста «Русский язык, 9 класс» (Русский язык) может проверить только один эксперт',
    );
    expect(warning).toHaveTextContent('Экспертов назначает администратор');
    expect(warning.querySelector('a')).toBeNull();
    expect(
      new URL(api.callsTo('GET /api/expert/coverage')[0]!.url, 'http://x').searchParams.get('diagnosticId'),
    ).toBe('5');
  });

  it('says nothing while the experts suffice', async () => {
    const api = server([coverage({ experts: 2 })]);
    renderApp('/coordinator/diagnostics/5');
    await screen.findByTestId('coordinator-participants-title');
    await waitFor(() => expect(api.callsTo('GET /api/expert/coverage')).toHaveLength(1));
    expect(screen.queryByTestId('expert-coverage-warning')).toBeNull();
  });
});
