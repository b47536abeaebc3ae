import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pick } from '../../test/pick';
import { fakeServer, json, renderApp } from '../../test/test-app';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const admin = { id: 1, login: 'admin', displayName: 'Администратор Платформы', roles: ['admin'] };

const diagnostic = {
  id: 5,
  code: 'D-2026-0005',
  name: 'Математика 7',
  kind: 'diagnostic',
  createdByRole: 'admin',
  createdByLogin: 'admin',
  startsAt: '2026-04-01T06:00:00.000Z',
  endsAt: '2026-04-01T12:00:00.000Z',
  parallels: [7],
  status: 'planned',
  resultsPublished: false,
  publishedAt: null,
  subjectTests: [],
  schoolCount: 1,
  participantTestCount: 0,
  finishedWorkCount: 0,
};

const item = (id: number, extra: object) => ({
  id,
  type: 'result',
  status: 'failed',
  diagnosticId: 5,
  diagnosticCode: 'D-2026-0005',
  diagnosticName: 'Математика 7',
  params: {},
  progress: 0,
  progressText: null,
  result: null,
  resultFileId: null,
  error: null,
  errorCode: null,
  attempts: 1,
  maxAttempts: 3,
  runAfter: '2026-04-01T08:00:00.000Z',
  createdBy: 1,
  createdAt: '2026-04-01T08:00:00.000Z',
  startedAt: '2026-04-01T08:00:01.000Z',
  finishedAt: null,
  ...extra,
});

describe('admin queue page', () => {
  it('says why an item failed by its code, in Russian, never the server’s text', async () => {
    fakeServer({
      'GET /api/user': () => json(200, admin),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'POST /api/ParticipantTest/queuelist': () =>
        json(200, {
          items: [
            item(1, {
              status: 'queued',
              error: 'The job failed; the server log has the details',
              errorCode: 'job_failed',
            }),
            item(2, { error: 'The work is not finished', errorCode: 'work_not_finished' }),
            item(3, { status: 'done', progress: 100, result: { works: 1 } }),
          ],
          total: 3,
        }),
    });
    renderApp('/admin/queue');
    const table = await screen.findByTestId('queue-table');
    expect(await within(table).findByTestId('queue-error-1')).toHaveTextContent(
      'При выполнении задания на сервере произошла ошибка.',
    );
    expect(within(table).getByTestId('queue-error-2')).toHaveTextContent('Работа ещё не завершена');
    expect(within(table).queryByTestId('queue-error-3')).toBeNull();
    expect(table).not.toHaveTextContent('server log');
    expect(table).not.toHaveTextContent('not finished');
  });

  it('writes results as sentences and filters by a diagnostic chosen by name, never by a typed id', async () => {
    const server = fakeServer({
      'GET /api/user': () => json(200, admin),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'POST /api/admin/diagnostics/list': () =>
        json(200, {
          items: [
            { ...diagnostic, id: 5 },
            { ...diagnostic, id: 6, code: 'D-6', name: 'Русский язык 5' },
          ],
          total: 2,
        }),
      'POST /api/ParticipantTest/queuelist': () =>
        json(200, {
          items: [
            item(3, { type: 'regrade', status: 'done', progress: 100, result: { works: 7, changed: 2 } }),
            item(4, {
              type: 'report',
              status: 'done',
              progress: 100,
              result: { report: 'detailed', format: 'xlsx', rows: 120, fileName: 'x.xlsx' },
            }),
            item(7, { type: 'scan-apply', status: 'queued', progress: 0 }),
          ],
          total: 3,
        }),
    });
    renderApp('/admin/queue');
    const table = await screen.findByTestId('queue-table');
    expect(await within(table).findByTestId('queue-result-3')).toHaveTextContent('Работ: 7, изменилось: 2.');
    expect(within(table).getByTestId('queue-result-4')).toHaveTextContent('Строк в файле: 120.');
    expect(table).not.toHaveTextContent('{');
    expect(table).not.toHaveTextContent('changed');
    // Saving a finished work's scanned pages is a job of its own, named in words.
    expect(table).toHaveTextContent('Ответы со сканов');
    expect(table).not.toHaveTextContent('scan-apply');
    expect(screen.queryByRole('textbox', { name: /ID/ })).toBeNull();
    expect(within(table).queryByRole('columnheader', { name: /^ID/ })).toBeNull();
    await pick(screen.getByRole('search'), 'Диагностика', 'Русский язык 5 (D-6)');
    await waitFor(() => {
      const body = server.callsTo('POST /api/ParticipantTest/queuelist').at(-1)?.body as {
        filter?: { diagnosticId?: number };
      };
      expect(body.filter?.diagnosticId).toBe(6);
    });
  });
});
