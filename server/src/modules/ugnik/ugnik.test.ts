import { PARTICIPANT_STATUS_RU, UGNIK_SURNAMES_HEADERS_RU } from '@attesta/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createExamWork,
  createOrg,
  createSubjectTest,
  createVariantWithTasks,
  guardResults,
  isoDate,
  signedIn,
  signedInScoped,
  type GuardedCall,
  type OrgFixture,
  type Session,
  type TestApp,
  createTestApp,
} from '../../../test/helpers.js';
import { students } from '../../db/schema/index.js';

let t: TestApp;
let orgA: OrgFixture;
let orgB: OrgFixture;
let orgC: OrgFixture;
let ugnik1: Session;
let ugnik2: Session;
let teamA: Session;
let teamB: Session;
let coordinator: Session;
let mathTest: number;
let workerKindTest: number;

const json = (session: Session, method: GuardedCall['method'], url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: session.headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const window = () => ({
  startsAt: new Date(Date.now() - 86_400_000).toISOString(),
  endsAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
});

async function createDiagnostic(session: Session, extra: Record<string, unknown> = {}) {
  const res = await json(session, 'POST', '/api/ugnik/diagnostic/create', {
    name: 'Региональная проверка',
    ...window(),
    parallels: [7],
    subjectTestIds: [mathTest],
    schoolIds: [orgA.schoolId, orgB.schoolId],
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; code: string };
}

async function register(session: Session, diagnosticId: number, studentIds: number[]) {
  return json(session, 'POST', '/api/ugnik/participantTest/save', {
    diagnosticId,
    subjectTestId: mathTest,
    testDate: isoDate(),
    studentIds,
  });
}

async function startWork(participantTestId: number) {
  const variant = await createVariantWithTasks(t.app, mathTest, [{ answerType: 'short_text' }]);
  return createExamWork(t.app, participantTestId, variant.variantId);
}

beforeAll(async () => {
  t = await createTestApp();
  orgA = await createOrg(t.app);
  orgB = await createOrg(t.app);
  orgC = await createOrg(t.app);
  ugnik1 = (await signedIn(t.app, ['ugnik'])).session;
  ugnik2 = (await signedIn(t.app, ['ugnik'])).session;
  // Two inspectors of one supervision body (bound to the same oo) share their diagnostics.
  teamA = (await signedInScoped(t.app, ['ugnik'], { ooId: orgC.ooId })).session;
  teamB = (await signedInScoped(t.app, ['ugnik'], { ooId: orgC.ooId })).session;
  coordinator = (await signedIn(t.app, ['coordinator'], { schoolId: orgA.schoolId })).session;
  mathTest = await createSubjectTest(t.app, { parallels: [7, 8] });
  workerKindTest = await createSubjectTest(t.app, { kind: 'worker', parallels: [7] });
});
afterAll(async () => t.close());

describe('access to every /api/ugnik call', () => {
  it('401 without a session, 403 for another role, 403 csrf without the header on changes', async () => {
    const d = await createDiagnostic(ugnik1);
    const [pt] = (await (await register(ugnik1, d.id, [orgA.studentIds[0]!])).json()).items;
    const body = { page: 1, pageSize: 10 };
    const calls: GuardedCall[] = [
      { method: 'POST', url: '/api/ugnik/diagnostic/create', payload: { name: 'x' } },
      { method: 'GET', url: `/api/ugnik/diagnostic/${d.id}` },
      { method: 'DELETE', url: `/api/ugnik/diagnostic/${d.id}` },
      { method: 'POST', url: '/api/ugnik/diagnostic/list', payload: body },
      { method: 'POST', url: '/api/ugnik/participantTest/save', payload: { diagnosticId: d.id } },
      { method: 'GET', url: `/api/ugnik/participantTest/${pt.participantTestId}` },
      { method: 'DELETE', url: `/api/ugnik/participantTest/${pt.participantTestId}` },
      { method: 'POST', url: '/api/ugnik/participantTest/list', payload: body },
      {
        method: 'POST',
        url: '/api/ugnik/student/list',
        payload: { ...body, filter: { diagnosticId: d.id } },
      },
      ...['building', 'class', 'parallel', 'school', 'oo', 'mainSubjectTest'].map((list): GuardedCall => ({
        method: 'POST',
        url: `/api/ugnik/${list}/list`,
        payload: body,
      })),
      { method: 'GET', url: `/api/ugnik/reports/participantCodes?diagnosticId=${d.id}` },
      { method: 'GET', url: `/api/ugnik/reports/surnames?diagnosticId=${d.id}` },
    ];
    for (const call of calls) {
      const r = await guardResults(t.app, call, { allowed: ugnik1, wrongRole: coordinator });
      expect([call.url, r.anonymous, r.wrongRole]).toEqual([call.url, 401, 403]);
      if (call.method !== 'GET') expect([call.url, r.noCsrf]).toEqual([call.url, 'csrf']);
      else expect([call.url, r.noCsrf]).toEqual([call.url, 200]);
    }
    // Nothing was deleted by the refused calls.
    expect((await json(ugnik1, 'GET', `/api/ugnik/diagnostic/${d.id}`)).statusCode).toBe(200);
  });
});

describe('diagnostics', () => {
  it('creates an inspection across schools of different oo with a generated code', async () => {
    const res = await json(ugnik1, 'POST', '/api/ugnik/diagnostic/create', {
      name: '  Проверка качества  ',
      ...window(),
      parallels: [7],
      subjectTestIds: [mathTest],
      schoolIds: [orgA.schoolId, orgB.schoolId],
    });
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d).toMatchObject({
      name: 'Проверка качества',
      kind: 'inspection',
      code: expect.stringMatching(/^I-\d{4}-[2-9A-Z]{6}$/),
      subjectTests: [{ id: mathTest }],
      participantCount: 0,
      examWorkCount: 0,
    });
    expect(d.schools.map((s: { id: number }) => s.id).sort()).toEqual([orgA.schoolId, orgB.schoolId].sort());
    const [row] = await t.database.query<{ created_by_role: string }>(
      'select created_by_role from diagnostics where id = $1',
      [d.id],
    );
    expect(row!.created_by_role).toBe('ugnik');
    expect(
      await countRows(t.database, 'audit_events', `action = 'diagnostic.create' and entity_id = '${d.id}'`),
    ).toBe(1);
  });

  it('bad input changes nothing; a taken code is 409', async () => {
    const before = await countRows(t.database, 'diagnostics');
    const base = {
      name: 'П',
      ...window(),
      parallels: [7],
      subjectTestIds: [mathTest],
      schoolIds: [orgA.schoolId],
    };
    const cases = [
      { ...base, endsAt: base.startsAt },
      { ...base, subjectTestIds: [workerKindTest] },
      { ...base, subjectTestIds: [999_999] },
      { ...base, schoolIds: [999_999] },
      { ...base, parallels: [3] },
      { ...base, schoolIds: [] },
      { ...base, kind: 'diagnostic' },
      { ...base, code: 'bad code!' },
    ];
    for (const payload of cases) {
      const res = await json(ugnik1, 'POST', '/api/ugnik/diagnostic/create', payload);
      expect([res.statusCode, res.json().code]).toEqual([400, 'validation_failed']);
    }
    expect(await countRows(t.database, 'diagnostics')).toBe(before);
    const first = await createDiagnostic(ugnik1, { code: 'INSP-2026-01' });
    expect(first.code).toBe('INSP-2026-01');
    const again = await json(ugnik1, 'POST', '/api/ugnik/diagnostic/create', {
      ...base,
      code: 'INSP-2026-01',
    });
    expect([again.statusCode, again.json().code]).toEqual([409, 'code_taken']);
    expect(await countRows(t.database, 'diagnostics')).toBe(before + 1);
  });

  it('an ugnik sees only its own diagnostics (403 another’s, 404 none); an oo team shares', async () => {
    const mine = await createDiagnostic(ugnik1);
    expect((await json(ugnik2, 'GET', `/api/ugnik/diagnostic/${mine.id}`)).statusCode).toBe(403);
    expect((await json(ugnik2, 'DELETE', `/api/ugnik/diagnostic/${mine.id}`)).statusCode).toBe(403);
    expect((await json(ugnik2, 'GET', '/api/ugnik/diagnostic/99999999')).statusCode).toBe(404);
    const list2 = (
      await json(ugnik2, 'POST', '/api/ugnik/diagnostic/list', { page: 1, pageSize: 500 })
    ).json();
    expect(list2.items.map((d: { id: number }) => d.id)).not.toContain(mine.id);
    const list1 = await json(ugnik1, 'POST', '/api/ugnik/diagnostic/list', {
      page: 1,
      pageSize: 500,
      filter: { search: mine.code },
    });
    expect(list1.json()).toMatchObject({
      total: 1,
      items: [{ id: mine.id, subjectTestCount: 1, schoolCount: 2 }],
    });

    const shared = await createDiagnostic(teamA);
    expect((await json(teamB, 'GET', `/api/ugnik/diagnostic/${shared.id}`)).statusCode).toBe(200);
    expect((await json(ugnik1, 'GET', `/api/ugnik/diagnostic/${shared.id}`)).statusCode).toBe(403);
    expect((await json(teamA, 'GET', `/api/ugnik/diagnostic/${mine.id}`)).statusCode).toBe(403);
  });

  it('deletes only without exam works (409 has_exam_works), softly', async () => {
    const d = await createDiagnostic(ugnik1);
    const saved = (await (await register(ugnik1, d.id, [orgA.studentIds[1]!])).json()).items;
    await startWork(saved[0].participantTestId);
    const refused = await json(ugnik1, 'DELETE', `/api/ugnik/diagnostic/${d.id}`);
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'has_exam_works']);

    const empty = await createDiagnostic(ugnik1);
    await register(ugnik1, empty.id, [orgB.studentIds[0]!]);
    const ok = await json(ugnik1, 'DELETE', `/api/ugnik/diagnostic/${empty.id}`);
    expect([ok.statusCode, ok.json()]).toEqual([200, { ok: true }]);
    expect((await json(ugnik1, 'GET', `/api/ugnik/diagnostic/${empty.id}`)).statusCode).toBe(404);
    const [row] = await t.database.query<{ deleted: boolean; live: number }>(
      `select deleted_at is not null as deleted,
        (select count(*)::int from participant_tests where diagnostic_id = $1 and deleted_at is null) as live
       from diagnostics where id = $1`,
      [empty.id],
    );
    expect(row).toEqual({ deleted: true, live: 0 });
  });
});

