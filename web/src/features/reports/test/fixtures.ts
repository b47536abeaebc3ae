/**
 * Answers of the report calls and of the pickers' list calls in the contract's shapes: two schools,
 * three classes, two subject tests of one diagnostic (each parsed by the client as the real
 * answers are, so a shape that drifts from the contract fails here).
 */
import type {
  ItemAnalysis,
  ReportCommon,
  ReportCons,
  ReportControl,
  ReportDetailed,
  ReportProtocol,
  ReportSpecification,
  ReportStats,
} from '@attesta/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeServer, json, renderApp, type Handler } from '../../../test/test-app';

export const people = {
  coordinator: {
    id: 2,
    login: 'coordinator',
    displayName: 'Смирнова Елена Викторовна',
    roles: ['coordinator'],
  },
  admin: { id: 1, login: 'admin', displayName: 'Орлов Сергей Михайлович', roles: ['admin'] },
  ugnik: { id: 5, login: 'ugnik', displayName: 'Белов Константин Андреевич', roles: ['ugnik'] },
  organizator: {
    id: 3,
    login: 'organizator',
    displayName: 'Волкова Ирина Сергеевна',
    roles: ['organizator'],
  },
} as const;

export const GENERATED = '2026-04-10T12:00:00.000Z';
export const FILTERS = {
  diagnosticId: null,
  subjectTestId: null,
  schoolId: null,
  classId: null,
  startDate: null,
  endDate: null,
};

export function stats(over: Partial<ReportStats> = {}): ReportStats {
  return {
    registered: 0,
    annulled: 0,
    tookPart: 0,
    absent: 0,
    pending: 0,
    finished: 0,
    unfinished: 0,
    scored: 0,
    notScored: 0,
    meanScore: null,
    meanPercent: null,
    marks: ['2', '3', '4', '5'].map((mark) => ({ mark, count: 0 })),
    levels: [],
    ...over,
  };
}

const marks = (m2: number, m3: number, m4: number, m5: number) => [
  { mark: '2', count: m2 },
  { mark: '3', count: m3 },
  { mark: '4', count: m4 },
  { mark: '5', count: m5 },
];

export const mathStats = stats({
  registered: 12,
  annulled: 1,
  tookPart: 9,
  absent: 2,
  finished: 8,
  unfinished: 1,
  scored: 7,
  notScored: 1,
  meanScore: 14.57,
  meanPercent: 72.86,
  marks: marks(1, 2, 3, 1),
  levels: [
    { level: 'Недостаточный', count: 1 },
    { level: 'Базовый', count: 4 },
    { level: 'Повышенный', count: 2 },
  ],
});

export const common: ReportCommon = {
  generatedAt: GENERATED,
  filters: FILTERS,
  items: [
    {
      subjectTestId: 31,
      subjectTestName: 'Математика, 7 класс',
      maxScore: 20,
      firstDate: '2026-04-10',
      lastDate: '2026-04-11',
      stats: mathStats,
    },
    {
      subjectTestId: 32,
      subjectTestName: 'Русский язык, 7 класс',
      maxScore: 30,
      firstDate: '2026-04-10',
      lastDate: '2026-04-10',
      stats: stats({ registered: 5, pending: 5 }),
    },
  ],
};

export const cons: ReportCons = {
  generatedAt: GENERATED,
  filters: FILTERS,
  sort: 'name',
  dir: 'asc',
  items: [
    {
      subjectTestId: 31,
      subjectTestName: 'Математика, 7 класс',
      maxScore: 20,
      total: mathStats,
      schools: [
        {
          schoolId: 101,
          schoolName: 'Школа № 1',
          stats: stats({
            registered: 8,
            tookPart: 6,
            scored: 5,
            meanScore: 15.2,
            meanPercent: 76,
            marks: marks(0, 1, 3, 1),
          }),
          classes: [
            {
              classId: 11,
              className: '7 «А»',
              stats: stats({
                registered: 5,
                tookPart: 4,
                scored: 3,
                meanScore: 16,
                meanPercent: 80,
                marks: marks(0, 0, 2, 1),
              }),
            },
            {
              classId: 12,
              className: '7 «Б»',
              stats: stats({
                registered: 3,
                tookPart: 2,
                scored: 2,
                meanScore: 14,
                meanPercent: 70,
                marks: marks(0, 1, 1, 0),
              }),
            },
          ],
        },
        {
          schoolId: 102,
          schoolName: 'Школа № 2',
          stats: stats({
            registered: 4,
            tookPart: 3,
            scored: 2,
            meanScore: 13,
            meanPercent: 65,
            marks: marks(1, 1, 0, 0),
          }),
          classes: [
            {
              classId: 21,
              className: '7 «В»',
              stats: stats({
                registered: 4,
                tookPart: 3,
                scored: 2,
                meanScore: 13,
                meanPercent: 65,
                marks: marks(1, 1, 0, 0),
              }),
            },
          ],
        },
      ],
    },
  ],
};

