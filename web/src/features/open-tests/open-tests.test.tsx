import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp } from '../../test/test-app';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const NOW = '2026-04-10T10:00:00Z';
const guest = { id: 5, login: 'vera@example.test', displayName: 'Орлова Вера', roles: ['guest'] };
/** The same guest while their session sits an attempt (docs/open-tests.md). */
const sitting = { ...guest, roles: ['guest', 'participant'] };

const finishedAttempt = {
  id: 11,
  state: 'finished',
  startedAt: '2026-04-09T09:00:00Z',
  finishedAt: '2026-04-09T09:20:00Z',
  primaryScore: 1,
  maxScore: 3,
  percent: 33.3,
  mark: '2',
};

const openTests = {
  items: [
    {
      id: 31,
      name: 'Пробный тест по математике',
      subjectName: 'Математика',
      parallels: [7, 8],
      durationMinutes: 45,
      taskCount: 2,
      description: 'Проверьте себя.',
      isOpen: true,
      attempts: [finishedAttempt],
    },
    {
      id: 32,
      name: 'Физика, старый тест',
      subjectName: 'Физика',
      parallels: [9],
      durationMinutes: 30,
      taskCount: 5,
      description: null,
      isOpen: false,
      attempts: [{ ...finishedAttempt, id: 12 }],
    },
  ],
};

function server(extra: Record<string, Parameters<typeof fakeServer>[0][string]> = {}) {
  let started = false;
  const fake = fakeServer({
    'GET /api/user': () => json(200, started ? sitting : guest),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/openTests': () => json(200, openTests),
    'POST /api/openTests/31/attempt': () => {
      started = true;
      return json(200, { attemptId: 13, examWorkId: 900, resumed: false });
    },
    ...extra,
  });
  return fake;
}

