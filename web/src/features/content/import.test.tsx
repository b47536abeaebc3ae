import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, renderApp } from '../../test/test-app';
import { contentServer, pick, subjectTest } from './test/fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const gift = () => new File(['::q1:: 2+2 = {=4 ~3}'], 'quiz.gift', { type: 'text/plain' });

const done = {
  status: 'done',
  items: [
    {
      sourceId: 'q1',
      title: 'Сложение',
      taskId: 51,
      answerType: 'single_choice',
      outcome: 'imported',
      notes: [],
    },
    {
      sourceId: 'q2',
      title: 'Карта',
      taskId: 52,
      answerType: 'short_text',
      outcome: 'converted',
      notes: ['the feedback of answers was dropped'],
    },
    {
      sourceId: 'q3',
      title: 'Чертёж',
      taskId: null,
      answerType: null,
      outcome: 'refused',
      notes: ['drawing questions are not supported'],
    },
  ],
  subjectTestIds: [12],
};

describe('content import', { timeout: 30_000 }, () => {
  it('uploads a file with a subject, follows the import until done and shows the report in words', async () => {
    const states = [
      { status: 'queued', items: [], subjectTestIds: [] },
      { status: 'running', items: [], subjectTestIds: [] },
      done,
    ];
    const api = contentServer({
      'POST /api/admin/content/import': () => json(202, { importId: 77 }),
      'GET /api/admin/content/import/77': () => json(200, states.length > 1 ? states.shift() : states[0]),
      'GET /api/admin/content/subjectTests/12': () => json(200, subjectTest(12, { name: 'Тест из файла' })),
    });
    const { router } = renderApp('/admin/content/import');
    await screen.findByTestId('import-file');
    await userEvent.upload(fileInput(), gift());
    await pick(document.body, 'Предмет', 'Математика (MATH)');
    await userEvent.click(screen.getByTestId('import-start'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/content/import/77'));

    const form = api.callsTo('POST /api/admin/content/import')[0]!.body as FormData;
    expect([...form.keys()]).toEqual(['subjectId', 'file']);
    expect(form.get('subjectId')).toBe('1');
    expect((form.get('file') as File).name).toBe('quiz.gift');

    expect(await screen.findByTestId('import-progress')).toBeInTheDocument();
    const report = await screen.findByTestId('import-done', {}, { timeout: 6000 });
    expect(
      within(report).getByText('Загружено как есть: 1, с изменениями: 1, не загружено: 1'),
    ).toBeInTheDocument();
    expect(within(report).getByTestId('import-outcome-q1')).toHaveTextContent('Загружено');
    expect(within(report).getByTestId('import-outcome-q2')).toHaveTextContent('Загружено с изменениями');
    expect(within(report).getByTestId('import-outcome-q3')).toHaveTextContent('Не загружено');
    expect(within(report).getByText('Выбор одного ответа')).toBeInTheDocument();
    expect(within(report).getByText('Краткий ответ')).toBeInTheDocument();
    expect(within(report).getByText('drawing questions are not supported')).toBeInTheDocument();
    expect(report).not.toHaveTextContent('single_choice');
    expect(within(report).getByTestId('import-task-51')).toHaveAttribute('href', '/admin/content/tasks/51');
    expect(await within(report).findByRole('link', { name: 'Тест из файла' })).toHaveAttribute(
      'href',
      '/admin/content/tests/12',
    );
    // Done: no more polling.
    const polls = api.callsTo('GET /api/admin/content/import/77').length;
    await new Promise((r) => setTimeout(r, 1300));
    expect(api.callsTo('GET /api/admin/content/import/77')).toHaveLength(polls);
  });

  it('a failed import is said by its code and creates nothing', async () => {
    contentServer({
      'GET /api/admin/content/import/78': () =>
        json(200, {
          status: 'failed',
          error: { code: 'package_unsafe', message: 'entry ../../etc/passwd escapes the package' },
          items: [],
          subjectTestIds: [],
        }),
    });
    renderApp('/admin/content/import/78');
    const failed = await screen.findByTestId('import-failed');
    expect(failed).toHaveTextContent('Ничего не создано.');
    expect(failed).not.toHaveTextContent('passwd');
    expect(failed).not.toHaveTextContent('package_unsafe');
  });

  it('refuses a file of another kind before sending; a refusal of the server is said by its code', async () => {
    const api = contentServer({
      'POST /api/admin/content/import': () => apiError(415, 'unsupported_format', 'Send a QTI package'),
    });
    renderApp('/admin/content/import');
    await screen.findByTestId('import-file');
    await userEvent.click(screen.getByTestId('import-start'));
    expect(await screen.findByText('Выберите файл')).toBeInTheDocument();
    // The file dialog offers only the kinds it reads; a file dropped on it may be any.
    await userEvent.setup({ applyAccept: false }).upload(fileInput(), new File(['x'], 'notes.docx'));
    await userEvent.click(screen.getByTestId('import-start'));
    expect(
      await screen.findByText('Этот вид файла не загружается: нужен .zip, .xml, .gift или .txt'),
    ).toBeInTheDocument();
    expect(api.callsTo('POST /api/admin/content/import')).toHaveLength(0);

    await userEvent.upload(fileInput(), gift());
    await userEvent.click(screen.getByTestId('import-start'));
    const error = await screen.findByTestId('import-error');
    expect(error).not.toHaveTextContent('Send a QTI package');
    expect(error.textContent).not.toBe('');
  });
});