const ref = (id: number, code: string, name: string | undefined, classId: number) => ({
  participantTestId: id,
  code,
  ...(name ? { participantName: name } : {}),
  schoolId: 101,
  classId,
  subjectTestId: 31,
  testDate: '2026-04-10',
});

export const control: ReportControl = {
  generatedAt: GENERATED,
  filters: FILTERS,
  thresholds: {
    fastFinishShare: 0.1,
    offlineGapSeconds: 300,
    integrityLeaves: 3,
    similarMinSharedWrong: 3,
    similarMinShare: 0.75,
  },
  attendance: [
    {
      subjectTestId: 31,
      subjectTestName: 'Математика, 7 класс',
      schoolId: 101,
      schoolName: 'Школа № 1',
      classId: 11,
      className: '7 «А»',
      testDate: '2026-04-10',
      registered: 5,
      annulled: 0,
      tookPart: 4,
      absent: 1,
      pending: 0,
      finished: 3,
      unfinished: 1,
    },
  ],
  unfinished: [
    {
      ...ref(501, 'R-0005', 'Петров Пётр Петрович', 11),
      examWorkId: 905,
      status: 'paused',
      startedAt: '2026-04-10T07:00:00.000Z',
      deadlineAt: '2026-04-10T07:45:00.000Z',
    },
  ],
  anomalies: [
    {
      kind: 'fast_finish',
      ...ref(502, 'R-0001', 'Андреева Анна Ивановна', 11),
      examWorkId: 901,
      usedSeconds: 180,
      limitSeconds: 2700,
    },
    {
      kind: 'offline_gap',
      ...ref(503, 'R-0002', 'Борисов Борис Олегович', 11),
      examWorkId: 902,
      gaps: 2,
      longestSeconds: 420,
      totalSeconds: 720,
    },
    {
      kind: 'integrity_events',
      ...ref(503, 'R-0002', 'Борисов Борис Олегович', 11),
      examWorkId: 902,
      leaves: 5,
      events: { blur: 3, visibility_hidden: 2, offline: 2, online: 2 },
    },
    {
      kind: 'similar_answers',
      ...ref(504, 'R-0003', undefined, 11),
      examWorkId: 903,
      other: {
        participantTestId: 505,
        examWorkId: 904,
        code: 'R-0004',
        participantName: 'Васильева Вера Павловна',
      },
      sharedWrong: 4,
      bothWrong: 5,
      compared: 10,
    },
  ],
};

/** With the paging fields of the paged answer (a parser of the unpaged one drops them). */
export const detailed = {
  total: 2,
  page: 1,
  pageSize: 1000,
  rows: [
    {
      participantTestId: 502,
      code: 'R-0001',
      surname: 'Андреева',
      schoolId: 101,
      classId: 11,
      variant: 1,
      primaryScore: 17,
      maxScore: 20,
      percent: 85,
      mark: '5',
      level: 'Повышенный',
      tasks: [
        { position: 1, taskId: 701, score: 1, maxScore: 1 },
        { position: 2, taskId: 702, score: 0, maxScore: 2 },
        { position: 3, taskId: 703, score: 16, maxScore: 17 },
      ],
    },
    {
      participantTestId: 504,
      code: 'R-0003',
      schoolId: 101,
      classId: 12,
      variant: 2,
      primaryScore: 9,
      maxScore: 20,
      percent: 45,
      mark: '3',
      level: 'Базовый',
      tasks: [
        { position: 1, taskId: 711, score: 1, maxScore: 1 },
        { position: 2, taskId: 712, score: 2, maxScore: 2 },
        { position: 3, taskId: 713, score: null, maxScore: 17 },
      ],
    },
  ],
} as ReportDetailed;

