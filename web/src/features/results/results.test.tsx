import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeServer, json, renderApp, users } from '../../test/test-app';
import { answerLines, referenceLines } from './lib/answer-text';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

const NOW = '2026-04-10T10:00:00Z';

function currentTest(published: boolean) {
  return {
    id: 77,
    status: published ? 'published' : 'scored',
    testDate: '2026-04-10',
    diagnostic: { id: 5, name: 'Математика 7', startsAt: NOW, endsAt: NOW, resultsPublished: published },
    subjectTest: {
      id: 31,
      name: 'Математика, 7 класс',
      subjectName: 'Математика',
      parallels: [7],
      durationMinutes: 45,
      description: null,
      taskCount: 2,
      allowBlank: false,
      testGroupId: null,
      hasQuiz: false,
    },
    participant: {
      displayName: 'Участник AB12',
      className: '7 «А»',
      schoolName: 'Школа 1',
      cardComplete: true,
    },
    quizDone: true,
    examWork: {
      id: 900,
      participantTestId: 77,
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
    },
    openElsewhere: false,
    serverTime: NOW,
  };
}

const result = {
  participantTestId: 77,
  examWorkId: 900,
  diagnosticId: 5,
  subjectTestId: 31,
  subjectTestName: 'Математика, 7 класс',
  status: 'scored',
  primaryScore: 3.5,
  maxScore: 5,
  percent: 70,
  mark: '4',
  level: 'повышенный',
  tasks: [
    { variantTaskId: 1, position: 1, score: 1, maxScore: 1, status: 'auto' },
    { variantTaskId: 2, position: 2, score: 2.5, maxScore: 4, status: 'expert' },
  ],
  elements: [],
  verificationCode: 'R-7KQ2-M9XD',
  computedAt: NOW,
  published: true,
  publishedAt: NOW,
};

const variant = {
  examWorkId: 900,
  variantId: 3,
  number: 1,
  subjectTestName: 'Математика, 7 класс',
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
          { id: 'b', html: '<b>4</b>' },
        ],
      },
      maxScore: 1,
      files: [],
      htmlContainerId: null,
      answer: { value: 'b', fileIds: [] },
      score: 1,
      scoreStatus: 'auto',
      reference: { correct: 'b' },
      solutionHtml: null,
      criteria: null,
    },
    {
      variantTaskId: 2,
      position: 2,
      answerType: 'extended_text',
      html: '<p>Докажите теорему.</p>',
      content: { maxLength: 1000 },
      maxScore: 4,
      files: [],
      htmlContainerId: null,
      answer: { value: 'Доказательство: ...', fileIds: [] },
      score: 2.5,
      scoreStatus: 'expert',
      reference: null,
      solutionHtml: '<p>Образец решения</p>',
      criteria: null,
    },
  ],
};

