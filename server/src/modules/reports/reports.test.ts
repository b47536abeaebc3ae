import {
  CONTROL_HEADERS_RU,
  DETAILED_HEADERS_RU,
  STATS_HEADERS_RU,
  UNFINISHED_STATUS_RU,
} from '@attesta/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ReportCommon,
  ReportCons,
  ReportControl,
  ReportDetailed,
  ReportSpecification,
  ReportStats,
} from '@attesta/contract';
import { createTestApp, type Session, type TestApp } from '../../../test/helpers.js';
import { createDiagnosticFixture } from '../../../test/diagnostic-fixtures.js';
import { readPdf } from '../../../test/pdf.js';
import { createReportWorld, FORMULA_SURNAME, register, sit, type ReportWorld } from './test-support.js';

let t: TestApp;
let w: ReportWorld;

const get = (url: string, session?: Session) =>
  t.app.inject({ method: 'GET', url, ...(session ? { headers: session.headers } : {}) });
const json = async <T>(url: string, session: Session): Promise<T> => {
  const res = await get(url, session);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};

beforeAll(async () => {
  t = await createTestApp();
  w = await createReportWorld(t.app);
});
afterAll(async () => t.close());

/** Figures with every count zero unless given. */
const stats = (s: Partial<ReportStats>): ReportStats => ({
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
  ...s,
});
const marks = (m2: number, m3: number, m4: number, m5: number) => [
  { mark: '2', count: m2 },
  { mark: '3', count: m3 },
  { mark: '4', count: m4 },
  { mark: '5', count: m5 },
];

// Every figure below is computed by hand from the world of test-support.ts.
const MATH_TOTAL = stats({
  registered: 10, // p1–p10
  annulled: 1, // p9
  tookPart: 7, // p1 p2 p4 p5 p6 p7 p8
  absent: 1, // p3
  pending: 1, // p10 (tomorrow)
  finished: 6, // p1 p2 p4 p6 p7 p8
  unfinished: 1, // p5
  scored: 5, // p1 p2 p4 p6 p7
  notScored: 1, // p8 awaits experts
  meanScore: 3.6, // (5 + 4 + 2 + 6 + 1) / 5
  meanPercent: 60, // (83.3 + 66.7 + 33.3 + 100 + 16.7) / 5
  marks: marks(1, 1, 1, 2),
  levels: [
    { level: 'высокий', count: 2 },
    { level: 'повышенный', count: 1 },
    { level: 'базовый', count: 1 },
    { level: 'низкий', count: 1 },
  ],
});
const SCHOOL_A = stats({
  registered: 6, // p1 p2 p3 p4 p5 p10
  tookPart: 4,
  absent: 1,
  pending: 1,
  finished: 3,
  unfinished: 1,
  scored: 3,
  meanScore: 3.67, // 11 / 3
  meanPercent: 61.1, // 183.3 / 3
  marks: marks(0, 1, 1, 1),
  levels: [
    { level: 'высокий', count: 1 },
    { level: 'повышенный', count: 1 },
    { level: 'базовый', count: 1 },
  ],
});
const A_7A = stats({
  registered: 4, // p1 p2 p3 p10
  tookPart: 2,
  absent: 1,
  pending: 1,
  finished: 2,
  scored: 2,
  meanScore: 4.5,
  meanPercent: 75,
  marks: marks(0, 0, 1, 1),
  levels: [
    { level: 'высокий', count: 1 },
    { level: 'повышенный', count: 1 },
  ],
});
const A_7B = stats({
  registered: 2, // p4 p5
  tookPart: 2,
  finished: 1,
  unfinished: 1,
  scored: 1,
  meanScore: 2,
  meanPercent: 33.3,
  marks: marks(0, 1, 0, 0),
  levels: [{ level: 'базовый', count: 1 }],
});
const SCHOOL_B = stats({
  registered: 4, // p6 p7 p8 p9
  annulled: 1,
  tookPart: 3,
  finished: 3,
  scored: 2,
  notScored: 1,
  meanScore: 3.5,
  meanPercent: 58.35,
  marks: marks(1, 0, 0, 1),
  levels: [
    { level: 'высокий', count: 1 },
    { level: 'низкий', count: 1 },
  ],
});

