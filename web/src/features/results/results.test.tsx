import { act, screen, waitFor, within } from '@testing-library/react';
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
      allowCalculator: false,
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
  maxScore: 8,
  percent: 43.8,
  mark: '4',
  level: 'повышенный',
  tasks: [
    { variantTaskId: 1, position: 1, score: 1, maxScore: 1, status: 'auto' },
    { variantTaskId: 2, position: 2, score: 2.5, maxScore: 3, status: 'expert' },
    { variantTaskId: 3, position: 3, score: 0, maxScore: 2, status: 'auto' },
    { variantTaskId: 4, position: 4, score: 0, maxScore: 1, status: 'auto' },
  ],
  elements: [],
  verificationCode: 'R-7KQ2-M9XD',
  computedAt: NOW,
  published: true,
  publishedAt: NOW,
};

const variantTask = {
  maxScore: 1,
  files: [],
  htmlContainerId: null,
  solutionHtml: null,
  criteria: null,
  checks: null,
  grading: null,
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
      ...variantTask,
      variantTaskId: 1,
      position: 1,
      answerType: 'single_choice',
      html: '<p>Какое число равно 8?</p>',
      content: {
        options: [
          { id: 'a', html: '2<sup>3</sup>' },
          { id: 'b', html: '3<sup>2</sup>' },
        ],
      },
      answer: { value: 'a', fileIds: [] },
      score: 1,
      scoreStatus: 'auto',
      reference: { correct: 'a' },
    },
    {
      ...variantTask,
      variantTaskId: 2,
      position: 2,
      answerType: 'extended_text',
      html: '<p>Докажите теорему.</p>',
      content: { maxLength: 1000 },
      maxScore: 3,
      answer: { value: 'Доказательство: ...', fileIds: [] },
      score: 2.5,
      scoreStatus: 'expert',
      reference: null,
      solutionHtml: '<p>Образец решения</p>',
      criteria: [
        { code: 'К1', text: 'Тезис сформулирован', maxScore: 2 },
        { code: 'К2', text: 'Грамотность', maxScore: 1 },
      ],
      grading: {
        criteria: [
          { code: 'К1', text: 'Тезис сформулирован', maxScore: 2, score: 1.5 },
          { code: 'К2', text: 'Грамотность', maxScore: 1, score: 1 },
        ],
        comments: ['Хорошая аргументация, <b>но</b> нет вывода.'],
      },
    },
    {
      ...variantTask,
      variantTaskId: 3,
      position: 3,
      answerType: 'cloze',
      html: '<p>Столица России — {{b1}}, а 10<sup>-1</sup> = {{b2}}.</p>',
      content: {
        blanks: [
          { id: 'b1', kind: 'text' },
          { id: 'b2', kind: 'number' },
        ],
      },
      maxScore: 2,
      answer: { value: { b1: 'Питер', b2: '0.1' }, fileIds: [] },
      score: 1,
      scoreStatus: 'auto',
      reference: { blanks: { b1: ['Москва'], b2: ['0,1'] } },
      checks: { b1: false, b2: true },
    },
    {
      ...variantTask,
      variantTaskId: 4,
      position: 4,
      answerType: 'number',
      html: '<p>Найдите H<sub>2</sub>: 5 / 2 = ?</p>',
      content: {},
      answer: { value: '2.4', fileIds: [] },
      score: 0,
      scoreStatus: 'auto',
      reference: { value: 2.5, tolerance: 0 },
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

  it('the late starter: not started before the publication, told so in words, and no result is asked for', async () => {
    const late = {
      ...currentTest(true),
      status: 'absent',
      examWork: null,
      diagnostic: { ...currentTest(true).diagnostic, closedByPublication: true },
    };
    const server = fakeServer({
      'GET /api/user': () => json(200, users.participant),
      'GET /api/exam/test/currentParticipantTest': () => json(200, late),
    });
    renderApp('/participant/result');
    const closed = await screen.findByTestId('result-closed', {}, { timeout: 5000 });
    expect(closed).toHaveTextContent('Результата нет: работа не выполнялась');
    expect(closed).toHaveTextContent('Работа не была начата до публикации результатов диагностики');
    expect(server.callsTo('GET /api/examresults/77')).toHaveLength(0);
    expect(server.calls.map((c) => c.key)).not.toContainEqual(
      expect.stringMatching(/variant|referenceBy|doc/),
    );
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
      expect(await screen.findByTestId('result-score', {}, { timeout: 5000 })).toHaveTextContent('3,5 из 8');
      expect(screen.getByTestId('result-mark')).toHaveTextContent('4');
      expect(screen.getByTestId('result-percent')).toHaveTextContent('43,8');
      expect(screen.getByTestId('result-level')).toHaveTextContent('повышенный');

      // Choices keep their markup: 2³ is 2<sup>3</sup>, not «23»; the choice is marked with a word.
      const task1 = await screen.findByTestId('result-task-1');
      const chosen = await within(task1).findByTestId('result-option-a');
      expect(chosen.querySelector('sup')?.textContent).toBe('3');
      expect(chosen).toHaveTextContent('ваш выбор');
      expect(within(chosen).getByTestId('result-verdict')).toHaveTextContent('✓ верно');
      expect(within(task1).getByTestId('result-option-b')).not.toHaveTextContent('ваш выбор');
      expect(within(task1).getByText('Баллы: 1 из 1')).toBeInTheDocument();

      // Expert-graded: the answer, the solution, each criterion out of its maximum, comments as text.
      const task2 = screen.getByTestId('result-task-2');
      expect(within(task2).getByText('Доказательство: ...')).toBeInTheDocument();
      expect(within(task2).getByText('Образец решения')).toBeInTheDocument();
      expect(within(task2).getByText('Баллы: 2,5 из 3')).toBeInTheDocument();
      expect(within(task2).getByTestId('result-criterion-К1')).toHaveTextContent(
        'К1 — Тезис сформулирован1,5 из 2',
      );
      expect(within(task2).getByTestId('result-criterion-К2')).toHaveTextContent('1 из 1');
      const comment = within(task2).getByTestId('result-comment');
      expect(comment).toHaveTextContent('Хорошая аргументация, <b>но</b> нет вывода.');
      expect(comment.querySelector('b')).toBeNull();

      // Cloze: the answers in place of {{b1}} and {{b2}}, marked, the correct answer beside the wrong one.
      const task3 = screen.getByTestId('result-task-3');
      await waitFor(() => expect(within(task3).getByTestId('result-gap-b1')).toBeInTheDocument());
      expect(task3).not.toHaveTextContent('{{');
      expect(task3.querySelector('sup')?.textContent).toBe('-1');
      const b1 = within(task3).getByTestId('result-gap-b1');
      expect(b1).toHaveTextContent('Питер');
      expect(within(b1).getByTestId('result-verdict')).toHaveTextContent('✗ неверно');
      expect(within(b1).getByTestId('result-gap-b1-correct')).toHaveTextContent('правильный ответ: Москва');
      const b2 = within(task3).getByTestId('result-gap-b2');
      expect(b2).toHaveTextContent('0,1');
      expect(within(b2).getByTestId('result-verdict')).toHaveTextContent('✓ верно');
      expect(within(b2).queryByTestId('result-gap-b2-correct')).toBeNull();
      // The gap sits inside the sentence, where the participant typed it.
      expect(b1.closest('p')).toHaveTextContent('Столица России — Питер');

      // A number answer in the Russian format, subscripts kept, the key beside a wrong answer.
      const task4 = screen.getByTestId('result-task-4');
      expect(task4.querySelector('sub')?.textContent).toBe('2');
      const value = within(task4).getByTestId('result-value');
      expect(value).toHaveTextContent('2,4');
      expect(value).not.toHaveTextContent('2.4');
      expect(within(value).getByTestId('result-verdict')).toHaveTextContent('✗ неверно');
      expect(within(value).getByTestId('result-value-correct')).toHaveTextContent('правильный ответ: 2,5');

      await userEvent.click(screen.getByTestId('result-pdf'));
      await waitFor(() => expect(server.callsTo('GET /api/examresults/doc/77')).toHaveLength(1));
      await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    },
  );
});

