/** Contract-shaped answers of the runner's calls, for the fake server of the tests. */
import type {
  CurrentParticipantTest,
  ExamWorkState,
  ParticipantVariant,
  SavedAnswer,
} from '@attesta/contract';

export function workState(id: number, overrides: Partial<ExamWorkState> = {}): ExamWorkState {
  const now = Date.now();
  return {
    id,
    participantTestId: 5,
    variantId: 3,
    status: 'in_progress',
    answerMode: 'online',
    startedAt: new Date(now - 60_000).toISOString(),
    timeLimitSeconds: 3600,
    extraSeconds: 0,
    pausedSeconds: 0,
    pausedAt: null,
    deadlineAt: new Date(now + 45 * 60_000).toISOString(),
    secondsLeft: 45 * 60,
    finishedAt: null,
    finishReason: null,
    flags: [],
    serverTime: new Date(now).toISOString(),
    answers: [],
    ...overrides,
  };
}

export function currentTest(
  work: ExamWorkState | null,
  overrides: Partial<CurrentParticipantTest> = {},
): CurrentParticipantTest {
  return {
    id: 5,
    status: work ? 'in_progress' : 'active',
    testDate: '2030-01-01',
    diagnostic: {
      id: 1,
      name: 'Независимая диагностика',
      startsAt: '2030-01-01T06:00:00.000Z',
      endsAt: '2030-01-01T15:00:00.000Z',
      resultsPublished: false,
      closedByPublication: false,
    },
    subjectTest: {
      id: 11,
      name: 'Математика, 7 класс',
      subjectName: 'Математика',
      parallels: [7],
      durationMinutes: 45,
      description: null,
      taskCount: 3,
      allowBlank: false,
      allowCalculator: false,
      testGroupId: null,
      hasQuiz: false,
    },
    participant: {
      displayName: 'Иванов Иван',
      className: '7 «А»',
      schoolName: 'Школа № 1',
      cardComplete: true,
      accommodations: null,
    },
    quizDone: false,
    examWork: work,
    openElsewhere: false,
    serverTime: new Date().toISOString(),
    ...overrides,
  };
}

export const variant: ParticipantVariant = {
  id: 3,
  number: 2,
  subjectTestId: 11,
  subjectTestName: 'Математика, 7 класс',
  instructionHtml: null,
  tasks: [
    {
      variantTaskId: 101,
      position: 1,
      answerType: 'single_choice',
      html: '<p>Сколько будет 2 + 2?</p>',
      content: {
        options: [
          { id: 'a', html: '3' },
          { id: 'b', html: '4' },
        ],
        shuffle: false,
      },
      maxScore: 1,
      files: [],
      htmlContainerId: null,
    },
    {
      variantTaskId: 102,
      position: 2,
      answerType: 'short_text',
      html: '<p>Столица России?</p>',
      content: { maxLength: 100 },
      maxScore: 1,
      files: [],
      htmlContainerId: null,
    },
    {
      variantTaskId: 103,
      position: 3,
      answerType: 'number',
      html: '<p>Найдите \\(x\\): \\(2x = 5\\)</p>',
      content: {},
      maxScore: 2,
      files: [],
      htmlContainerId: null,
    },
  ],
};

export const saved = (variantTaskId: number, value: unknown, seq = 1): SavedAnswer => ({
  variantTaskId,
  value,
  seq,
  savedAt: new Date().toISOString(),
  answerMode: 'online',
});