export const specification: ReportSpecification = {
  generatedAt: GENERATED,
  filters: FILTERS,
  specification: { id: 61, name: 'Кодификатор математики 7' },
  elements: [
    {
      id: 1,
      parentId: null,
      code: '1',
      name: 'Числа и вычисления',
      kind: 'section',
      depth: 0,
      taskIds: [701, 702],
    },
    { id: 2, parentId: 1, code: '1.1', name: 'Дроби', kind: 'element', depth: 1, taskIds: [701] },
    { id: 3, parentId: null, code: '2', name: 'Геометрия', kind: 'section', depth: 0, taskIds: [] },
  ],
  rows: [
    {
      level: 'total',
      schoolId: null,
      schoolName: null,
      classId: null,
      className: null,
      works: 7,
      cells: [
        { elementId: 1, earned: 14, max: 21, percent: 66.7 },
        { elementId: 2, earned: 6, max: 7, percent: 85.7 },
        { elementId: 3, earned: 0, max: 0, percent: null },
      ],
    },
    {
      level: 'school',
      schoolId: 101,
      schoolName: 'Школа № 1',
      classId: null,
      className: null,
      works: 5,
      cells: [
        { elementId: 1, earned: 12, max: 15, percent: 80 },
        { elementId: 2, earned: 5, max: 5, percent: 100 },
        { elementId: 3, earned: 0, max: 0, percent: null },
      ],
    },
    {
      level: 'school',
      schoolId: 102,
      schoolName: 'Школа № 2',
      classId: null,
      className: null,
      works: 2,
      cells: [
        { elementId: 1, earned: 2, max: 6, percent: 33.3 },
        { elementId: 2, earned: 1, max: 2, percent: 50 },
        { elementId: 3, earned: 0, max: 0, percent: null },
      ],
    },
    {
      level: 'class',
      schoolId: 101,
      schoolName: 'Школа № 1',
      classId: 11,
      className: '7 «А»',
      works: 3,
      cells: [
        { elementId: 1, earned: 8, max: 9, percent: 88.9 },
        { elementId: 2, earned: 3, max: 3, percent: 100 },
        { elementId: 3, earned: 0, max: 0, percent: null },
      ],
    },
  ],
};

export const protocol: ReportProtocol = {
  generatedAt: GENERATED,
  diagnostic: { id: 5, code: 'DEMO-2026', name: 'Демонстрационная диагностика' },
  room: {
    schoolId: 101,
    schoolName: 'Школа № 1',
    buildingId: 1,
    buildingName: 'Корпус 1',
    buildingAddress: 'ул. Ленина, 1',
    classId: 11,
    className: '7 «А»',
  },
  organizers: [{ userId: 3, name: 'Волкова Ирина Сергеевна' }],
  sittings: [
    {
      subjectTestId: 31,
      subjectTestName: 'Математика, 7 класс',
      testDate: '2026-04-10',
      durationMinutes: 45,
      present: 1,
      absent: 1,
      startedAt: '2026-04-10T07:00:00.000Z',
      finishedAt: '2026-04-10T07:40:00.000Z',
      participants: [
        {
          participantTestId: 502,
          code: 'R-0001',
          participantName: 'Андреева Анна Ивановна',
          className: '7 «А»',
          attendance: 'present',
          startedAt: '2026-04-10T07:00:00.000Z',
          finishedAt: '2026-04-10T07:40:00.000Z',
          finishReason: 'timeout',
          answerMode: 'online',
        },
        {
          participantTestId: 506,
          code: 'R-0006',
          participantName: 'Григорьев Глеб Ильич',
          className: '7 «А»',
          attendance: 'absent',
          startedAt: null,
          finishedAt: null,
          finishReason: null,
          answerMode: null,
        },
      ],
      pauses: [],
      timeChanges: [],
      incidents: [],
    },
  ],
};

const expected = (shift: number) =>
  [-2, -1, 0, 1, 2].map((ability) => ({
    ability,
    tasksSolved: 1 + ability * 0.5,
    percent: Math.round(100 / (1 + Math.exp(-(ability - shift)))),
  }));