describe('GET /api/reports/common', () => {
  it('per subject test: every figure of the hand-computed world', async () => {
    const r = await json<ReportCommon>(
      `/api/reports/common?diagnosticId=${w.diagnosticId}&subjectTestId=${w.math}`,
      w.admin,
    );
    expect(r.filters).toEqual({
      diagnosticId: w.diagnosticId,
      subjectTestId: w.math,
      schoolId: null,
      classId: null,
      startDate: null,
      endDate: null,
    });
    expect(r.items).toEqual([
      {
        subjectTestId: w.math,
        subjectTestName: 'Математика',
        maxScore: 6,
        firstDate: w.yesterday,
        lastDate: w.tomorrow,
        stats: MATH_TOTAL,
      },
    ]);
  });

  it('every subject test of the diagnostic; the period leaves out tomorrow’s registration', async () => {
    const r = await json<ReportCommon>(
      `/api/reports/common?diagnosticId=${w.diagnosticId}&startDate=${w.yesterday}&endDate=${w.yesterday}`,
      w.admin,
    );
    expect(r.items.map((i) => i.subjectTestName)).toEqual(['Математика', 'Физика']);
    expect(r.items[0]!.stats).toEqual({ ...MATH_TOTAL, registered: 9, pending: 0 });
    expect(r.items[0]!.lastDate).toBe(w.yesterday);
    // Физика: q1 and q2, both 1 of 4.
    expect(r.items[1]!.stats).toMatchObject({
      registered: 2,
      tookPart: 2,
      finished: 2,
      scored: 2,
      meanScore: 1,
      meanPercent: 25,
    });
    // A period without registrations.
    const empty = await json<ReportCommon>(
      '/api/reports/common?startDate=2001-01-01&endDate=2001-01-31',
      w.admin,
    );
    expect(empty.items).toEqual([]);
  });

  it('a coordinator sees their own school only; the xlsx and PDF hold the same figures', async () => {
    const r = await json<ReportCommon>(`/api/reports/common?subjectTestId=${w.math}`, w.coordA);
    expect(r.items).toHaveLength(1);
    expect(r.items[0]!.stats).toEqual(SCHOOL_A);
    const b = await json<ReportCommon>(`/api/reports/common?subjectTestId=${w.math}`, w.coordB);
    expect(b.items[0]!.stats).toEqual(SCHOOL_B);

    const xlsx = await get(
      `/api/reports/common?subjectTestId=${w.math}&diagnosticId=${w.diagnosticId}&format=xlsx`,
      w.admin,
    );
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const rows = await sheetRows(xlsx.rawPayload);
    const header = rows.find((row) => row[0] === 'Тест')!;
    const line = rows.find((row) => row[0] === 'Математика')!;
    const cell = (name: string) => line[header.indexOf(name)];
    expect(cell('Зарегистрировано')).toBe(10);
    expect(cell('Приступили')).toBe(7);
    expect(cell('Средний балл')).toBe(3.6);
    expect(cell('Средний % выполнения')).toBe(60);
    expect(cell('Отметка «5»')).toBe(2);
    expect(cell('Уровень: низкий')).toBe(1);

    const pdf = await get(
      `/api/reports/common?subjectTestId=${w.math}&diagnosticId=${w.diagnosticId}&format=pdf`,
      w.admin,
    );
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = (await readPdf(pdf.rawPayload)).pages.join('\n');
    expect(text).toContain('Общий отчёт по результатам');
    expect(text).toContain('Математика');
    expect(text).toContain('3,6');
  });
});

