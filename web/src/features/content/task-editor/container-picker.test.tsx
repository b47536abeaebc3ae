import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../../lib/i18n';
import { createQueryClient } from '../../../lib/query-client';
import { AppProviders, fakeServer, json, type Handler } from '../../../test/test-app';
import { TaskEditorPage } from './index';

// The task editor's container picker: a task is attached to an html container (or detached), and
// its preview answers in the container's sandboxed frame, scored like any answer.

beforeAll(async () => {
  configure({ asyncUtilTimeout: 5000 });
  await import('./components/task-editor-page');
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
    });
  const rect = { x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON: () => ({}) };
  Range.prototype.getBoundingClientRect ??= () => rect as DOMRect;
  Range.prototype.getClientRects ??= () => [] as unknown as DOMRectList;
  document.elementFromPoint ??= () => null;
});
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const TASKS = '/api/admin/content/tasks';
const at = '2026-03-01T10:00:00.000Z';

const task = (extra: Record<string, unknown> = {}) => ({
  id: 42,
  answerType: 'digit_sequence',
  html: '<p>Зажгите лампочки числа 6.</p>',
  content: { length: 4 },
  reference: { digits: '0110' },
  scoring: { method: 'all_or_nothing', anyOrder: false },
  maxScore: 1,
  solutionHtml: null,
  criteria: null,
  htmlContainerId: null,
  subjectId: 7,
  category: null,
  title: null,
  sourceId: null,
  sourceFormat: null,
  version: 1,
  previousVersionId: null,
  supersededAt: null,
  elementIds: [],
  files: [],
  usedByWorks: false,
  createdAt: at,
  updatedAt: null,
  ...extra,
});

const container = (id: number, name: string, currentVersion = 1) => ({
  id,
  name,
  currentVersion,
  entry: 'index.html',
  createdAt: at,
  taskCount: 0,
  versions: [{ version: currentVersion, entry: 'index.html', fileCount: 3, totalBytes: 100, createdAt: at }],
});

function server(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/admin/content/specifications': () => json(200, []),
    'GET /api/admin/content/containers': () =>
      json(200, [container(5, 'Двоичные лампочки', 2), container(6, 'Весы')]),
    ...extra,
  });
}

function renderEditor(taskId: number) {
  return render(
    <AppProviders queryClient={createQueryClient()} i18n={createI18n('ru')}>
      <MemoryRouter>
        <TaskEditorPage taskId={taskId} />
      </MemoryRouter>
    </AppProviders>,
  );
}

async function pick(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, option: string) {
  await user.click(input);
  const listbox = await waitFor(() => document.getElementById(input.getAttribute('aria-controls') ?? '')!);
  await user.click(await within(listbox).findByRole('option', { name: option, hidden: true }));
}

describe('the task’s html container', { timeout: 60_000 }, () => {
  it('is chosen in the editor and sent with the task; «none» sends no container', async () => {
    const user = userEvent.setup();
    const api = server({
      [`GET ${TASKS}/42`]: () => json(200, task()),
      [`PUT ${TASKS}/42`]: ({ body }) => json(200, task(body as Record<string, unknown>)),
    });
    renderEditor(42);
    const picker = (await screen.findByTestId('task-container')) as HTMLInputElement;
    expect(picker).toHaveValue('Без контейнера');
    await pick(user, picker, 'Двоичные лампочки (версия 2)');
    await user.click(screen.getByTestId('save-task'));
    await waitFor(() => expect(api.callsTo(`PUT ${TASKS}/42`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${TASKS}/42`)[0]!.body).toMatchObject({ htmlContainerId: 5 });

    await pick(user, picker, 'Без контейнера');
    await user.click(screen.getByTestId('save-task'));
    await waitFor(() => expect(api.callsTo(`PUT ${TASKS}/42`)).toHaveLength(2));
    expect(api.callsTo(`PUT ${TASKS}/42`)[1]!.body).not.toHaveProperty('htmlContainerId');
  });

  it('keeps the container of a task when other fields are saved', async () => {
    const user = userEvent.setup();
    const api = server({
      [`GET ${TASKS}/42`]: () => json(200, task({ htmlContainerId: 6 })),
      [`PUT ${TASKS}/42`]: ({ body }) => json(200, task(body as Record<string, unknown>)),
    });
    renderEditor(42);
    const picker = await screen.findByTestId('task-container');
    // Named by its id until the list comes, then by its name.
    await waitFor(() => expect(picker).toHaveValue('Весы (версия 1)'));
    await user.click(screen.getByTestId('save-task'));
    await waitFor(() => expect(api.callsTo(`PUT ${TASKS}/42`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${TASKS}/42`)[0]!.body).toMatchObject({ htmlContainerId: 6 });
  });

  it('previews the task in the container’s sandboxed frame and scores the answer it gives', async () => {
    const user = userEvent.setup();
    const api = server({
      [`GET ${TASKS}/42`]: () => json(200, task({ htmlContainerId: 5 })),
      'GET /api/admin/content/containers/5/preview': () =>
        json(200, {
          containerId: 5,
          name: 'Двоичные лампочки',
          version: 2,
          entry: 'index.html',
          resources: ['index.html'],
          url: '/api/kim/htmlContainer/5/2/index?sig=1.0.99.abc',
          urlExpiresAt: at,
        }),
      [`POST ${TASKS}/42/score`]: ({ body }) =>
        json(200, {
          score: (body as { value: string }).value === '0110' ? 1 : 0,
          maxScore: 1,
          status: 'scored',
          correct: (body as { value: string }).value === '0110',
        }),
    });
    renderEditor(42);
    await user.click(await screen.findByRole('tab', { name: 'Предпросмотр' }));
    const preview = await screen.findByTestId('task-preview');
    const frame = (await within(preview).findByTestId('html-container-frame')) as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(frame.getAttribute('src')).toBe('/api/kim/htmlContainer/5/2/index?sig=1.0.99.abc');
    expect(frame).toHaveAccessibleName('Интерактивное задание');
    // The container answers instead of the task's own input.
    expect(within(preview).queryByTestId('digit-0')).not.toBeInTheDocument();
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { type: 'attesta:answer', value: '0110' },
          origin: 'null',
          source: frame.contentWindow,
        }),
      );
    });
    await user.click(screen.getByTestId('check-answer'));
    expect(await screen.findByTestId('score-result')).toHaveTextContent('Баллы: 1 / 1');
    expect(api.callsTo(`POST ${TASKS}/42/score`).map((c) => c.body)).toEqual([{ value: '0110' }]);
  });
});
