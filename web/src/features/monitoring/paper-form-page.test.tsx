import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, type Handler } from '../../test/test-app';
import { organizatorRoomHandlers, roomRow } from '../../test/room-fixtures';

const row = (over: object) =>
  roomRow({
    status: 'finished',
    answered: 2,
    total: 3,
    secondsLeft: 0,
    deadlineAt: null,
    lastSaveAt: null,
    online: false,
    lastSeenAt: null,
    finishReason: 'manual',
    registrationCode: 'R7Q2M9',
    ...over,
  });

const task = (variantTaskId: number, position: number, over: object) => ({
  variantTaskId,
  position,
  maxScore: 1,
  files: [],
  htmlContainerId: null,
  answer: null,
  score: null,
  scoreStatus: null,
  ...over,
});

const variant = {
  examWorkId: 70,
  variantId: 3,
  number: 2,
  subjectTestName: 'Математика, 7 класс',
  withKeys: false,
  anonCode: null,
  participant: { name: 'Иванов Иван', schoolName: 'Школа № 1', className: '7 «А»' },
  tasks: [
    task(101, 1, {
      answerType: 'single_choice',
      html: '<p>Сколько будет 2 + 2?</p>',
      content: {
        options: [
          { id: 'a', html: '3' },
          { id: 'b', html: '4' },
        ],
        shuffle: false,
      },
    }),
    task(102, 2, { answerType: 'short_text', html: '<p>Столица России?</p>', content: { maxLength: 100 } }),
    task(103, 3, { answerType: 'number', html: '<p>Найдите x: 2x = 5</p>', content: {} }),
  ],
};

const saved = (variantTaskId: number, value: unknown, seq: number, answerMode = 'online') => ({
  variantTaskId,
  value,
  seq,
  savedAt: '2026-04-10T10:05:00.000Z',
  answerMode,
});

const workState = {
  id: 70,
  participantTestId: 7,
  variantId: 3,
  status: 'finished',
  answerMode: 'online',
  startedAt: '2026-04-10T10:00:00.000Z',
  timeLimitSeconds: 2700,
  extraSeconds: 0,
  pausedSeconds: 0,
  pausedAt: null,
  deadlineAt: '2026-04-10T10:45:00.000Z',
  secondsLeft: 0,
  finishedAt: '2026-04-10T10:40:00.000Z',
  finishReason: 'manual',
  flags: [],
  serverTime: '2026-04-10T11:00:00.000Z',
  answers: [saved(101, 'a', 3), saved(103, '', 0, 'blank')],
};

const card = {
  id: 7,
  status: 'finished',
  testDate: '2026-04-10',
  diagnosticId: 5,
  subjectTestId: 3,
  studentId: 12,
  schoolId: 1,
  classId: 9,
  participantName: 'Иванов Иван',
  activationCode: 'AB12CD',
  registrationCode: 'R7Q2M9',
};

function paperServer(extra: Record<string, Handler> = {}, rows = [row({})]) {
  return fakeServer({
    ...organizatorRoomHandlers(rows),
    'GET /api/exam/test/getparticipanttestbyresultid/70': () => json(200, card),
    'GET /api/examresults/variant/70': () => json(200, variant),
    'GET /api/exam/test/examwork/70': () => json(200, workState),
    ...extra,
  });
}

