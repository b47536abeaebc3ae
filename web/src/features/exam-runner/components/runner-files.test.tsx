import 'fake-indexeddb/auto';
import type { ParticipantVariant } from '@attesta/contract';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json, renderApp, users } from '../../../test/test-app';
import { currentTest, variant as baseVariant, workState } from '../test-fixtures';

// Attachments chosen without a connection wait in the file outbox like other answers and are sent
// — the answer first, then the files — when the network returns.

configure({ asyncUtilTimeout: 5000 });
vi.setConfig({ testTimeout: 20_000 });

const WORK_ID = 777;
const FILE_TASK = 104;

const variant: ParticipantVariant = {
  ...baseVariant,
  tasks: [
    {
      variantTaskId: FILE_TASK,
      position: 1,
      answerType: 'file',
      html: '<p>Сфотографируйте решение</p>',
      content: { accept: ['image/*'], maxFiles: 3, maxSizeMb: 1 },
      maxScore: 2,
      files: [],
      htmlContainerId: null,
    },
    ...baseVariant.tasks.map((task) => ({ ...task, position: task.position + 1 })),
  ],
};

/** XMLHttpRequest as the upload uses it: «down» fails like a lost connection, «up» stores the files. */
class FakeXhr {
  static up = false;
  static sent: { answers: unknown; files: string[]; order: string[] }[] = [];
  static nextId = 900;
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onerror: (() => void) | null = null;
  onload: (() => void) | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  withCredentials = false;
  open() {}
  setRequestHeader() {}
  send(form: FormData) {
    setTimeout(() => {
      if (!FakeXhr.up) return this.onerror?.();
      const order = [...form.keys()];
      const files = form.getAll(`file:${FILE_TASK}`).map((f) => (f as File).name);
      const answers = JSON.parse(String(form.get('answers'))) as {
        answers: { variantTaskId: number; seq: number }[];
      };
      FakeXhr.sent.push({ answers, files, order });
      const a = answers.answers[0]!;
      this.status = 200;
      this.responseText = JSON.stringify({
        results: [
          { variantTaskId: a.variantTaskId, status: 'saved', seq: a.seq, savedAt: new Date().toISOString() },
        ],
        files: files.map((name) => ({
          variantTaskId: FILE_TASK,
          id: ++FakeXhr.nextId,
          name,
          mime: 'image/png',
          size: 4,
        })),
      });
      this.onload?.();
    }, 5);
  }
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  localStorage.clear();
  FakeXhr.up = false;
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => vi.unstubAllGlobals());

function serve() {
  const work = workState(WORK_ID);
  return fakeServer({
    'GET /api/user': () => json(200, users.participant),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(work)),
    'GET /api/exam/test/variant/current': () => json(200, variant),
    [`GET /api/exam/test/examwork/${WORK_ID}`]: () =>
      json(200, { ...work, serverTime: new Date().toISOString() }),
  });
}

const photo = (name: string) => new File(['\x89PNG'], name, { type: 'image/png' });

describe('attachments without a connection', () => {
  it('wait in the outbox, are counted as unsent, and go with the answer when the network returns', async () => {
    serve();
    renderApp('/participant/work');
    const input = await screen.findByTestId('file-input', {}, { timeout: 5000 });
    await userEvent.upload(input, photo('page-1.png'));
    const waiting = await screen.findByTestId('waiting-files');
    expect(waiting).toHaveTextContent('page-1.png');
    expect(waiting).toHaveTextContent('ждёт связи');
    expect(screen.queryByTestId('upload-failed')).toBeNull();
    expect(screen.getByTestId('task-nav-1')).toHaveAttribute('data-unsaved');

    // A second photo while still offline joins the first, in order.
    await userEvent.upload(screen.getByTestId('file-input'), photo('page-2.png'));
    await waitFor(() =>
      expect(within(screen.getByTestId('waiting-files')).getAllByRole('listitem')).toHaveLength(2),
    );

    // The finish is held back while files wait.
    await userEvent.click(screen.getByTestId('finish-work'));
    await userEvent.click(await screen.findByTestId('finish-confirm'));
    expect(await screen.findByTestId('finish-problem')).toHaveTextContent('Не все ответы отправлены');
    await userEvent.click(screen.getByRole('button', { name: 'Вернуться к заданиям' }));

    FakeXhr.up = true;
    act(() => void window.dispatchEvent(new Event('offline')));
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(screen.queryByTestId('waiting-files')).toBeNull());
    expect(FakeXhr.sent).toHaveLength(1);
    expect(FakeXhr.sent[0]!.order[0]).toBe('answers');
    expect(FakeXhr.sent[0]!.files).toEqual(['page-1.png', 'page-2.png']);
    expect(screen.getByTestId('attached-901')).toHaveTextContent('page-1.png');
    expect(screen.getByTestId('attached-902')).toHaveTextContent('page-2.png');
    await waitFor(() => expect(screen.getByTestId('task-nav-1')).not.toHaveAttribute('data-unsaved'));
  });
});