export const itemAnalysisAnswer: ItemAnalysis = {
  subjectTestId: 31,
  diagnosticId: 5,
  withheld: false,
  participants: 40,
  alpha: 0.78,
  variants: [
    {
      variantId: 81,
      number: 1,
      participants: 20,
      maxScore: 4,
      meanScore: 2.4,
      sd: 1.1,
      alpha: 0.76,
      taskIds: [701, 702, 703],
      totalDistribution: [
        { score: 0, count: 1 },
        { score: 2, count: 10 },
        { score: 4, count: 9 },
      ],
      meanDifficulty: -0.2,
      expected: expected(-0.2),
    },
    {
      variantId: 82,
      number: 2,
      participants: 20,
      maxScore: 4,
      meanScore: 2.1,
      sd: 1.2,
      alpha: 0.8,
      taskIds: [701, 712, 703],
      totalDistribution: [
        { score: 1, count: 8 },
        { score: 3, count: 12 },
      ],
      meanDifficulty: 0.3,
      expected: expected(0.3),
    },
  ],
  tasks: [
    {
      taskId: 701,
      answerType: 'single_choice',
      maxScore: 1,
      variantIds: [81, 82],
      n: 40,
      facility: 0.85,
      meanScore: 0.85,
      sd: 0.36,
      fullMarks: 0.85,
      discrimination: 0.42,
      upperLower: 0.5,
      alphaIfDeleted: 0.7,
      scoreDistribution: [
        { score: 0, count: 6 },
        { score: 1, count: 34 },
      ],
      distractors: {
        options: [
          { option: 'o1', text: 'x^2 < 0', key: false, share: 0.1, upper: 0, lower: 0.25 },
          { option: 'o2', text: 'x^2 ≥ 0 при любом x', key: true, share: 0.85, upper: 1, lower: 0.6 },
          { option: 'o3', text: '', key: false, share: 0.05, upper: 0, lower: 0.15 },
        ],
        noAnswer: 0,
      },
      rasch: { difficulty: -1.2, se: 0.3, infit: 0.95, outfit: 1.02 },
      flags: [],
    },
    {
      taskId: 702,
      answerType: 'short_text',
      maxScore: 1,
      variantIds: [81],
      n: 20,
      facility: 0.3,
      meanScore: 0.3,
      sd: 0.46,
      fullMarks: 0.3,
      discrimination: -0.15,
      upperLower: -0.1,
      alphaIfDeleted: 0.81,
      scoreDistribution: [
        { score: 0, count: 14 },
        { score: 1, count: 6 },
      ],
      distractors: null,
      rasch: { difficulty: 1.1, se: 0.4, infit: 1.45, outfit: 1.6 },
      flags: ['negative_discrimination', 'misfit'],
    },
    {
      taskId: 712,
      answerType: 'number',
      maxScore: 1,
      variantIds: [82],
      n: 20,
      facility: 0.5,
      meanScore: 0.5,
      sd: 0.5,
      fullMarks: 0.5,
      discrimination: 0.35,
      upperLower: 0.4,
      alphaIfDeleted: 0.72,
      scoreDistribution: [
        { score: 0, count: 10 },
        { score: 1, count: 10 },
      ],
      distractors: null,
      rasch: { difficulty: 0.1, se: 0.35, infit: 1.0, outfit: 0.98 },
      flags: [],
    },
    {
      taskId: 703,
      answerType: 'extended_text',
      maxScore: 2,
      variantIds: [81, 82],
      n: 40,
      facility: 0.55,
      meanScore: 1.1,
      sd: 0.8,
      fullMarks: 0.4,
      discrimination: 0.5,
      upperLower: 0.6,
      alphaIfDeleted: 0.65,
      scoreDistribution: [
        { score: 0, count: 10 },
        { score: 1, count: 14 },
        { score: 2, count: 16 },
      ],
      distractors: null,
      rasch: { difficulty: 0.4, se: 0.3, infit: 1.05, outfit: 1.1 },
      flags: [],
    },
  ],
  rasch: {
    model: 'rasch_dichotomous',
    estimation: 'cml',
    linking: 'common_items',
    iterations: 7,
    converged: true,
    logLikelihood: -61.2,
    personsUsed: 36,
    excludedTaskIds: [],
    wrightMap: [
      { from: -1.5, to: -1, persons: 4, taskIds: [701] },
      { from: -1, to: -0.5, persons: 8, taskIds: [] },
      { from: -0.5, to: 0, persons: 12, taskIds: [] },
      { from: 0, to: 0.5, persons: 10, taskIds: [712, 703] },
      { from: 0.5, to: 1, persons: 4, taskIds: [] },
      { from: 1, to: 1.5, persons: 2, taskIds: [702] },
    ],
  },
};

// ------------------------------------------------------------------ the pickers' lists

export const diagnosticListItem = {
  id: 5,
  code: 'DEMO-2026',
  name: 'Демонстрационная диагностика',
  kind: 'diagnostic',
  startsAt: '2026-04-10T06:00:00.000Z',
  endsAt: '2026-04-10T15:00:00.000Z',
  parallels: [7],
  status: 'running',
  resultsPublished: false,
  subjectTests: [
    { id: 31, name: 'Математика, 7 класс', parallels: [7] },
    { id: 32, name: 'Русский язык, 7 класс', parallels: [7] },
  ],
  participantCount: 17,
};