describe('participants', () => {
  it('registers students with unique codes, idempotently', async () => {
    const d = await createDiagnostic(ugnik1);
    const ids = [orgA.studentIds[0]!, orgB.studentIds[0]!];
    const first = await register(ugnik1, d.id, ids);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ created: 2, existing: 0 });
    expect(new Set(body.items.map((i: { activationCode: string }) => i.activationCode)).size).toBe(2);
    const again = (await register(ugnik1, d.id, [...ids, orgA.studentIds[1]!])).json();
    expect(again).toMatchObject({ created: 1, existing: 2 });
    expect(again.items.slice(0, 2)).toEqual(body.items.map((i: object) => ({ ...i, created: false })));
    expect(await countRows(t.database, 'participant_tests', `diagnostic_id = ${d.id}`)).toBe(3);
  });

  it('bad registrations change nothing; another ugnik’s diagnostic is 403', async () => {
    const d = await createDiagnostic(ugnik1);
    const before = await countRows(t.database, 'participant_tests');
    const bad = [
      { diagnosticId: d.id, subjectTestId: mathTest, testDate: isoDate(), studentIds: [orgC.studentIds[0]] },
      {
        diagnosticId: d.id,
        subjectTestId: mathTest,
        testDate: isoDate(30),
        studentIds: [orgA.studentIds[0]],
      },
      {
        diagnosticId: d.id,
        subjectTestId: workerKindTest,
        testDate: isoDate(),
        studentIds: [orgA.studentIds[0]],
      },
      {
        diagnosticId: d.id,
        subjectTestId: mathTest,
        testDate: isoDate(),
        studentIds: [orgA.studentIds[0], 99_999_999],
      },
      { diagnosticId: d.id, subjectTestId: mathTest, testDate: isoDate(), studentIds: [] },
      {
        diagnosticId: d.id,
        subjectTestId: mathTest,
        testDate: '2026-02-30',
        studentIds: [orgA.studentIds[0]],
      },
    ];
    for (const payload of bad) {
      const res = await json(ugnik1, 'POST', '/api/ugnik/participantTest/save', payload);
      expect([res.statusCode, res.json().code]).toEqual([400, 'validation_failed']);
    }
    expect((await register(ugnik2, d.id, [orgA.studentIds[0]!])).statusCode).toBe(403);
    expect(await countRows(t.database, 'participant_tests')).toBe(before);
  });

  it('lists, reads and deletes participant tests within its diagnostics only', async () => {
    const d = await createDiagnostic(ugnik1);
    const items = (await (await register(ugnik1, d.id, [orgA.studentIds[2]!, orgB.studentIds[1]!])).json())
      .items;
    const list = await json(ugnik1, 'POST', '/api/ugnik/participantTest/list', {
      page: 1,
      pageSize: 50,
      filter: { diagnosticId: d.id, schoolId: orgB.schoolId },
    });
    expect(list.json()).toMatchObject({ total: 1, items: [{ schoolId: orgB.schoolId }] });
    const search = await json(ugnik1, 'POST', '/api/ugnik/participantTest/list', {
      page: 1,
      pageSize: 50,
      sort: { field: 'participantName', dir: 'asc' },
      filter: { diagnosticId: d.id, search: 'сидоров' },
    });
    expect(search.json().items.map((i: { participantName: string }) => i.participantName)).toEqual([
      'Сидоров Пётр',
    ]);
    const others = await json(ugnik2, 'POST', '/api/ugnik/participantTest/list', {
      page: 1,
      pageSize: 50,
      filter: { diagnosticId: d.id },
    });
    expect(others.json()).toEqual({ items: [], total: 0 });

    const [a, b] = items;
    expect(
      (await json(ugnik1, 'GET', `/api/ugnik/participantTest/${a.participantTestId}`)).json(),
    ).toMatchObject({
      id: a.participantTestId,
      activationCode: a.activationCode,
      status: 'planned',
    });
    expect((await json(ugnik2, 'GET', `/api/ugnik/participantTest/${a.participantTestId}`)).statusCode).toBe(
      403,
    );
    expect(
      (await json(ugnik2, 'DELETE', `/api/ugnik/participantTest/${a.participantTestId}`)).statusCode,
    ).toBe(403);

    await startWork(b.participantTestId);
    const refused = await json(ugnik1, 'DELETE', `/api/ugnik/participantTest/${b.participantTestId}`);
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'has_exam_work']);
    const ok = await json(ugnik1, 'DELETE', `/api/ugnik/participantTest/${a.participantTestId}`);
    expect(ok.statusCode).toBe(200);
    expect((await json(ugnik1, 'GET', `/api/ugnik/participantTest/${a.participantTestId}`)).statusCode).toBe(
      404,
    );
  });
});