// Issue 23, item 6: attached files are shown under their names, not as ids or «Файл 1».
describe('files of a result', () => {
  it('lists an answer’s attachments under the names they were attached with', async () => {
    const withFile = {
      ...variant,
      tasks: [
        {
          ...variantTask,
          variantTaskId: 1,
          position: 1,
          answerType: 'file',
          html: '<p>Приложите решение</p>',
          content: { accept: ['application/pdf'], maxFiles: 2, maxSizeMb: 5 },
          answer: { value: { fileIds: [41, 42] }, fileIds: [41, 42] },
          score: null,
          scoreStatus: 'expert',
          reference: null,
        },
      ],
    };
    fakeServer({
      'GET /api/user': () => json(200, users.participant),
      'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(true)),
      'GET /api/examresults/77': () => json(200, { ...result, tasks: [result.tasks[0]] }),
      'GET /api/examresults/variant/900': () => json(200, withFile),
      'GET /api/files/41/ext': () =>
        json(200, { extension: 'pdf', mime: 'application/pdf', name: 'Решение задачи.pdf', size: 900 }),
      'GET /api/files/42/ext': () => apiError(404, 'not_found'),
    });
    renderApp('/participant/result');
    const first = await screen.findByTestId('result-file-41', {}, { timeout: 5000 });
    await waitFor(() => expect(first).toHaveTextContent('Решение задачи.pdf'));
    expect(screen.getByTestId('result-file-42')).toHaveTextContent('Файл 2');
    expect(screen.getByTestId('result-task-1')).not.toHaveTextContent('fileIds');
  });
});