describe('GET /api/reports/cons', () => {
  it('by school and class with the total, every figure', async () => {
    const r = await json<ReportCons>(
      `/api/reports/cons?diagnosticId=${w.diagnosticId}&subjectTestId=${w.math}`,
      w.admin,
    );
    expect(r.sort).toBe('name');
    expect(r.items).toHaveLength(1);
    const item = r.items[0]!;
    expect(item.total).toEqual(MATH_TOTAL);
    expect(item.maxScore).toBe(6);
    expect(item.schools.map((s) => s.schoolId)).toEqual([w.a.schoolId, w.b.schoolId]);
    const [a, b] = item.schools;
    expect(a!.stats).toEqual(SCHOOL_A);
    expect(a!.classes).toEqual([
      { classId: w.a.classId, className: '7 «А»', stats: A_7A },
      { classId: w.a.class7b, className: '7 «Б»', stats: A_7B },
    ]);
    expect(b!.stats).toEqual(SCHOOL_B);
    expect(b!.classes).toEqual([{ classId: w.b.classId, className: '7 «А»', stats: SCHOOL_B }]);
  });

  it('sorts schools and classes by a figure, nulls last', async () => {
    const base = `/api/reports/cons?diagnosticId=${w.diagnosticId}&subjectTestId=${w.math}`;
    const desc = await json<ReportCons>(`${base}&sort=meanScore&dir=desc`, w.admin);
    expect(desc.items[0]!.schools.map((s) => s.stats.meanScore)).toEqual([3.67, 3.5]);
    expect(desc.items[0]!.schools[0]!.classes.map((c) => c.stats.meanScore)).toEqual([4.5, 2]);
    const asc = await json<ReportCons>(`${base}&sort=meanPercent&dir=asc`, w.admin);
    expect(asc.items[0]!.schools.map((s) => s.schoolId)).toEqual([w.b.schoolId, w.a.schoolId]);
    const byName = await json<ReportCons>(`${base}&sort=name&dir=desc`, w.admin);
    expect(byName.items[0]!.schools.map((s) => s.schoolId)).toEqual([w.b.schoolId, w.a.schoolId]);
    expect((await get(`${base}&sort=surname`, w.admin)).statusCode).toBe(400);
  });

  it('a coordinator’s total is their school; xlsx and PDF downloads', async () => {
    const r = await json<ReportCons>(
      `/api/reports/cons?diagnosticId=${w.diagnosticId}&subjectTestId=${w.math}`,
      w.coordA,
    );
    expect(r.items[0]!.total).toEqual(SCHOOL_A);
    expect(r.items[0]!.schools.map((s) => s.schoolId)).toEqual([w.a.schoolId]);
    const xlsx = await get(
      `/api/reports/cons?diagnosticId=${w.diagnosticId}&subjectTestId=${w.math}&format=xlsx`,
      w.admin,
    );
    const rows = await sheetRows(xlsx.rawPayload);
    const header = rows.find((row) => row[0] === 'Тест')!;
    const classLine = rows.find((row) => row[1] === 'Класс' && row[3] === '7 «Б»')!;
    expect(classLine[header.indexOf('Не завершили')]).toBe(1);
    expect(classLine[header.indexOf('Средний балл')]).toBe(2);
    const pdf = await get(`/api/reports/cons?diagnosticId=${w.diagnosticId}&format=pdf`, w.admin);
    const text = (await readPdf(pdf.rawPayload)).pages.join('\n');
    expect(text).toContain('Сводный отчёт по школам и классам');
    expect(text).toContain('Итого');
    expect(text).toContain('Физика');
  });
});

