/**
 * Answers of the contract's shapes for the content pages' tests, and a fake server answering the
 * calls every content page makes (user, session, subjects, exams, groups, specifications).
 */
import { configure } from '@testing-library/react';
import { fakeServer, json, type Handler } from '../../../test/test-app';

// These pages render the whole app (router, layout, KaTeX): on a busy machine the first page of a
// file takes longer than the default second to appear.
configure({ asyncUtilTimeout: 5000 });

// The rich-text fields (tiptap, ProseMirror) ask jsdom for what it lacks: fonts and layout.
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
  });
const noRect = { x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON: () => ({}) };
Range.prototype.getBoundingClientRect ??= () => noRect as DOMRect;
Range.prototype.getClientRects ??= () => [] as unknown as DOMRectList;
document.elementFromPoint ??= () => null;

export const admin = { id: 1, login: 'admin', displayName: 'Администратор Платформы', roles: ['admin'] };
const at = '2026-03-01T10:00:00.000Z';

export const subject = (id: number, name: string, extra = {}) => ({
  id,
  name,
  code: null,
  examCount: 1,
  taskCount: 3,
  ...extra,
});

export const exam = (id: number, subjectId: number, kind = 'diagnostic', name = 'Диагностика') => ({
  id,
  subjectId,
  kind,
  name,
});

export const subjectTest = (id: number, extra = {}) => ({
  id,
  subjectId: 1,
  subjectName: 'Математика',
  subjectExamId: 10,
  kind: 'diagnostic',
  name: 'Математика 7',
  status: 'draft',
  parallels: [7],
  durationMinutes: 45,
  testGroupId: null,
  description: null,
  procedureHtml: null,
  instructionHtml: null,
  markScale: [] as { mark: string; minScore: number; level?: string | null }[],
  levelBands: [] as { level: string; minPercent: number }[],
  specificationId: null as number | null,
  sourceId: null,
  isOpen: false,
  allowCalculator: false,
  variantCount: 1,
  createdAt: at,
  updatedAt: null as string | null,
  ...extra,
});

export const slot = (position: number, taskId: number, extra = {}) => ({
  variantTaskId: 500 + taskId,
  position,
  taskId,
  answerType: 'single_choice',
  title: `Задание ${taskId}`,
  maxScore: 1,
  taskVersion: 1,
  ...extra,
});

export const variant = (id: number, number: number, tasks = [slot(1, 31), slot(2, 32)], extra = {}) => ({
  id,
  subjectTestId: 3,
  number,
  previousVersionId: null,
  supersededAt: null,
  usedByWorks: false,
  maxScore: tasks.reduce((s, t) => s + t.maxScore, 0),
  tasks,
  ...extra,
});

export const task = (id: number, extra = {}) => ({
  id,
  answerType: 'single_choice',
  html: `<p>Сколько будет 2+2? (задание ${id})</p>`,
  content: {
    options: [
      { id: 'a', html: '3' },
      { id: 'b', html: '4' },
    ],
    shuffle: false,
  },
  reference: { correct: 'b' },
  scoring: { method: 'all_or_nothing' },
  maxScore: 1,
  solutionHtml: null,
  criteria: null,
  htmlContainerId: null,
  subjectId: 1,
  category: 'Арифметика',
  title: `Задание ${id}`,
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

export const taskItem = (id: number, extra = {}) => ({
  id,
  answerType: 'single_choice',
  subjectId: 1,
  category: 'Арифметика',
  title: `Задание ${id}`,
  text: `Сколько будет 2+2? (задание ${id})`,
  maxScore: 1,
  version: 1,
  updatedAt: null,
  createdAt: at,
  ...extra,
});

export const element = (id: number, code: string, name: string, extra = {}) => ({
  id,
  code,
  name,
  kind: 'content',
  parentId: null as number | null,
  position: 0,
  depth: 0,
  ...extra,
});

export const specification = (id: number, elements: ReturnType<typeof element>[] = [], extra = {}) => ({
  id,
  name: 'Кодификатор по математике, 7 класс',
  subjectId: 1,
  parallel: 7,
  description: null,
  elementCount: elements.length,
  elements,
  ...extra,
});

export const { elements: _, ...specSummary } = specification(4);

/** The calls every content page makes, answered; `extra` adds or replaces handlers. */
export function contentServer(extra: Record<string, Handler> = {}) {
  return fakeServer({
    'GET /api/user': () => json(200, admin),
    'GET /api/user/sessionTime': () => json(200, '2030-01-01T12:00:00.000Z'),
    'GET /api/admin/content/subjects': () =>
      json(200, [subject(1, 'Математика', { code: 'MATH' }), subject(2, 'Физика', { examCount: 0 })]),
    'GET /api/admin/content/subjects/1/exams': () => json(200, [exam(10, 1)]),
    'GET /api/admin/content/subjects/2/exams': () => json(200, []),
    'GET /api/admin/content/testGroups': () => json(200, [{ id: 5, name: 'Функциональная грамотность' }]),
    'GET /api/admin/content/specifications': () => json(200, [specSummary]),
    ...extra,
  });
}

export { pick } from '../../../test/pick';