const staffClasses = {
  items: [
    {
      id: 11,
      name: '7 «А»',
      letter: 'А',
      parallel: 7,
      buildingId: 1,
      buildingName: 'Корпус 1',
      studentCount: 5,
    },
    {
      id: 12,
      name: '7 «Б»',
      letter: 'Б',
      parallel: 7,
      buildingId: 1,
      buildingName: 'Корпус 1',
      studentCount: 3,
    },
  ],
  total: 2,
};

const subjectTestOptions = [
  {
    id: 31,
    name: 'Математика, 7 класс',
    subjectId: 1,
    subjectName: 'Математика',
    kind: 'diagnostic',
    parallels: [7],
    durationMinutes: 45,
    variantCount: 2,
    specificationId: 61,
  },
  {
    id: 32,
    name: 'Русский язык, 7 класс',
    subjectId: 2,
    subjectName: 'Русский язык',
    kind: 'diagnostic',
    parallels: [7],
    durationMinutes: 45,
    variantCount: 1,
    specificationId: null,
  },
];

const specificationOptions = [
  {
    id: 61,
    name: 'Кодификатор математики 7',
    subjectId: 1,
    subjectName: 'Математика',
    parallel: 7,
    description: null,
    elementCount: 3,
  },
  {
    id: 62,
    name: 'Кодификатор русского языка 7',
    subjectId: 2,
    subjectName: 'Русский язык',
    parallel: 7,
    description: null,
    elementCount: 10,
  },
];

const adminDiagnostic = {
  id: 5,
  code: 'DEMO-2026',
  name: 'Демонстрационная диагностика',
  kind: 'diagnostic',
  createdByRole: 'admin',
  createdByLogin: 'admin',
  startsAt: '2026-04-10T06:00:00.000Z',
  endsAt: '2026-04-10T15:00:00.000Z',
  parallels: [7],
  status: 'running',
  resultsPublished: false,
  publishedAt: null,
  subjectTests: [
    { id: 31, name: 'Математика, 7 класс' },
    { id: 32, name: 'Русский язык, 7 класс' },
  ],
  schoolCount: 2,
  participantTestCount: 17,
  finishedWorkCount: 8,
};

const adminSchool = (id: number, name: string) => ({
  id,
  name,
  code: `S${id}`,
  ooName: 'ГБОУ',
  participantTestCount: 8,
  finishedWorkCount: 4,
});

export const reportAnswers = {
  common,
  cons,
  control,
  detailed,
  specification,
  protocol,
};