describe('GET /api/reports/detailed', () => {
  it('one row per scored result with its task scores, in the fixed shape', async () => {
    const r = await json<ReportDetailed>(
      `/api/reports/detailed?diagnosticId=${w.diagnosticId}&subjectTestId=${w.math}`,
      w.admin,
    );
    expect(Object.keys(r)).toEqual(['rows', 'total', 'page', 'pageSize']);
    expect(r).toMatchObject({ total: 5, page: 1, pageSize: 1000 });
    const tasks = (variant: { taskIds: number[] }, scores: number[]) =>
      scores.map((score, i) => ({
        position: i + 1,
        taskId: variant.taskIds[i]!,
        score,
        maxScore: [1, 1, 2, 2][i]!,
      }));
    expect(r.rows).toEqual([
      {
        participantTestId: w.p.p1.id,
        code: w.p.p1.code,
        surname: 'Иванов',
        schoolId: w.a.schoolId,
        classId: w.a.classId,
        variant: 1,
        primaryScore: 5,
        maxScore: 6,
        percent: 83.3,
        mark: '5',
        level: 'высокий',
        tasks: tasks(w.v1, [1, 1, 2, 1]),
      },
      {
        participantTestId: w.p.p2.id,
        code: w.p.p2.code,
        surname: 'Петрова',
        schoolId: w.a.schoolId,
        classId: w.a.classId,
        variant: 2,
        primaryScore: 4,
        maxScore: 6,
        percent: 66.7,
        mark: '4',
        level: 'повышенный',
        tasks: tasks(w.v2, [1, 0, 1, 2]),
      },
      {
        participantTestId: w.p.p4.id,
        code: w.p.p4.code,
        surname: 'Андреев',
        schoolId: w.a.schoolId,
        classId: w.a.class7b,
        variant: 1,
        primaryScore: 2,
        maxScore: 6,
        percent: 33.3,
        mark: '3',
        level: 'базовый',
        tasks: tasks(w.v1, [0, 1, 1, 0]),
      },
      {
        participantTestId: w.p.p6.id,
        code: w.p.p6.code,
        surname: 'Иванов',
        schoolId: w.b.schoolId,
        classId: w.b.classId,
        variant: 1,
        primaryScore: 6,
        maxScore: 6,
        percent: 100,
        mark: '5',
        level: 'высокий',
        tasks: tasks(w.v1, [1, 1, 2, 2]),
      },
      {
        participantTestId: w.p.p7.id,
        code: w.p.p7.code,
        surname: FORMULA_SURNAME,
        schoolId: w.b.schoolId,
        classId: w.b.classId,
        variant: 2,
        primaryScore: 1,
        maxScore: 6,
        percent: 16.7,
        mark: '2',
        level: 'низкий',
        tasks: tasks(w.v2, [0, 0, 1, 0]),
      },
    ]);
    // Never the activation code.
    expect(JSON.stringify(r)).not.toMatch(/[0-9A-Z]{5}-[0-9A-Z]{5}/);
  });

  it('xlsx: one sheet per subject test, a column per task, a surname that is a formula stays text', async () => {
    const res = await get(`/api/reports/detailed?diagnosticId=${w.diagnosticId}&format=xlsx`, w.admin);
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((s) => s.name)).toEqual(['Математика', 'Физика']);
    const values: unknown[] = [];
    wb.worksheets[0]!.eachRow((row) =>
      row.eachCell((cell) => {
        expect(cell.formula).toBeUndefined();
        values.push(cell.value);
      }),
    );
    expect(values).toContain(`'${FORMULA_SURNAME}`);
    expect(values).not.toContain(FORMULA_SURNAME);
    expect(values.filter((v) => typeof v === 'string' && /^[=+\-@]/.test(v))).toEqual([]);
    const rows = await sheetRows(res.rawPayload);
    const header = rows.find((row) => row[0] === 'Код участника')!;
    expect(header).toContain('Задание 3 (макс. 2)');
    const p4 = rows.find((row) => row[0] === w.p.p4.code)!;
    expect(p4[header.indexOf('Задание 2 (макс. 1)')]).toBe(1);
    expect(p4[header.indexOf('Первичный балл')]).toBe(2);
  });

  it('pages of the rows: page and pageSize, the total of every page', async () => {
    const page = (q: string) =>
      json<ReportDetailed>(
        `/api/reports/detailed?diagnosticId=${w.diagnosticId}&subjectTestId=${w.math}&${q}`,
        w.admin,
      );
    const ids = (r: ReportDetailed) => r.rows.map((x) => x.participantTestId);
    expect(ids(await page('pageSize=2'))).toEqual([w.p.p1.id, w.p.p2.id]);
    const second = await page('pageSize=2&page=2');
    expect(second).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(ids(second)).toEqual([w.p.p4.id, w.p.p6.id]);
    expect(ids(await page('pageSize=2&page=3'))).toEqual([w.p.p7.id]);
    expect(await page('pageSize=2&page=4')).toMatchObject({ rows: [], total: 5 });
    for (const q of ['pageSize=5001', 'pageSize=0', 'page=0', 'page=x'])
      expect((await get(`/api/reports/detailed?${q}`, w.admin)).statusCode, q).toBe(400);
  });

  it('a coordinator gets their school’s rows', async () => {
    const r = await json<ReportDetailed>(`/api/reports/detailed?subjectTestId=${w.math}`, w.coordB);
    expect(r.rows.map((x) => x.participantTestId)).toEqual([w.p.p6.id, w.p.p7.id]);
  });
});