describe('guest home: open tests', () => {
  it('lists the open tests with their facts, the attempts with scores and links to their results', async () => {
    server();
    renderApp('/guest');
    const card = await screen.findByTestId('open-test-31');
    expect(card).toHaveTextContent('Пробный тест по математике');
    expect(card).toHaveTextContent('Предмет: Математика · 7, 8 классы · 45 минут · 2 задания');
    expect(card).toHaveTextContent('Проверьте себя.');
    const row = within(card).getByTestId('open-attempt-11');
    expect(row).toHaveTextContent('1 из 3');
    expect(row).toHaveTextContent('33,3 %');
    expect(within(row).getByRole('link', { name: /Результат/ })).toHaveAttribute(
      'href',
      '/guest/attempts/11',
    );
    expect(within(card).getByTestId('open-test-start-31')).toHaveTextContent('Пройти ещё раз');

    // No longer open: its attempts stay, it starts no new one.
    const closed = screen.getByTestId('open-test-32');
    expect(closed).toHaveTextContent('Тест больше не открыт');
    expect(within(closed).queryByRole('button')).toBeNull();
    // No raw enums or ids on the page.
    expect(document.body.textContent).not.toMatch(/finished|in_progress|isOpen/);
  });

  it('says so when there are no open tests', async () => {
    server({ 'GET /api/openTests': () => json(200, { items: [] }) });
    renderApp('/guest');
    expect(await screen.findByTestId('open-tests-empty')).toHaveTextContent('Сейчас открытых тестов нет.');
  });

  it('starts after a word about the time, with the device header, and opens the runner', async () => {
    const fake = server();
    const { router } = renderApp('/guest');
    await userEvent.click(await screen.findByTestId('open-test-start-31'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('На выполнение отводится 45 минут');
    expect(fake.callsTo('POST /api/openTests/31/attempt')).toHaveLength(0);
    await userEvent.click(within(dialog).getByTestId('open-test-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/participant/work'));
    const [start] = fake.callsTo('POST /api/openTests/31/attempt');
    expect(start!.headers['x-device-id']).toBeTruthy();
  });

  it('shows a refused start by its code and stays home', async () => {
    server({ 'POST /api/openTests/31/attempt': () => apiError(400, 'test_not_open', 'raw server text') });
    const { router } = renderApp('/guest');
    await userEvent.click(await screen.findByTestId('open-test-start-31'));
    await userEvent.click(within(await screen.findByRole('dialog')).getByTestId('open-test-confirm'));
    const alert = await screen.findByTestId('open-test-start-failed');
    expect(alert).toHaveTextContent('Этот тест сейчас недоступен для самостоятельного прохождения.');
    expect(alert).not.toHaveTextContent('raw server text');
    expect(router.state.location.pathname).toBe('/guest');
  });

  it('a guest sitting an attempt has no participant home: /participant leads to /guest', async () => {
    server({ 'GET /api/user': () => json(200, sitting) });
    const { router } = renderApp('/participant');
    expect(await screen.findByTestId('open-tests')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/guest');
    expect(screen.queryByTestId('role-switch')).toBeNull();
  });
});

describe('the runner of a guest', () => {
  it('opens the attempt’s result as soon as the work is finished', async () => {
    const work = {
      id: 900,
      participantTestId: 13,
      variantId: 3,
      status: 'finished',
      answerMode: 'online',
      startedAt: NOW,
      timeLimitSeconds: 2700,
      extraSeconds: 0,
      pausedSeconds: 0,
      pausedAt: null,
      deadlineAt: NOW,
      secondsLeft: 0,
      finishedAt: NOW,
      finishReason: 'manual',
      flags: [],
      serverTime: NOW,
    };
    server({
      'GET /api/user': () => json(200, sitting),
      'GET /api/exam/test/currentParticipantTest': () =>
        json(200, {
          id: 13,
          status: 'finished',
          testDate: '2026-04-10',
          diagnostic: { id: 5, name: 'Пробный тест', startsAt: NOW, endsAt: NOW, resultsPublished: false },
          subjectTest: {
            id: 31,
            name: 'Пробный тест по математике',
            subjectName: 'Математика',
            parallels: [7],
            durationMinutes: 45,
            description: null,
            taskCount: 2,
            allowBlank: false,
            allowCalculator: false,
            testGroupId: null,
            hasQuiz: false,
          },
          participant: { displayName: 'Орлова Вера', className: null, schoolName: null, cardComplete: true },
          quizDone: true,
          examWork: work,
          openElsewhere: false,
          serverTime: NOW,
        }),
      'GET /api/openTestAttempts/13': () => apiError(409, 'work_not_finished'),
    });
    const { router } = renderApp('/participant/work');
    await waitFor(() => expect(router.state.location.pathname).toBe('/guest/attempts/13'));
  });
});

describe('guest attempt result', () => {
  const attempt = {
    attempt: finishedAttempt,
    subjectTestId: 31,
    subjectTestName: 'Пробный тест по математике',
    result: {
      participantTestId: 11,
      examWorkId: 900,
      diagnosticId: 5,
      subjectTestId: 31,
      subjectTestName: 'Пробный тест по математике',
      status: 'scored',
      primaryScore: 1,
      maxScore: 3,
      percent: 33.3,
      mark: '2',
      level: null,
      tasks: [{ variantTaskId: 1, position: 1, score: 1, maxScore: 1, status: 'auto' }],
      elements: [],
      verificationCode: 'R-7KQ2-M9XD',
      computedAt: NOW,
      published: true,
      publishedAt: null,
    },
    variant: {
      examWorkId: 900,
      variantId: 3,
      number: 1,
      subjectTestName: 'Пробный тест по математике',
      withKeys: true,
      anonCode: null,
      participant: null,
      tasks: [
        {
          variantTaskId: 1,
          position: 1,
          answerType: 'single_choice',
          html: '<p>Сколько будет 2 + 2?</p>',
          content: {
            options: [
              { id: 'a', html: '3' },
              { id: 'b', html: '4' },
            ],
          },
          maxScore: 1,
          files: [],
          htmlContainerId: null,
          answer: { value: 'a', fileIds: [] },
          score: 0,
          scoreStatus: 'auto',
          reference: { correct: 'b' },
          solutionHtml: null,
          criteria: null,
        },
      ],
    },
  };

  it('shows the score, the answer given and the correct one, without a PDF', async () => {
    server({ 'GET /api/openTestAttempts/11': () => json(200, attempt) });
    renderApp('/guest/attempts/11');
    expect(await screen.findByTestId('result-score')).toHaveTextContent('1 из 3');
    expect(screen.getByTestId('result-percent')).toHaveTextContent('33,3');
    expect(screen.getByTestId('result-option-a')).toHaveTextContent('3(ваш выбор)✗ неверно');
    expect(screen.getByTestId('result-option-b')).toHaveTextContent('4(правильный вариант)');
    expect(screen.queryByTestId('result-pdf')).toBeNull();
    expect(screen.getByTestId('attempt-back')).toHaveAttribute('href', '/guest');
  });

  it('an unfinished attempt says its result comes with its finish', async () => {
    server({ 'GET /api/openTestAttempts/11': () => apiError(409, 'work_not_finished') });
    renderApp('/guest/attempts/11');
    expect(await screen.findByTestId('attempt-not-finished')).toHaveTextContent(
      'Эта попытка ещё не завершена',
    );
  });
});