describe('reference lists across schools', () => {
  const list = (what: string, filter?: object) =>
    json(ugnik1, 'POST', `/api/ugnik/${what}/list`, {
      page: 1,
      pageSize: 500,
      ...(filter ? { filter } : {}),
    });

  it('schools, oo, buildings, classes and parallels of every school, filterable', async () => {
    const schoolIds = (await list('school')).json().items.map((s: { id: number }) => s.id);
    expect(schoolIds).toEqual(expect.arrayContaining([orgA.schoolId, orgB.schoolId, orgC.schoolId]));
    expect((await list('school', { ooId: orgB.ooId })).json()).toMatchObject({
      total: 1,
      items: [{ id: orgB.schoolId }],
    });
    expect((await list('oo')).json().total).toBeGreaterThanOrEqual(3);
    expect((await list('building', { schoolId: orgA.schoolId })).json().items).toEqual([
      expect.objectContaining({ id: orgA.buildingId, schoolId: orgA.schoolId }),
    ]);
    expect((await list('class', { schoolId: orgC.schoolId, parallelId: 7 })).json().items).toEqual([
      expect.objectContaining({ id: orgC.classId, name: '7 «А»' }),
    ]);
    const parallels = (await list('parallel')).json();
    expect(parallels.items[0]).toEqual({ id: expect.any(Number), name: expect.any(String) });
    const paged = await json(ugnik1, 'POST', '/api/ugnik/school/list', { page: 2, pageSize: 1 });
    expect(paged.json().items).toHaveLength(1);
    expect((await json(ugnik1, 'POST', '/api/ugnik/school/list', { filter: { nope: 1 } })).statusCode).toBe(
      400,
    );
  });

  it('students of its diagnostic’s schools only, by name, to register by name', async () => {
    const d = await createDiagnostic(ugnik1); // schools A and B
    const students = (filter: Record<string, unknown>, session = ugnik1) =>
      json(session, 'POST', '/api/ugnik/student/list', { page: 1, pageSize: 50, filter });
    const all = (await students({ diagnosticId: d.id })).json();
    const ids = all.items.map((s: { id: number }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([...orgA.studentIds, ...orgB.studentIds]));
    expect(ids).not.toEqual(expect.arrayContaining([orgC.studentIds[0]]));
    const byClass = (await students({ diagnosticId: d.id, classId: orgA.classId, search: 'петр' })).json();
    expect(byClass).toEqual({
      total: 1,
      items: [
        {
          id: orgA.studentIds[1],
          surname: 'Петрова',
          name: 'Мария',
          patronymic: null,
          schoolId: orgA.schoolId,
          schoolName: expect.any(String),
          classId: orgA.classId,
          className: '7 «А»',
        },
      ],
    });
    // Another school's class gives nobody; another ugnik's diagnostic is 403, none 404, no filter 400.
    expect((await students({ diagnosticId: d.id, classId: orgC.classId })).json().total).toBe(0);
    expect((await students({ diagnosticId: d.id }, ugnik2)).statusCode).toBe(403);
    expect((await students({ diagnosticId: 99_999_999 })).statusCode).toBe(404);
    expect((await json(ugnik1, 'POST', '/api/ugnik/student/list', { page: 1 })).statusCode).toBe(400);
  });

  it('main subject tests are those of kind diagnostic', async () => {
    const ids = (await list('mainSubjectTest')).json().items.map((s: { id: number }) => s.id);
    expect(ids).toContain(mathTest);
    expect(ids).not.toContain(workerKindTest);
    const grade8 = (await list('mainSubjectTest', { parallelId: 8 }))
      .json()
      .items.map((s: { id: number }) => s.id);
    expect(grade8).toContain(mathTest);
  });
});

describe('reports', () => {
  it('participant codes as formula-safe xlsx and as PDF; surnames as JSON and xlsx', async () => {
    const d = await createDiagnostic(ugnik1);
    const [hacker] = await t.app.ctx.db
      .insert(students)
      .values({ schoolId: orgA.schoolId, classId: orgA.classId, surname: '=HYPERLINK("x")', name: 'Ева' })
      .returning({ id: students.id });
    const saved = (await (await register(ugnik1, d.id, [orgA.studentIds[0]!, hacker!.id])).json()).items;

    const xlsx = await json(ugnik1, 'GET', `/api/ugnik/reports/participantCodes?diagnosticId=${d.id}`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.headers['content-disposition']).toContain('attachment');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    wb.worksheets[0]!.eachRow((row) => row.eachCell((c) => cells.push(String(c.value))));
    for (const s of saved) expect(cells).toContain(s.activationCode);
    expect(cells.some((c) => c.startsWith("'=HYPERLINK"))).toBe(true);
    expect(cells.some((c) => c.startsWith('=HYPERLINK'))).toBe(false);

    const pdf = await json(
      ugnik1,
      'GET',
      `/api/ugnik/reports/participantCodes?diagnosticId=${d.id}&format=pdf`,
    );
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const report = await json(ugnik1, 'GET', `/api/ugnik/reports/surnames?diagnosticId=${d.id}`);
    expect(report.statusCode).toBe(200);
    expect(report.json().items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          surname: 'Иванов',
          name: 'Иван',
          status: 'planned',
          score: null,
          className: '7 «А»',
        }),
      ]),
    );
    const sx = await json(ugnik1, 'GET', `/api/ugnik/reports/surnames?diagnosticId=${d.id}&format=xlsx`);
    expect([sx.statusCode, sx.headers['content-type']]).toEqual([
      200,
      expect.stringContaining('spreadsheetml'),
    ]);
    // The screen's columns and words: the name composed as on the screen, the status in words, the
    // day a real date cell (issue 23, item 6).
    const sw = new ExcelJS.Workbook();
    await sw.xlsx.load(sx.rawPayload as unknown as ArrayBuffer);
    const sheetRows: ExcelJS.CellValue[][] = [];
    sw.worksheets[0]!.eachRow((row) => sheetRows.push((row.values as ExcelJS.CellValue[]).slice(1)));
    const [, header, ...lines] = sheetRows;
    expect(header).toEqual(Object.values(UGNIK_SURNAMES_HEADERS_RU));
    const ivanov = lines.find((l) => l[0] === 'Иванов Иван')!;
    expect(ivanov[header!.indexOf(UGNIK_SURNAMES_HEADERS_RU.status)]).toBe(PARTICIPANT_STATUS_RU.planned);
    const dayCell = sw.worksheets[0]!.getRow(sheetRows.indexOf(ivanov) + 1).getCell(
      header!.indexOf(UGNIK_SURNAMES_HEADERS_RU.testDate) + 1,
    );
    expect([dayCell.type, dayCell.numFmt]).toEqual([ExcelJS.ValueType.Date, 'dd.mm.yyyy']);

    expect((await json(ugnik2, 'GET', `/api/ugnik/reports/surnames?diagnosticId=${d.id}`)).statusCode).toBe(
      403,
    );
    expect(
      (await json(ugnik2, 'GET', `/api/ugnik/reports/participantCodes?diagnosticId=${d.id}`)).statusCode,
    ).toBe(403);
    expect((await json(ugnik1, 'GET', `/api/ugnik/reports/surnames?diagnosticId=abc`)).statusCode).toBe(400);
    expect(
      (await json(ugnik1, 'GET', `/api/ugnik/reports/participantCodes?diagnosticId=${d.id}&format=doc`))
        .statusCode,
    ).toBe(400);
  });
});