describe('GET /api/reports/specification', () => {
  it('mastery per element in total, by school and by class; parents count each task once', async () => {
    const r = await json<ReportSpecification>(
      `/api/reports/specification?diagnosticId=${w.diagnosticId}&subjectTestId=${w.math}`,
      w.admin,
    );
    expect(r.specification.id).toBe(w.specId);
    const e = w.elements;
    expect(r.elements).toEqual([
      {
        id: e.algebra,
        parentId: null,
        code: '1',
        name: 'Алгебра',
        kind: 'content',
        depth: 0,
        taskIds: [w.v1.taskIds[2], w.v1.taskIds[3], w.v2.taskIds[2]].sort((a, b) => a! - b!),
      },
      {
        id: e.equations,
        parentId: e.algebra,
        code: '1.1',
        name: 'Уравнения',
        kind: 'content',
        depth: 1,
        taskIds: [w.v1.taskIds[2], w.v2.taskIds[2]],
      },
      {
        id: e.inequalities,
        parentId: e.algebra,
        code: '1.2',
        name: 'Неравенства',
        kind: 'content',
        depth: 1,
        taskIds: [w.v1.taskIds[2], w.v1.taskIds[3]],
      },
      {
        id: e.geometry,
        parentId: null,
        code: '2',
        name: 'Геометрия',
        kind: 'content',
        depth: 0,
        taskIds: [w.v1.taskIds[0], w.v2.taskIds[0]],
      },
    ]);
    // [earned, max] per element in the order Алгебра, Уравнения, Неравенства, Геометрия.
    const cells = (...pairs: [number, number, number | null][]) =>
      pairs.map(([earned, max, percent], i) => ({ elementId: r.elements[i]!.id, earned, max, percent }));
    expect(r.rows).toEqual([
      // p1 (3/4, 2/2, 3/4, 1/1) + p2 (1/2, 1/2, 0/0, 1/1) + p4 (1/4, 1/2, 1/4, 0/1) + p6 (4/4, 2/2, 4/4, 1/1) + p7 (1/2, 1/2, 0/0, 0/1)
      {
        level: 'total',
        schoolId: null,
        schoolName: null,
        classId: null,
        className: null,
        works: 5,
        cells: cells([10, 16, 62.5], [7, 10, 70], [8, 12, 66.7], [3, 5, 60]),
      },
      {
        level: 'school',
        schoolId: w.a.schoolId,
        schoolName: expect.stringMatching(/^Школа А/),
        classId: null,
        className: null,
        works: 3,
        cells: cells([5, 10, 50], [4, 6, 66.7], [4, 8, 50], [2, 3, 66.7]),
      },
      {
        level: 'class',
        schoolId: w.a.schoolId,
        schoolName: expect.stringMatching(/^Школа А/),
        classId: w.a.classId,
        className: '7 «А»',
        works: 2,
        cells: cells([4, 6, 66.7], [3, 4, 75], [3, 4, 75], [2, 2, 100]),
      },
      {
        level: 'class',
        schoolId: w.a.schoolId,
        schoolName: expect.stringMatching(/^Школа А/),
        classId: w.a.class7b,
        className: '7 «Б»',
        works: 1,
        cells: cells([1, 4, 25], [1, 2, 50], [1, 4, 25], [0, 1, 0]),
      },
      {
        level: 'school',
        schoolId: w.b.schoolId,
        schoolName: expect.stringMatching(/^Школа Б/),
        classId: null,
        className: null,
        works: 2,
        cells: cells([5, 6, 83.3], [3, 4, 75], [4, 4, 100], [1, 2, 50]),
      },
      {
        level: 'class',
        schoolId: w.b.schoolId,
        schoolName: expect.stringMatching(/^Школа Б/),
        classId: w.b.classId,
        className: '7 «А»',
        works: 2,
        cells: cells([5, 6, 83.3], [3, 4, 75], [4, 4, 100], [1, 2, 50]),
      },
    ]);
  });

  it('the specification of the subject test by default, or named; 400 without one; xlsx', async () => {
    const named = await json<ReportSpecification>(
      `/api/reports/specification?diagnosticId=${w.diagnosticId}&specId=${w.specId}`,
      w.coordA,
    );
    expect(named.rows.map((r) => r.level)).toEqual(['total', 'school', 'class', 'class']);
    expect(named.rows[0]!.works).toBe(5); // p1 p2 p4 + q1 q2 (физика maps to nothing)
    expect(named.rows[0]!.cells[0]).toMatchObject({ earned: 5, max: 10, percent: 50 });
    const none = await get(`/api/reports/specification?subjectTestId=${w.physics}`, w.admin);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: 'validation_failed' });
    expect((await get(`/api/reports/specification?specId=999999`, w.admin)).statusCode).toBe(404);
    const xlsx = await get(
      `/api/reports/specification?diagnosticId=${w.diagnosticId}&subjectTestId=${w.math}&format=xlsx`,
      w.admin,
    );
    const rows = await sheetRows(xlsx.rawPayload);
    const header = rows.find((row) => row[0] === 'Строка')!;
    const total = rows.find((row) => row[0] === 'Итого')!;
    expect(total[header.indexOf('1 Алгебра')]).toBe(62.5);
    expect(total[header.indexOf('2 Геометрия')]).toBe(60);
  });
});