const PAPER = '/organizator/room/paper/70?diagnosticId=5&classId=9';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('keying in a paper answer form', { timeout: 20_000 }, () => {
  it('offers the form on finished sittings only, and finds a sitting by the code printed on the form', async () => {
    paperServer({}, [
      row({}),
      row({
        participantTestId: 8,
        examWorkId: 80,
        name: 'Петров Пётр',
        status: 'in_progress',
        registrationCode: 'R8',
      }),
      row({
        participantTestId: 9,
        examWorkId: null,
        name: 'Сидоров Сидор',
        status: 'not_started',
        registrationCode: 'R9',
      }),
    ]);
    const { router } = renderApp('/organizator/room?diagnosticId=5&classId=9');
    expect(await screen.findByRole('link', { name: 'Ввести бланк ответов: Иванов Иван' })).toHaveAttribute(
      'href',
      PAPER,
    );
    expect(screen.queryByTestId('room-paper-8')).toBeNull();
    expect(screen.queryByTestId('room-paper-9')).toBeNull();

    const input = screen.getByLabelText('Регистрационный код с бланка');
    const find = screen.getByRole('button', { name: 'Ввести бланк' });
    await userEvent.type(input, 'NOPE');
    await userEvent.click(find);
    expect(
      await screen.findByText('В этой аудитории нет участника с таким регистрационным кодом'),
    ).toBeVisible();
    await userEvent.clear(input);
    await userEvent.type(input, 'r8');
    await userEvent.click(find);
    expect(await screen.findByText(/Работа участника ещё идёт/)).toBeVisible();
    await userEvent.clear(input);
    await userEvent.type(input, 'R9');
    await userEvent.click(find);
    expect(await screen.findByText(/Участник не начинал работу/)).toBeVisible();
    expect(router.state.location.pathname).toBe('/organizator/room');

    await userEvent.clear(input);
    await userEvent.type(input, ' r7q2m9 ');
    await userEvent.click(find);
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizator/room/paper/70'));
    expect(await screen.findByTestId('paper-code')).toHaveTextContent('R7Q2M9');
  });

  it('shows each task with where its answer came from, and saves only the changed ones by registration code', async () => {
    const api = paperServer({
      'PUT /api/exam/test/saveanswers': () =>
        json(200, {
          results: [
            { variantTaskId: 102, status: 'saved', seq: 1, savedAt: '2026-04-10T11:00:00.000Z' },
            { variantTaskId: 103, status: 'saved', seq: 1, savedAt: '2026-04-10T11:00:00.000Z' },
          ],
        }),
    });
    renderApp(PAPER);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ввод бланка ответов' })).toBeInTheDocument();
    const sitting = await screen.findByTestId('paper-sitting');
    expect(sitting).toHaveTextContent('Иванов Иван');
    expect(sitting).toHaveTextContent('Математика, 7 класс');
    expect(screen.getByTestId('paper-source-1')).toHaveTextContent('Ответ дан онлайн');
    expect(screen.getByTestId('paper-source-2')).toHaveTextContent('Ответа нет');
    expect(screen.getByTestId('paper-source-3')).toHaveTextContent('Ответа нет');
    expect(within(screen.getByTestId('paper-task-1')).getByRole('radio', { name: /4/ })).not.toBeChecked();
    expect(within(screen.getByTestId('paper-task-1')).getByRole('radio', { name: /3/ })).toBeChecked();

    const save = screen.getByTestId('paper-save');
    expect(save).toBeDisabled();
    await userEvent.type(within(screen.getByTestId('paper-task-2')).getByRole('textbox'), 'Москва');
    await userEvent.type(within(screen.getByTestId('paper-task-3')).getByRole('textbox'), '2,5');
    expect(screen.getByTestId('paper-changed-2')).toBeInTheDocument();
    expect(save).toHaveTextContent('Сохранить бланк (изменений: 2)');
    await userEvent.click(save);

    await screen.findByText('Сохранено ответов: 2. Результат будет пересчитан.');
    const calls = api.callsTo('PUT /api/exam/test/saveanswers');
    expect(calls).toHaveLength(1);
    expect(new URL(calls[0]!.url, 'http://x').searchParams.get('registrationCode')).toBe('R7Q2M9');
    expect(calls[0]!.body).toEqual({
      examWorkId: 70,
      answers: [
        { variantTaskId: 102, value: 'Москва', seq: 1 },
        { variantTaskId: 103, value: '2,5', seq: 1 },
      ],
    });
  });

  it('asks before replacing an answer given online, and says which tasks changed meanwhile', async () => {
    const api = paperServer({
      'PUT /api/exam/test/saveanswers': () =>
        json(200, {
          results: [{ variantTaskId: 101, status: 'stale', seq: 9, savedAt: '2026-04-10T11:00:00.000Z' }],
        }),
    });
    renderApp(PAPER);
    const task1 = await screen.findByTestId('paper-task-1');
    await userEvent.click(within(task1).getByRole('radio', { name: /4/ }));
    await userEvent.click(screen.getByTestId('paper-save'));
    const dialog = await screen.findByRole('dialog', { name: 'Заменить ответы, данные онлайн?' });
    expect(dialog).toHaveTextContent('В заданиях 1 участник ответил онлайн');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(api.callsTo('PUT /api/exam/test/saveanswers')).toHaveLength(0);

    await userEvent.click(screen.getByTestId('paper-save'));
    await userEvent.click(await screen.findByTestId('paper-overwrite-confirm'));
    expect(await screen.findByTestId('paper-error')).toHaveTextContent(
      'Ответы в заданиях 1 изменились на сервере',
    );
    expect(api.callsTo('PUT /api/exam/test/saveanswers')[0]!.body).toEqual({
      examWorkId: 70,
      answers: [{ variantTaskId: 101, value: 'b', seq: 4 }],
    });
  });

  // Issue 23, item 6: a file the participant attached online shows under its own name, not an id.
  it('shows the files a participant attached online under their names', async () => {
    const withFile = {
      ...variant,
      tasks: [
        task(104, 1, {
          answerType: 'file',
          html: '<p>Приложите фото решения</p>',
          content: { accept: ['image/*'], maxFiles: 3, maxSizeMb: 5 },
        }),
      ],
    };
    const api = paperServer({
      'GET /api/examresults/variant/70': () => json(200, withFile),
      'GET /api/exam/test/examwork/70': () =>
        json(200, { ...workState, answers: [saved(104, { fileIds: [31, 32] }, 2)] }),
      'GET /api/files/31/ext': () =>
        json(200, { extension: 'jpg', mime: 'image/jpeg', name: 'решение-стр1.jpg', size: 2048 }),
      'GET /api/files/32/ext': () => apiError(404, 'not_found'),
    });
    renderApp(PAPER);
    const box = await screen.findByTestId('paper-task-1', {}, { timeout: 5000 });
    expect(await within(box).findByText('решение-стр1.jpg')).toBeInTheDocument();
    // A file whose name cannot be looked up is named by its place, never by its id.
    expect(within(box).getByTestId('attached-32')).toHaveTextContent('Файл 2');
    expect(within(box).getByTestId('attached-32')).not.toHaveTextContent('32');
    expect(api.callsTo('GET /api/files/31/ext')).toHaveLength(1);
  });

  it('says in words when the work still runs or the save is refused', async () => {
    paperServer({ 'GET /api/examresults/variant/70': () => apiError(409, 'work_not_finished') });
    renderApp(PAPER);
    expect(await screen.findByTestId('paper-load-error')).toHaveTextContent(
      'Работа участника ещё идёт: бланк вносится после её завершения',
    );
  });

  it('shows a refused save in words and keeps the typed answers', async () => {
    paperServer({ 'PUT /api/exam/test/saveanswers': () => apiError(403, 'forbidden') });
    renderApp(PAPER);
    const box = within(await screen.findByTestId('paper-task-2')).getByRole('textbox');
    await userEvent.type(box, 'Москва');
    await userEvent.click(screen.getByTestId('paper-save'));
    expect(await screen.findByTestId('paper-error')).toHaveTextContent(/^Не удалось сохранить:/);
    expect(screen.getByTestId('paper-error')).not.toHaveTextContent('forbidden');
    expect(box).toHaveValue('Москва');
  });

  it('asks before leaving with unsaved changes', async () => {
    paperServer();
    const { router } = renderApp(PAPER);
    await userEvent.type(within(await screen.findByTestId('paper-task-2')).getByRole('textbox'), 'Москва');
    await userEvent.click(screen.getByTestId('paper-back'));
    const dialog = await screen.findByRole('dialog', { name: 'Уйти без сохранения?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Остаться' }));
    expect(router.state.location.pathname).toBe('/organizator/room/paper/70');
    await userEvent.click(screen.getByTestId('paper-back'));
    await userEvent.click(await screen.findByTestId('paper-leave-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/organizator/room'));
    expect(router.state.location.search).toBe('?diagnosticId=5&classId=9');
  });
});