describe('participant result page', () => {
  it('before publication shows the calm message and asks for no result', async () => {
    const server = fakeServer({
      'GET /api/user': () => json(200, users.participant),
      'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(false)),
    });
    renderApp('/participant/result');
    expect(await screen.findByTestId('result-not-published', {}, { timeout: 5000 })).toHaveTextContent(
      'Результаты будут доступны после публикации',
    );
    expect(server.callsTo('GET /api/examresults/77')).toHaveLength(0);
  });

  it('shows the calm message when the server answers results_not_published', async () => {
    fakeServer({
      'GET /api/user': () => json(200, users.participant),
      'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(true)),
      'GET /api/examresults/77': () => apiError(403, 'results_not_published'),
    });
    const { router } = renderApp('/participant/result');
    expect(await screen.findByTestId('result-not-published', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/participant/result');
  });

  it(
    'after publication shows score, mark, tasks with answers and references, and downloads the PDF',
    { timeout: 20_000 },
    async () => {
      const createObjectURL = vi.fn(() => 'blob:pdf');
      vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
      const server = fakeServer({
        'GET /api/user': () => json(200, users.participant),
        'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(true)),
        'GET /api/examresults/77': () => json(200, result),
        'GET /api/examresults/variant/900': () => json(200, variant),
        'GET /api/examresults/doc/77': () =>
          new Response(new Blob(['%PDF-1.7']), {
            status: 200,
            headers: {
              'content-type': 'application/pdf',
              'content-disposition': 'attachment; filename="result-77.pdf"',
            },
          }),
      });
      renderApp('/participant/result');
      expect(await screen.findByTestId('result-score', {}, { timeout: 5000 })).toHaveTextContent('3,5 из 5');
      expect(screen.getByTestId('result-mark')).toHaveTextContent('4');
      expect(screen.getByTestId('result-percent')).toHaveTextContent('70');
      expect(screen.getByTestId('result-level')).toHaveTextContent('повышенный');
      const task1 = await screen.findByTestId('result-task-1');
      await waitFor(() =>
        expect(within(task1).getAllByTestId('result-answer-line')[0]).toHaveTextContent('4'),
      );
      expect(within(task1).getByTestId('result-reference-line')).toHaveTextContent('4');
      expect(within(task1).getByText('Баллы: 1 из 1')).toBeInTheDocument();
      const task2 = screen.getByTestId('result-task-2');
      expect(within(task2).getByText('Доказательство: ...')).toBeInTheDocument();
      expect(within(task2).getByText('Образец решения')).toBeInTheDocument();
      expect(within(task2).getByText('Баллы: 2,5 из 4')).toBeInTheDocument();

      await userEvent.click(screen.getByTestId('result-pdf'));
      await waitFor(() => expect(server.callsTo('GET /api/examresults/doc/77')).toHaveLength(1));
      await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    },
  );
});

describe('answer text', () => {
  const t = (key: string, o?: Record<string, unknown>) => `${key}${o ? JSON.stringify(o) : ''}`;
  it('renders choices, matching, ordering and cloze readably', () => {
    const options = {
      options: [
        { id: 'a', html: '<i>один</i>' },
        { id: 'b', html: 'два' },
      ],
    };
    expect(answerLines('multiple_choice', options, ['b', 'a'])).toEqual(['два', 'один']);
    const matching = {
      left: [{ id: 'l1', html: 'Москва' }],
      right: [{ id: 'r1', html: 'Россия' }],
    };
    expect(answerLines('matching', matching, { l1: 'r1' })).toEqual(['Москва → Россия']);
    expect(answerLines('ordering', { items: options.options }, ['b', 'a'])).toEqual(['1. два', '2. один']);
    const cloze = {
      blanks: [
        {
          id: 'g1',
          kind: 'choice',
          options: [
            { id: 'x', text: 'был' },
            { id: 'y', text: 'была' },
          ],
        },
        { id: 'g2', kind: 'text' },
      ],
    };
    expect(answerLines('cloze', cloze, { g2: 'дом', g1: 'y' })).toEqual(['g1: была', 'g2: дом']);
    expect(referenceLines('short_text', {}, { accepted: ['кот', 'кошка'] }, t)).toEqual(['кот / кошка']);
    expect(referenceLines('extended_text', {}, null, t)).toEqual([]);
    expect(answerLines('short_text', {}, null)).toEqual([]);
  });
});

describe('publication controls', () => {
  const diagnostic = {
    id: 5,
    code: 'D-2026-0005',
    name: 'Математика 7',
    kind: 'diagnostic',
    startsAt: NOW,
    endsAt: NOW,
    parallels: [7],
    status: 'running',
    resultsPublished: false,
    subjectTests: [{ id: 31, name: 'Математика 7', parallels: [7] }],
    participantCount: 1,
  };
  const row = {
    participantTestId: 77,
    examWorkId: 900,
    diagnosticId: 5,
    diagnosticName: 'Математика 7',
    subjectTestId: 31,
    subjectTestName: 'Математика, 7 класс',
    participantName: 'Иванова Анна',
    registrationCode: 'REG-1',
    schoolId: 1,
    schoolName: 'Школа 1',
    classId: 11,
    className: '7 «А»',
    participantTestStatus: 'scored',
    status: 'awaiting_experts',
    primaryScore: 3,
    maxScore: 5,
    percent: 60,
    mark: null,
    level: null,
    published: false,
    computedAt: NOW,
  };

  async function chooseDiagnostic() {
    const input = await screen.findByTestId('publish-diagnostic');
    await waitFor(() =>
      expect(fetch).toHaveBeenCalledWith('/api/coordinator/diagnostic/list', expect.anything()),
    );
    await userEvent.click(input);
    await userEvent.click(await screen.findByText('D-2026-0005 — Математика 7'));
  }

  it('disables publishing and says why while answers await experts', async () => {
    const server = fakeServer({
      'GET /api/user': () => json(200, users.coordinator),
      'POST /api/coordinator/diagnostic/list': () => json(200, { items: [diagnostic], total: 1 }),
      'GET /api/examresults/enableChangePublish/5': () =>
        json(200, {
          enabled: false,
          awaitingGrading: 3,
          unscored: 1,
          reason: 'awaiting_grading',
          message: null,
        }),
      'POST /api/examresults/participantTest/list': () => json(200, { items: [row], total: 1 }),
    });
    renderApp('/coordinator/results');
    await chooseDiagnostic();
    expect(await screen.findByTestId('publish-reason')).toHaveTextContent(
      'ожидают проверки экспертами — 3, не рассчитаны — 1',
    );
    expect(screen.getByTestId('publish-button')).toBeDisabled();
    expect(screen.getByTestId('unpublish-button')).toBeDisabled();
    expect(screen.getByTestId('publish-state')).toHaveTextContent('Результаты не опубликованы');
    expect(await screen.findByText('Иванова Анна')).toBeInTheDocument();
    expect(server.callsTo('POST /api/examresults/participantTest/list')[0]!.body).toMatchObject({
      filter: { diagnosticId: 5 },
    });
  });

  it('publishes after confirmation with the state-changing GET', async () => {
    const server = fakeServer({
      'GET /api/user': () => json(200, users.coordinator),
      'POST /api/coordinator/diagnostic/list': () => json(200, { items: [diagnostic], total: 1 }),
      'GET /api/examresults/enableChangePublish/5': () =>
        json(200, { enabled: true, awaitingGrading: 0, unscored: 0, reason: null, message: null }),
      'POST /api/examresults/participantTest/list': () => json(200, { items: [], total: 0 }),
      'GET /api/examresults/changePublish/5/true': () =>
        json(200, { diagnosticId: 5, resultsPublished: true, publishedAt: NOW }),
    });
    renderApp('/coordinator/results');
    await chooseDiagnostic();
    const button = await screen.findByTestId('publish-button');
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await userEvent.click(await screen.findByTestId('publish-confirm'));
    await waitFor(() => expect(server.callsTo('GET /api/examresults/changePublish/5/true')).toHaveLength(1));
    expect(server.callsTo('GET /api/examresults/changePublish/5/true')[0]!.headers['X-Requested-With']).toBe(
      'XMLHttpRequest',
    );
    await waitFor(() =>
      expect(screen.getByTestId('publish-state')).toHaveAttribute('data-published', 'true'),
    );
    expect(screen.getByTestId('publish-button')).toBeDisabled();
  });
});

describe('the verification page of a result document', () => {
  it('shows a genuine published result to anyone, without a session', async () => {
    fakeServer({
      'GET /api/results/verify/R-TEST-7K2Q': () =>
        json(200, {
          valid: true,
          published: true,
          diagnosticName: 'Диагностика',
          subjectTestName: 'Математика, 7 класс',
          testDate: '2026-04-10',
          participant: 'Иванов И.',
          primaryScore: 7.5,
          maxScore: 10,
          mark: '4',
        }),
    });
    renderApp('/verify/R-TEST-7K2Q');
    expect(await screen.findByTestId('verify-genuine', {}, { timeout: 5000 })).toHaveTextContent(
      'Иванов И. — Математика, 7 класс, 10.04.2026: 7,5 из 10, отметка 4',
    );
  });

  it('says so when no document has the code', async () => {
    fakeServer({
      'GET /api/results/verify/R-NONE-0000': () =>
        json(200, {
          valid: false,
          published: false,
          diagnosticName: null,
          subjectTestName: null,
          testDate: null,
          participant: null,
          primaryScore: null,
          maxScore: null,
          mark: null,
        }),
    });
    renderApp('/verify/R-NONE-0000');
    expect(await screen.findByTestId('verify-unknown', {}, { timeout: 5000 })).toBeInTheDocument();
  });
});