describe('GET /api/reports/control', () => {
  it('attendance, unfinished works and the anomalies of the world', async () => {
    const r = await json<ReportControl>(`/api/reports/control?diagnosticId=${w.diagnosticId}`, w.admin);
    const row = (subjectTestId: number, classId: number, testDate: string) =>
      r.attendance.find(
        (a) => a.subjectTestId === subjectTestId && a.classId === classId && a.testDate === testDate,
      );
    expect(row(w.math, w.a.classId, w.yesterday)).toMatchObject({
      registered: 3,
      tookPart: 2,
      absent: 1,
      pending: 0,
      finished: 2,
      unfinished: 0,
    });
    expect(row(w.math, w.a.classId, w.tomorrow)).toMatchObject({
      registered: 1,
      tookPart: 0,
      absent: 0,
      pending: 1,
    });
    expect(row(w.math, w.a.class7b, w.yesterday)).toMatchObject({
      registered: 2,
      tookPart: 2,
      finished: 1,
      unfinished: 1,
    });
    expect(row(w.math, w.b.classId, w.yesterday)).toMatchObject({
      registered: 4,
      annulled: 1,
      tookPart: 3,
      finished: 3,
      unfinished: 0,
    });
    expect(row(w.physics, w.a.class7b, w.yesterday)).toMatchObject({
      registered: 2,
      tookPart: 2,
      finished: 2,
    });
    expect(r.attendance).toHaveLength(5);
    expect(r.unfinished).toEqual([
      expect.objectContaining({
        participantTestId: w.p.p5.id,
        participantName: 'Борисова Имя2 Отчество',
        examWorkId: w.p.p5.workId,
        status: 'in_progress',
      }),
    ]);
    expect(r.anomalies.map((a) => [a.kind, a.participantTestId])).toEqual([
      ['similar_answers', w.p.q1.id],
      ['fast_finish', w.p.p4.id],
      ['offline_gap', w.p.q1.id],
      ['integrity_events', w.p.q2.id],
      ['proctoring', w.p.q1.id],
    ]);
    expect(r.anomalies[0]).toMatchObject({
      other: { participantTestId: w.p.q2.id, examWorkId: w.p.q2.workId, code: w.p.q2.code },
      sharedWrong: 3,
      bothWrong: 3,
      compared: 4,
    });
    expect(r.anomalies[1]).toMatchObject({ usedSeconds: 120, limitSeconds: 2700 });
    expect(r.anomalies[2]).toMatchObject({ gaps: 1, longestSeconds: 420, totalSeconds: 420 });
    expect(r.anomalies[3]).toMatchObject({ leaves: 3, events: { blur: 2, focus: 1, visibility_hidden: 1 } });
    expect(r.anomalies[4]).toMatchObject({ verdict: 'подозрительно' });
    expect(r.thresholds).toEqual({
      fastFinishShare: 0.1,
      offlineGapSeconds: 300,
      integrityLeaves: 3,
      similarMinSharedWrong: 3,
      similarMinShare: 0.75,
    });
  });

  it('xlsx and PDF hold the same; a coordinator of the other school sees none of it', async () => {
    const xlsx = await get(`/api/reports/control?diagnosticId=${w.diagnosticId}&format=xlsx`, w.coordA);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((s) => s.name)).toEqual(['Явка', 'Незавершённые', 'Замечания']);
    expect(wb.worksheets[2]!.rowCount).toBe(6); // header + five anomalies
    const pdf = await get(`/api/reports/control?diagnosticId=${w.diagnosticId}&format=pdf`, w.coordA);
    // Table cells wrap: compare with the line breaks as spaces.
    const text = (await readPdf(pdf.rawPayload)).pages.join('\n').replace(/\s+/g, ' ');
    expect(text).toContain('Совпадение неверных ответов');
    expect(text).toContain('Слишком быстрое завершение');
    expect(text).toContain('Борисова');
    const b = await json<ReportControl>(`/api/reports/control?diagnosticId=${w.diagnosticId}`, w.coordB);
    expect(b.anomalies).toEqual([]);
    expect(b.unfinished).toEqual([]);
    expect(b.attendance.map((a) => a.schoolId)).toEqual([w.b.schoolId]);
  });
});