/** The signed-in user, the pickers' lists of every role and the given report answers. */
export function reportsServer(user: object, extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, user),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'POST /api/coordinator/diagnostic/list': () => json(200, { items: [diagnosticListItem], total: 1 }),
    'POST /api/organizator/diagnostic/list': () => json(200, { items: [diagnosticListItem], total: 1 }),
    'POST /api/coordinator/class/list': () => json(200, staffClasses),
    'POST /api/organizator/class/list': () => json(200, staffClasses),
    'POST /api/organizator/buildings/list': () =>
      json(200, {
        items: [{ id: 1, name: 'Корпус 1', address: 'ул. Ленина, 1', classCount: 2, studentCount: 8 }],
        total: 1,
      }),
    'POST /api/admin/diagnostics/list': () => json(200, { items: [adminDiagnostic], total: 1 }),
    'GET /api/admin/diagnostics/5': () =>
      json(200, {
        ...adminDiagnostic,
        schools: [adminSchool(101, 'Школа № 1'), adminSchool(102, 'Школа № 2')],
      }),
    'GET /api/admin/schools/101/classes': () =>
      json(
        200,
        staffClasses.items.map((c) => ({ ...c, schoolId: 101 })),
      ),
    'POST /api/admin/schools/list': () =>
      json(200, {
        items: [101, 102].map((id) => ({
          id,
          ooId: 1,
          ooName: 'ГБОУ',
          name: `Школа № ${id - 100}`,
          shortName: null,
          code: `S${id}`,
          buildingCount: 1,
          classCount: 2,
          studentCount: 8,
          createdAt: GENERATED,
        })),
        total: 2,
      }),
    'POST /api/ugnik/diagnostic/list': () =>
      json(200, {
        items: [
          {
            id: 7,
            code: 'I-2026-ABC123',
            name: 'Проверка математики',
            kind: 'inspection',
            startsAt: '2026-03-01T06:00:00.000Z',
            endsAt: '2026-03-05T15:00:00.000Z',
            parallels: [7],
            createdBy: 5,
            participantCount: 10,
            examWorkCount: 8,
            resultsPublished: true,
            createdAt: '2026-02-01T10:00:00.000Z',
            subjectTestCount: 1,
            schoolCount: 1,
          },
        ],
        total: 1,
      }),
    'GET /api/ugnik/diagnostic/7': () =>
      json(200, {
        id: 7,
        code: 'I-2026-ABC123',
        name: 'Проверка математики',
        kind: 'inspection',
        startsAt: '2026-03-01T06:00:00.000Z',
        endsAt: '2026-03-05T15:00:00.000Z',
        parallels: [7],
        subjectTests: [{ id: 31, name: 'Математика, 7 класс' }],
        schools: [{ id: 102, name: 'Школа № 2' }],
        createdBy: 5,
        participantCount: 10,
        examWorkCount: 8,
        resultsPublished: true,
        createdAt: '2026-02-01T10:00:00.000Z',
      }),
    'POST /api/ugnik/class/list': () =>
      json(200, {
        items: [
          {
            id: 21,
            schoolId: 102,
            schoolName: 'Школа № 2',
            buildingId: null,
            parallelId: 7,
            letter: 'В',
            name: '7 «В»',
          },
        ],
        total: 1,
      }),
    'GET /api/createDiagnostic/subjectTests': () => json(200, subjectTestOptions),
    'GET /api/createDiagnostic/specifications': () => json(200, specificationOptions),
    'GET /api/reports/common': () => json(200, common),
    'GET /api/reports/cons': () => json(200, cons),
    'GET /api/reports/control': () => json(200, control),
    'GET /api/reports/detailed': () => json(200, detailed),
    'GET /api/reports/specification': () => json(200, specification),
    'GET /api/reports/diagnostic/protocol': () => json(200, protocol),
    'GET /api/reports/itemAnalysis': () => json(200, itemAnalysisAnswer),
    ...extra,
  });
}

/** The query of the last call to a report, as a plain object. */
export function lastQuery(calls: { url: string }[]): Record<string, string> {
  const last = calls.at(-1);
  if (!last) return {};
  return Object.fromEntries(new URL(last.url, 'http://x').searchParams.entries());
}

/** A report call that answers its JSON, or the file when a `format` is asked for. */
export const jsonOrFile =
  (body: unknown, file: (url: string) => Response): Handler =>
  ({ url }) =>
    /[?&]format=(xlsx|pdf)/.test(url) ? file(url) : json(200, body);

/** A file answer of a download. */
export const fileAnswer = (name: string, bytes = 2048) =>
  new Response(new Uint8Array(bytes), {
    status: 200,
    headers: {
      'content-type': 'application/octet-stream',
      'content-length': String(bytes),
      'content-disposition': `attachment; filename="${name}"`,
    },
  });

/** Opens a picker by its label and chooses an option of its own list (see admin-org.test). */
export async function pick(
  label: RegExp | string,
  option: RegExp | string,
  scope: HTMLElement = document.body,
) {
  const input = within(scope).getByRole('combobox', { name: label, hidden: true });
  await userEvent.click(input);
  const listbox = await waitFor(() => {
    const found = document.getElementById(input.getAttribute('aria-controls') ?? '');
    if (!found) throw new Error(`no list of ${String(label)}`);
    return found;
  });
  await userEvent.click(await within(listbox).findByRole('option', { name: option, hidden: true }));
}

/** Renders the app at a report address and waits for the page (loaded lazily, with its charts). */
export async function renderReports(path: string) {
  const view = renderApp(path);
  await screen.findByRole('heading', { level: 1 }, { timeout: 15_000 });
  return view;
}

/** A report queue item (GET /api/reports/queue/{id}) in the contract's shape. */
export function queueItem(over: Record<string, unknown> = {}) {
  return {
    id: 41,
    type: 'report',
    status: 'running',
    diagnosticId: 5,
    diagnosticCode: 'DEMO-2026',
    diagnosticName: 'Демонстрационная диагностика',
    params: {},
    progress: 0,
    progressText: 'Детальный отчёт: 0 из 12 000',
    result: null,
    resultFileId: null,
    error: null,
    errorCode: null,
    attempts: 1,
    maxAttempts: 3,
    runAfter: GENERATED,
    createdBy: 2,
    createdAt: GENERATED,
    startedAt: GENERATED,
    finishedAt: null,
    ...over,
  };
}
