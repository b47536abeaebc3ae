import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp, users } from '../../test/test-app';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const item = (id: number, extra: object) => ({
  id,
  type: 'planning',
  status: 'failed',
  diagnosticId: 5,
  diagnosticCode: 'D-2026-0005',
  diagnosticName: 'Математика 7',
  params: { date: '2026-04-10' },
  progress: 0,
  progressText: null,
  result: null,
  resultFileId: null,
  error: null,
  errorCode: null,
  attempts: 3,
  maxAttempts: 3,
  runAfter: '2026-04-01T08:00:00.000Z',
  createdBy: 2,
  createdAt: '2026-04-01T08:00:00.000Z',
  startedAt: '2026-04-01T08:00:01.000Z',
  finishedAt: '2026-04-01T08:00:02.000Z',
  ...extra,
});

describe('coordinator queue page', () => {
  it('says why an item failed by its code, in Russian, never the server’s text', async () => {
    fakeServer({
      'GET /api/user': () => json(200, users.coordinator),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'POST /api/ParticipantTest/queuelist': () =>
        json(200, {
          items: [
            item(1, { error: 'relation "participant_tests" does not exist', errorCode: 'job_failed' }),
            item(2, {
              error: 'The worker running this job stopped responding',
              errorCode: 'job_interrupted',
            }),
            item(3, { error: 'The diagnostic no longer exists', errorCode: 'not_found' }),
            item(4, { status: 'done', progress: 100, result: { created: 3, existing: 0, schools: 1 } }),
          ],
          total: 4,
        }),
    });
    renderApp('/coordinator/queue');
    const table = await screen.findByTestId('queue');
    expect(await within(table).findByTestId('queue-error-1')).toHaveTextContent(
      'При выполнении задания на сервере произошла ошибка.',
    );
    expect(within(table).getByTestId('queue-error-2')).toHaveTextContent('Задание прервано');
    expect(within(table).getByTestId('queue-error-3')).toHaveTextContent('Запись не найдена');
    expect(within(table).queryByTestId('queue-error-4')).toBeNull();
    expect(table).not.toHaveTextContent('relation');
    expect(table).not.toHaveTextContent('stopped responding');
    expect(table).not.toHaveTextContent('no longer exists');
  });

  it('writes a finished item’s result and progress as sentences, never the raw object', async () => {
    fakeServer({
      'GET /api/user': () => json(200, users.coordinator),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'POST /api/ParticipantTest/queuelist': () =>
        json(200, {
          items: [
            item(1, { status: 'done', progress: 100, result: { created: 3, existing: 2, schools: 1 } }),
            item(2, {
              type: 'result',
              status: 'done',
              progress: 100,
              result: { works: 4, scored: 3, awaitingExperts: 1, failed: 0 },
            }),
            item(3, { type: 'import', status: 'running', progress: 40, progressText: 'checking' }),
            item(4, { type: 'report', status: 'running', progress: 4, progressText: 'rows:12000:300000' }),
          ],
          total: 4,
        }),
    });
    renderApp('/coordinator/queue');
    const table = await screen.findByTestId('queue');
    expect(await within(table).findByTestId('queue-result-1')).toHaveTextContent(
      'Зарегистрировано: 3, уже были: 2, школ: 1.',
    );
    expect(within(table).getByTestId('queue-result-2')).toHaveTextContent(
      'Работ: 4, проверено: 3, ждут экспертов: 1, с ошибкой: 0.',
    );
    expect(table).toHaveTextContent('40% · Проверка');
    // A report's rows in words and the Russian number format (no-break spaces), never the code.
    expect(table).toHaveTextContent(/4% · Строк: 12\s000 из 300\s000/);
    expect(table).not.toHaveTextContent('rows:');
    expect(table).not.toHaveTextContent('created');
    expect(table).not.toHaveTextContent('awaitingExperts');
    expect(table).not.toHaveTextContent('checking');
  });
});