describe('the files use the words of the screens', () => {
  // One source per report (packages/contract report-words.ts): the web's Russian screens spread the
  // same constants (web/src/features/reports/report-words.test.ts checks that side).
  const headerOf = (rows: unknown[][], first: string) => rows.find((row) => row[0] === first)!;

  it('the summary, control and detailed workbooks head their columns with the screens’ words', async () => {
    const common = await get(
      `/api/reports/common?subjectTestId=${w.math}&diagnosticId=${w.diagnosticId}&format=xlsx`,
      w.admin,
    );
    const commonHeader = headerOf(await sheetRows(common.rawPayload), 'Тест');
    expect(commonHeader).toEqual(expect.arrayContaining(Object.values(STATS_HEADERS_RU)));

    const control = await get(`/api/reports/control?diagnosticId=${w.diagnosticId}&format=xlsx`, w.admin);
    const attendance = await sheetRows(control.rawPayload, 0);
    expect(headerOf(attendance, CONTROL_HEADERS_RU.subjectTest)).toEqual([
      CONTROL_HEADERS_RU.subjectTest,
      CONTROL_HEADERS_RU.school,
      CONTROL_HEADERS_RU.class,
      CONTROL_HEADERS_RU.testDate,
      STATS_HEADERS_RU.registered,
      STATS_HEADERS_RU.annulled,
      STATS_HEADERS_RU.tookPart,
      STATS_HEADERS_RU.absent,
      STATS_HEADERS_RU.pending,
      STATS_HEADERS_RU.finished,
      STATS_HEADERS_RU.unfinished,
    ]);
    const unfinished = await sheetRows(control.rawPayload, 1);
    const unfinishedHeader = unfinished[0]!;
    expect(unfinishedHeader).toEqual(
      expect.arrayContaining([
        CONTROL_HEADERS_RU.code,
        CONTROL_HEADERS_RU.participant,
        CONTROL_HEADERS_RU.subjectTest,
        CONTROL_HEADERS_RU.status,
        CONTROL_HEADERS_RU.startedAt,
        CONTROL_HEADERS_RU.deadlineAt,
      ]),
    );
    // A state in the screen's words, never the stored value.
    const status = unfinishedHeader.indexOf(CONTROL_HEADERS_RU.status);
    const states = unfinished.slice(1).map((row) => row[status]);
    expect(states.length).toBeGreaterThan(0);
    for (const state of states) expect(Object.values(UNFINISHED_STATUS_RU)).toContain(state);

    const detailed = await get(`/api/reports/detailed?diagnosticId=${w.diagnosticId}&format=xlsx`, w.admin);
    const detailedHeader = headerOf(await sheetRows(detailed.rawPayload), DETAILED_HEADERS_RU.code);
    expect(detailedHeader).toEqual(expect.arrayContaining(Object.values(DETAILED_HEADERS_RU)));
  });
});