describe('tasks of a result in place', () => {
  const inPlace = {
    ...variant,
    tasks: [
      {
        ...variantTask,
        variantTaskId: 1,
        position: 1,
        answerType: 'gap_match',
        html: '<p>{{g1}} — столица, {{g2}} — река.</p>',
        content: {
          words: [
            { id: 'w1', html: 'Москва', matchMax: 1 },
            { id: 'w2', html: 'H<sub>2</sub>O', matchMax: 1 },
            { id: 'w3', html: 'Волга', matchMax: 1 },
          ],
          gaps: [{ id: 'g1' }, { id: 'g2' }],
        },
        answer: { value: { g1: 'w1', g2: 'w2' }, fileIds: [] },
        score: 0.5,
        scoreStatus: 'auto',
        reference: { pairs: { g1: 'w1', g2: 'w3' } },
        checks: { g1: true, g2: false },
      },
      {
        ...variantTask,
        variantTaskId: 2,
        position: 2,
        answerType: 'hottext',
        html: '<p>{{h1}} мыла {{h2}}.</p>',
        content: {
          choices: [
            { id: 'h1', html: 'Мама' },
            { id: 'h2', html: 'раму' },
          ],
        },
        answer: { value: ['h2'], fileIds: [] },
        score: 0,
        scoreStatus: 'auto',
        reference: { correct: ['h1'] },
      },
      {
        ...variantTask,
        variantTaskId: 3,
        position: 3,
        answerType: 'matching',
        html: '<p>Сопоставьте.</p>',
        content: {
          left: [
            { id: 'l1', html: 'x<sup>2</sup> = 4' },
            { id: 'l2', html: 'x + 1 = 3' },
          ],
          right: [
            { id: 'r1', html: '±2' },
            { id: 'r2', html: '2' },
          ],
        },
        answer: { value: { l1: 'r1', l2: 'r1' }, fileIds: [] },
        score: 0,
        scoreStatus: 'auto',
        reference: { pairs: { l1: 'r1', l2: 'r2' } },
        checks: { l1: true, l2: false },
      },
      {
        ...variantTask,
        variantTaskId: 4,
        position: 4,
        answerType: 'number',
        html: '<p>5 / 2 = ?</p>',
        content: {},
        answer: { value: '2,5', fileIds: [] },
        score: 1,
        scoreStatus: 'auto',
        reference: { value: 2.5, tolerance: 0.05 },
      },
    ],
  };
  const inPlaceResult = {
    ...result,
    primaryScore: 1.5,
    percent: 37.5,
    tasks: inPlace.tasks.map((t) => ({
      variantTaskId: t.variantTaskId,
      position: t.position,
      score: t.score,
      maxScore: 1,
      status: 'auto',
    })),
  };
  const serve = (v: unknown) =>
    fakeServer({
      'GET /api/user': () => json(200, users.participant),
      'GET /api/exam/test/currentParticipantTest': () => json(200, currentTest(true)),
      'GET /api/examresults/77': () => json(200, inPlaceResult),
      'GET /api/examresults/variant/900': () => json(200, v),
    });

  it('puts gap-match words and hottext choices in the text, and marks pairs', async () => {
    serve(inPlace);
    renderApp('/participant/result');
    const task1 = await screen.findByTestId('result-task-1', {}, { timeout: 5000 });
    const g2 = await within(task1).findByTestId('result-gap-g2');
    expect(task1).not.toHaveTextContent('{{');
    expect(g2.querySelector('sub')?.textContent).toBe('2');
    expect(within(g2).getByTestId('result-verdict')).toHaveTextContent('✗ неверно');
    expect(within(g2).getByTestId('result-gap-g2-correct')).toHaveTextContent('правильный ответ: Волга');
    expect(
      within(within(task1).getByTestId('result-gap-g1')).getByTestId('result-verdict'),
    ).toHaveTextContent('✓ верно');

    const task2 = screen.getByTestId('result-task-2');
    expect(task2).toHaveTextContent('Мама(правильный, не выбран) мыла раму✗ неверно.');

    const task3 = screen.getByTestId('result-task-3');
    expect(within(task3).getByTestId('result-pair-l1').querySelector('sup')?.textContent).toBe('2');
    expect(within(task3).getByTestId('result-match-l1')).toHaveTextContent('±2✓ верно');
    expect(within(task3).getByTestId('result-match-l2')).toHaveTextContent('±2✗ неверноправильный ответ: 2');

    const value = within(screen.getByTestId('result-task-4')).getByTestId('result-value');
    expect(value).toHaveTextContent('2,5✓ верно');
  });

  it('writes numbers in the interface language: a decimal point in English', async () => {
    serve(inPlace);
    const { i18n } = renderApp('/participant/result');
    await screen.findByTestId('result-task-4', {}, { timeout: 5000 });
    await act(() => i18n.changeLanguage('en'));
    expect(await screen.findByTestId('result-score')).toHaveTextContent('1.5 of 8');
    expect(screen.getByTestId('result-percent')).toHaveTextContent('37.5');
    expect(within(screen.getByTestId('result-task-4')).getByTestId('result-value')).toHaveTextContent(
      '2.5✓ right',
    );
  });

  it('marks nothing right or wrong and shows no key when the keys are not shown', async () => {
    const { reference: _omitted, ...gapMatch } = inPlace.tasks[0]!;
    serve({ ...inPlace, withKeys: false, tasks: [{ ...gapMatch, checks: undefined, grading: undefined }] });
    renderApp('/participant/result');
    const g2 = await screen.findByTestId('result-gap-g2', {}, { timeout: 5000 });
    expect(g2).toHaveTextContent('H2O');
    expect(screen.queryByTestId('result-verdict')).toBeNull();
    expect(screen.queryByTestId('result-gap-g2-correct')).toBeNull();
  });
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

describe('publication controls', { timeout: 30_000 }, () => {
  const admin = { id: 1, login: 'admin', displayName: 'Администратор Платформы', roles: ['admin'] };
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
  const adminDiagnostic = {
    ...diagnostic,
    createdByRole: 'admin',
    createdByLogin: 'admin',
    publishedAt: null,
    subjectTests: [{ id: 31, name: 'Математика 7' }],
    schoolCount: 2,
    participantTestCount: 40,
    finishedWorkCount: 30,
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
  /** enableChangePublish: a window from 6:00 to 12:00 on 10.04.2026 (the tests' clock is UTC), 40 registered. */
  const state = (extra: object = {}) => ({
    diagnostic: { id: 5, code: 'D-2026-0005', name: 'Математика 7' },
    enabled: false,
    awaitingGrading: 0,
    unscored: 0,
    reason: 'window_open',
    message: 'server text',
    window: { startsAt: '2026-04-10T06:00:00Z', endsAt: '2026-04-10T12:00:00Z', open: true },
    participants: { registered: 40, finished: 30, inProgress: 0, notStarted: 7, absent: 2, annulled: 1 },
    participantsScope: 'diagnostic',
    overridable: false,
    mayPublish: true,
    resultsPublished: false,
    publishedAt: null,
    ...extra,
  });

  async function chooseDiagnostic(option = 'Математика 7 (D-2026-0005)') {
    const input = await screen.findByTestId('publish-diagnostic', {}, { timeout: 10_000 });
    await userEvent.click(input);
    await userEvent.click(await screen.findByText(option, {}, { timeout: 5000 }));
  }

  it('shows the window and where the participants stand before the button, and why it waits', async () => {
    const server = fakeServer({
      'GET /api/user': () => json(200, users.coordinator),
      'POST /api/coordinator/diagnostic/list': () => json(200, { items: [diagnostic], total: 1 }),
      'GET /api/examresults/enableChangePublish/5': () => json(200, state()),
      'POST /api/examresults/participantTest/list': () => json(200, { items: [row], total: 1 }),
    });
    renderApp('/coordinator/results');
    await chooseDiagnostic();
    expect(await screen.findByTestId('publish-window')).toHaveTextContent(
      'Окно диагностики: с 10.04.2026 06:00 по 10.04.2026 12:00 — ещё открыто.',
    );
    const counts = screen.getByTestId('publish-counts');
    expect(within(counts).getByTestId('count-registered')).toHaveTextContent('Зарегистрировано40');
    expect(within(counts).getByTestId('count-finished')).toHaveTextContent('Завершили работу30');
    expect(within(counts).getByTestId('count-notStarted')).toHaveTextContent('Ещё не начинали7');
    expect(within(counts).getByTestId('count-absent')).toHaveTextContent('Не явились2');
    expect(screen.getByTestId('publish-reason')).toHaveTextContent(
      'окно диагностики открыто до 10.04.2026 12:00, ещё не начинали работу — 7',
    );
    expect(screen.getByTestId('publish-reason')).not.toHaveTextContent('server text');
    expect(screen.getByTestId('publish-button')).toBeDisabled();
    // The creator is no admin: no early publication.
    expect(screen.queryByTestId('publish-early-button')).toBeNull();
    expect(screen.getByTestId('unpublish-button')).toBeDisabled();
    expect(screen.getByTestId('publish-state')).toHaveTextContent('Результаты не опубликованы');
    expect(await screen.findByText('Иванова Анна')).toBeInTheDocument();
    expect(server.callsTo('POST /api/examresults/participantTest/list')[0]!.body).toMatchObject({
      filter: { diagnosticId: 5 },
    });
  });

  it('says works still being written hold it back', async () => {
    fakeServer({
      'GET /api/user': () => json(200, users.coordinator),
      'POST /api/coordinator/diagnostic/list': () => json(200, { items: [diagnostic], total: 1 }),
      'GET /api/examresults/enableChangePublish/5': () =>
        json(
          200,
          state({
            reason: 'participants_unfinished',
            participants: {
              registered: 40,
              finished: 30,
              inProgress: 3,
              notStarted: 4,
              absent: 2,
              annulled: 1,
            },
          }),
        ),
      'POST /api/examresults/participantTest/list': () => json(200, { items: [], total: 0 }),
    });
    renderApp('/coordinator/results');
    await chooseDiagnostic();
    expect(await screen.findByTestId('publish-reason')).toHaveTextContent(
      'не завершены работы — 3. Ответы не должны попасть к тем, кто ещё пишет.',
    );
    expect(screen.getByTestId('count-inProgress')).toHaveTextContent('Работа не завершена3');
  });

  it('publishes after a confirmation naming the diagnostic, with the state-changing GET', async () => {
    let published = false;
    const server = fakeServer({
      'GET /api/user': () => json(200, users.coordinator),
      'POST /api/coordinator/diagnostic/list': () => json(200, { items: [diagnostic], total: 1 }),
      'GET /api/examresults/enableChangePublish/5': () =>
        json(
          200,
          state({
            enabled: true,
            reason: null,
            window: { startsAt: '2026-04-10T06:00:00Z', endsAt: '2026-04-10T12:00:00Z', open: false },
            participants: {
              registered: 40,
              finished: 37,
              inProgress: 0,
              notStarted: 0,
              absent: 2,
              annulled: 1,
            },
            resultsPublished: published,
            publishedAt: published ? NOW : null,
          }),
        ),
      'POST /api/examresults/participantTest/list': () => json(200, { items: [], total: 0 }),
      'GET /api/examresults/changePublish/5/true': () => {
        published = true;
        return json(200, { diagnosticId: 5, resultsPublished: true, publishedAt: NOW });
      },
    });
    renderApp('/coordinator/results');
    await chooseDiagnostic();
    expect(await screen.findByTestId('publish-reason')).toHaveTextContent(
      'Все работы завершены и проверены: результаты можно опубликовать.',
    );
    const button = screen.getByTestId('publish-button');
    expect(button).toBeEnabled();
    await userEvent.click(button);
    expect(await screen.findByTestId('publish-confirm-text')).toHaveTextContent(
      'Опубликовать результаты диагностики «Математика 7» (D-2026-0005)?',
    );
    await userEvent.click(screen.getByTestId('publish-confirm'));
    await waitFor(() => expect(server.callsTo('GET /api/examresults/changePublish/5/true')).toHaveLength(1));
    const sent = server.callsTo('GET /api/examresults/changePublish/5/true')[0]!;
    expect(sent.headers['X-Requested-With']).toBe('XMLHttpRequest');
    expect(sent.url).not.toContain('override');
    await waitFor(() =>
      expect(screen.getByTestId('publish-state')).toHaveAttribute('data-published', 'true'),
    );
    expect(screen.getByTestId('publish-state')).toHaveTextContent('Результаты опубликованы 10.04.2026 10:00');
    expect(screen.getByTestId('publish-button')).toBeDisabled();
  });

  it('the admin picks the diagnostic by name and publishes early only after an explicit confirmation naming it', async () => {
    const server = fakeServer({
      'GET /api/user': () => json(200, admin),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'POST /api/admin/diagnostics/list': () => json(200, { items: [adminDiagnostic], total: 1 }),
      'GET /api/examresults/enableChangePublish/5': () => json(200, state({ overridable: true })),
      'POST /api/examresults/participantTest/list': () => json(200, { items: [], total: 0 }),
      'GET /api/examresults/changePublish/5/true': () =>
        json(200, { diagnosticId: 5, resultsPublished: true, publishedAt: NOW }),
    });
    renderApp('/admin/results');
    // A picker of names, not an id box.
    expect(screen.queryByRole('spinbutton')).toBeNull();
    await chooseDiagnostic();
    expect(server.callsTo('POST /api/admin/diagnostics/list').length).toBeGreaterThan(0);
    expect(await screen.findByTestId('publish-button')).toBeDisabled();
    await userEvent.click(screen.getByTestId('publish-early-button'));
    expect(await screen.findByTestId('publish-confirm-text')).toHaveTextContent(
      'Окно диагностики «Математика 7» (D-2026-0005) открыто до 10.04.2026 12:00. Ещё не начинали работу: 7 — после публикации они будут отмечены как не явившиеся',
    );
    const confirm = screen.getByTestId('publish-confirm');
    expect(confirm).toBeDisabled();
    await userEvent.click(
      screen.getByRole('checkbox', {
        name: 'Я публикую результаты диагностики «Математика 7» до окончания её окна',
      }),
    );
    await userEvent.click(confirm);
    await waitFor(() => expect(server.callsTo('GET /api/examresults/changePublish/5/true')).toHaveLength(1));
    expect(server.callsTo('GET /api/examresults/changePublish/5/true')[0]!.url).toContain('override=true');
  });

  it('an admin’s link opens the named diagnostic; a refusal is said by its code, never the server’s text', async () => {
    fakeServer({
      'GET /api/user': () => json(200, admin),
      'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
      'POST /api/admin/diagnostics/list': () => json(200, { items: [], total: 0 }),
      'GET /api/admin/diagnostics/5': () => json(200, { ...adminDiagnostic, schools: [] }),
      'GET /api/examresults/enableChangePublish/5': () => json(200, state({ overridable: true })),
      'POST /api/examresults/participantTest/list': () => json(200, { items: [], total: 0 }),
      'GET /api/examresults/changePublish/5/true': () =>
        json(409, {
          status: 409,
          code: 'publication_participants_unfinished',
          message: 'raw server text',
          errors: [{ path: 'diagnostic', message: 'x', params: { inProgress: 1 } }],
        }),
    });
    renderApp('/admin/results?diagnosticId=5');
    await waitFor(() =>
      expect(screen.getByTestId('publish-diagnostic')).toHaveValue('Математика 7 (D-2026-0005)'),
    );
    await userEvent.click(await screen.findByTestId('publish-early-button'));
    await userEvent.click(await screen.findByTestId('override-ack'));
    await userEvent.click(screen.getByTestId('publish-confirm'));
    expect(await screen.findByTestId('publish-refused')).toHaveTextContent(
      'не все работы завершены — ответы не должны попасть к тем, кто ещё пишет',
    );
    expect(screen.getByTestId('publish-refused')).not.toHaveTextContent('raw server text');
  });

  it('is read-only, with the reason, for a diagnostic the admin publishes', async () => {
    fakeServer({
      'GET /api/user': () => json(200, users.coordinator),
      'POST /api/coordinator/diagnostic/list': () => json(200, { items: [diagnostic], total: 1 }),
      'GET /api/examresults/enableChangePublish/5': () =>
        json(
          200,
          state({
            mayPublish: false,
            participantsScope: 'school',
            participants: {
              registered: 12,
              finished: 10,
              inProgress: 0,
              notStarted: 2,
              absent: 0,
              annulled: 0,
            },
          }),
        ),
      'POST /api/examresults/participantTest/list': () => json(200, { items: [row], total: 1 }),
    });
    renderApp('/coordinator/results');
    await chooseDiagnostic();
    expect(await screen.findByTestId('publish-read-only')).toHaveTextContent(
      'Результаты этой диагностики публикует администратор',
    );
    expect(screen.getByText('Участники вашей школы')).toBeInTheDocument();
    expect(screen.getByTestId('count-registered')).toHaveTextContent('12');
    expect(screen.queryByTestId('publish-button')).toBeNull();
    expect(screen.queryByTestId('publish-early-button')).toBeNull();
    expect(screen.queryByTestId('unpublish-button')).toBeNull();
    expect(await screen.findByText('Иванова Анна')).toBeInTheDocument();
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