describe('scope and input of the report calls', () => {
  const calls = ['common', 'cons', 'control', 'detailed', 'specification'];

  it('401 without a session, 403 for a role the call does not list', async () => {
    for (const c of [...calls, 'diagnostic/protocol', 'attesta', 'mrko']) {
      const res = await get(`/api/reports/${c}?diagnosticId=${w.diagnosticId}&classId=${w.a.classId}`);
      expect(res.statusCode, c).toBe(401);
    }
    for (const c of calls)
      expect((await get(`/api/reports/${c}`, w.organizatorA.session)).statusCode, c).toBe(403);
    for (const c of ['attesta', 'mrko'])
      expect((await get(`/api/reports/${c}`, w.coordA)).statusCode, c).toBe(403);
  });

  it('a coordinator: 403 for another school, its class, a diagnostic without their school; 404 unknown ids', async () => {
    const other = await createDiagnosticFixture(t.app, {
      parallels: [7],
      subjectTestIds: [w.math],
      schoolIds: [w.b.schoolId],
    });
    for (const c of calls) {
      const spec = c === 'specification' ? `&specId=${w.specId}` : '';
      const status = async (q: string) => (await get(`/api/reports/${c}?${q}${spec}`, w.coordA)).statusCode;
      expect(await status(`schoolId=${w.b.schoolId}`), c).toBe(403);
      expect(await status(`classId=${w.b.classId}`), c).toBe(403);
      expect(await status(`diagnosticId=${other.id}`), c).toBe(403);
      expect(await status(`diagnosticId=999999`), c).toBe(404);
      expect(await status(`classId=999999`), c).toBe(404);
      expect(await status(`schoolId=999999`), c).toBe(404);
      expect(await status(`subjectTestId=999999`), c).toBe(404);
      expect(await status(`schoolId=${w.a.schoolId}&classId=${w.a.class7b}`), c).toBe(200);
    }
  });

  it('an ugnik: its diagnostics and their schools only, with names', async () => {
    const inspection = await createDiagnosticFixture(t.app, {
      parallels: [7],
      subjectTestIds: [w.math],
      schoolIds: [w.b.schoolId],
      createdBy: w.ugnik.id,
      createdByRole: 'ugnik',
    });
    const reg = await register(t.app, {
      diagnosticId: inspection.id,
      subjectTestId: w.math,
      org: w.b,
      classId: w.b.classId,
      studentId: w.b.studentIds[0]!,
      testDate: w.yesterday,
    });
    await sit(t.app, reg, {
      diagnosticId: inspection.id,
      subjectTestId: w.math,
      testDate: w.yesterday,
      maxScores: [1, 1, 2, 2],
      variant: w.v1,
      scores: [1, 0, 2, 1],
    });
    const s = w.ugnik.session;
    for (const c of calls) {
      const spec = c === 'specification' ? `&specId=${w.specId}` : '';
      const status = async (q: string) => (await get(`/api/reports/${c}?${q}${spec}`, s)).statusCode;
      expect(await status(`diagnosticId=${w.diagnosticId}`), c).toBe(403);
      expect(await status(`schoolId=${w.a.schoolId}`), c).toBe(403);
      expect(await status(`classId=${w.a.classId}`), c).toBe(403);
      expect(
        await status(`diagnosticId=${inspection.id}&schoolId=${w.b.schoolId}&classId=${w.b.classId}`),
        c,
      ).toBe(200);
    }
    const common = await json<ReportCommon>('/api/reports/common', s);
    expect(common.items).toHaveLength(1);
    expect(common.items[0]!.stats).toMatchObject({ registered: 1, scored: 1, meanScore: 4 });
    const detailed = await json<ReportDetailed>('/api/reports/detailed', s);
    expect(detailed.rows).toEqual([
      expect.objectContaining({ participantTestId: reg.id, surname: 'Иванов', primaryScore: 4 }),
    ]);
    // The admin sees it too, the coordinator of B too (their school), the coordinator of A not.
    expect(
      (await json<ReportCommon>(`/api/reports/common?diagnosticId=${inspection.id}`, w.admin)).items,
    ).toHaveLength(1);
    expect(
      (await json<ReportCommon>(`/api/reports/common?diagnosticId=${inspection.id}`, w.coordB)).items,
    ).toHaveLength(1);
    expect((await get(`/api/reports/common?diagnosticId=${inspection.id}`, w.coordA)).statusCode).toBe(403);
  });

  it('400 with a code for bad dates, formats and ids', async () => {
    const code = async (q: string, c = 'common') => {
      const res = await get(`/api/reports/${c}?${q}`, w.admin);
      expect(res.statusCode, q).toBe(400);
      return (res.json() as { code: string }).code;
    };
    for (const c of calls) {
      expect(await code('startDate=2026-02-30', c)).toBe('invalid_date');
      expect(await code('endDate=12.03.2026', c)).toBe('invalid_date');
      expect(await code('startDate=2026-03-12&endDate=2026-03-11', c)).toBe('invalid_date_range');
      expect(await code('diagnosticId=abc', c)).toBe('validation_failed');
      expect(await code('format=docx', c)).toBe('validation_failed');
      expect(await code('unknown=1', c)).toBe('validation_failed');
    }
    expect(await code('format=pdf', 'detailed')).toBe('validation_failed');
    expect(
      (await get('/api/reports/common?startDate=2026-03-12&endDate=2026-03-12', w.admin)).statusCode,
    ).toBe(200);
  });
});

/** Every row of the first sheet as plain values (rich text flattened). */
async function sheetRows(bytes: Buffer, index = 0): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[index]!.eachRow((row) => {
    const values = row.values as unknown[];
    rows.push(values.slice(1));
  });
  return rows;
}
