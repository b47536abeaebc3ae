import { PARTICIPANT_STATUS_RU } from '@attesta/contract';
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, specificationElements, specifications, students } from '../../db/schema/index.js';
import { enqueue } from '../../jobs/queue.js';
import {
  createOrg,
  createTestApp,
  isoDate,
  signedIn,
  type OrgFixture,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { createSubjectTest } from '../../../test/diagnostic-fixtures.js';

let t: TestApp;
let a: OrgFixture;
let b: OrgFixture;
let coordA: { id: number; session: Session };
let coordB: Session;
let ugnik: { id: number; session: Session };
let admin: Session;
let math7: number;
let chem9: number;
let specId: number;

const create = (payload: unknown, headers?: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/createDiagnostic/create',
    payload: payload as object,
    ...(headers ? { headers } : {}),
  });
const excel = (diagnosticId: number | string, headers?: Record<string, string>) =>
  t.app.inject({
    method: 'GET',
    url: `/api/createDiagnostic/excel?diagnosticId=${diagnosticId}`,
    ...(headers ? { headers } : {}),
  });
const countOf = async (table: string) =>
  (await t.database.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;
const window = () => ({
  startsAt: new Date(Date.now() - 3_600_000).toISOString(),
  endsAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
});
const body = (extra: Record<string, unknown> = {}) => ({
  name: 'Диагностика по математике',
  ...window(),
  parallels: [7],
  subjectTestIds: [math7],
  ...extra,
});

async function readSheet(buffer: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: ExcelJS.CellValue[][] = [];
  ws.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
  return { ws, rows };
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t.app);
  b = await createOrg(t.app);
  const ca = await signedIn(t.app, ['coordinator'], { schoolId: a.schoolId });
  coordA = { id: ca.user.id, session: ca.session };
  coordB = (await signedIn(t.app, ['coordinator'], { schoolId: b.schoolId })).session;
  const u = await signedIn(t.app, ['ugnik']);
  ugnik = { id: u.user.id, session: u.session };
  admin = (await signedIn(t.app, ['admin'])).session;
  math7 = await createSubjectTest(t.app, { name: 'Математика 7', parallels: [7, 8], durationMinutes: 45 });
  chem9 = await createSubjectTest(t.app, { name: 'Химия 9', parallels: [9], durationMinutes: 90 });
  const [spec] = await t.app.ctx.db
    .insert(specifications)
    .values({ name: 'Кодификатор по математике', parallel: 7 })
    .returning();
  specId = spec!.id;
  await t.app.ctx.db.insert(specificationElements).values([
    { specificationId: specId, code: '1.1', name: 'Натуральные числа' },
    { specificationId: specId, code: '1.2', name: 'Дроби' },
  ]);
});
afterAll(async () => t.close());

describe('POST /api/createDiagnostic/create', () => {
  it('401, 403 for other roles and without the anti-CSRF header; nothing created', async () => {
    expect((await create(body())).statusCode).toBe(401);
    for (const role of ['organizator', 'expert', 'participant'] as const) {
      const s = (await signedIn(t.app, [role], { schoolId: a.schoolId })).session;
      expect((await create(body(), s.headers)).statusCode).toBe(403);
    }
    const csrf = await create(body(), { cookie: coordA.session.cookie });
    expect(csrf.json()).toMatchObject({ status: 403, code: 'csrf' });
    expect(await countOf('diagnostics')).toBe(0);
  });

  it('bad input is a 400 naming the field and changes nothing', async () => {
    const h = admin.headers;
    const cases: [Record<string, unknown>, string][] = [
      [{ endsAt: new Date(Date.now() - 7_200_000).toISOString() }, 'body.endsAt'],
      [{ subjectTestIds: [999_999] }, 'body.subjectTestIds'],
      [{ subjectTestIds: [chem9] }, 'body.subjectTestIds'],
      [{ schoolIds: [999_999] }, 'body.schoolIds'],
      [{ schoolIds: [] }, 'body.schoolIds'],
      [{ specificationId: 999_999 }, 'body.specificationId'],
      [{ parallels: [12] }, 'body.parallels'],
      [{ parallels: [7, 7] }, 'body.parallels'],
      [{ kind: 'worker' }, 'body.kind'],
      [{ startsAt: 'yesterday' }, 'body.startsAt'],
      [{ code: '=cmd|x' }, 'body.code'],
      [{ extra: 1 }, 'body'],
      [{ name: '' }, 'body.name'],
    ];
    for (const [extra, path] of cases) {
      const res = await create(body({ schoolIds: [a.schoolId], ...extra }), h);
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().errors?.[0]?.path ?? '', JSON.stringify(extra)).toContain(path);
    }
    expect(await countOf('diagnostics')).toBe(0);
  });

  it('a coordinator creates a diagnostic of their own school, with a generated code, audited', async () => {
    const res = await create(body(), coordA.session.headers);
    expect(res.statusCode).toBe(200);
    const d = res.json();
    const year = new Date().getUTCFullYear();
    expect(d).toMatchObject({
      code: `D-${year}-0001`,
      name: 'Диагностика по математике',
      kind: 'diagnostic',
      parallels: [7],
      subjectTestIds: [math7],
      schoolIds: [a.schoolId],
      createdBy: coordA.id,
      createdByRole: 'coordinator',
      resultsPublished: false,
    });
    const next = await create(body({ schoolIds: [a.schoolId], kind: 'preprof' }), coordA.session.headers);
    expect(next.json()).toMatchObject({ code: `D-${year}-0002`, kind: 'preprof' });
    const [event] = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, String(d.id)));
    expect(event).toMatchObject({ action: 'diagnostic.create', userId: coordA.id, entity: 'diagnostic' });
  });

  it('a coordinator may not name another school (403) nor create without a school', async () => {
    const before = await countOf('diagnostics');
    expect((await create(body({ schoolIds: [b.schoolId] }), coordA.session.headers)).statusCode).toBe(403);
    expect(
      (await create(body({ schoolIds: [a.schoolId, b.schoolId] }), coordA.session.headers)).statusCode,
    ).toBe(403);
    const noSchool = (await signedIn(t.app, ['coordinator'])).session;
    expect((await create(body(), noSchool.headers)).statusCode).toBe(403);
    expect(await countOf('diagnostics')).toBe(before);
  });

  it('an ugnik always creates an inspection across schools; admin any kind; a used code is 409', async () => {
    const insp = await create(
      body({
        kind: 'preschool',
        schoolIds: [a.schoolId, b.schoolId],
        code: 'INSP-1',
        specificationId: specId,
      }),
      ugnik.session.headers,
    );
    expect(insp.statusCode).toBe(200);
    expect(insp.json()).toMatchObject({
      code: 'INSP-1',
      kind: 'inspection',
      createdByRole: 'ugnik',
      schoolIds: [a.schoolId, b.schoolId],
    });
    const dup = await create(body({ schoolIds: [a.schoolId], code: 'INSP-1' }), admin.headers);
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'code_taken' });
    const ok = await create(
      body({ schoolIds: [b.schoolId], kind: 'preschool', parallels: [8, 7] }),
      admin.headers,
    );
    expect(ok.json()).toMatchObject({ kind: 'preschool', createdByRole: 'admin', parallels: [7, 8] });
  });
});

describe('GET /api/createDiagnostic/excel', () => {
  let diagnosticId: number;
  let ugnikDiagnosticId: number;

  beforeAll(async () => {
    const res = await create(body({ schoolIds: [a.schoolId, b.schoolId], code: 'XL-1' }), admin.headers);
    diagnosticId = res.json().id;
    await t.app.ctx.db
      .update(students)
      .set({ surname: '=HYPERLINK("http://evil.example","x")' })
      .where(eq(students.id, a.studentIds[0]!));
    await enqueue(t.app.ctx.db, {
      type: 'planning',
      diagnosticId,
      payload: { date: isoDate(1), code: 'XL-1', schoolId: null },
    });
    expect((await t.app.jobs.runOnce())!.result).toMatchObject({ created: 6 });
    ugnikDiagnosticId = (
      await create(body({ schoolIds: [a.schoolId], code: 'XL-UG' }), ugnik.session.headers)
    ).json().id;
  });

  it('a coordinator gets only their school’s rows, sorted, formula-safe, with a Cyrillic file name', async () => {
    const res = await excel(diagnosticId, coordA.session.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('Участники и коды XL-1.xlsx')}`,
    );
    const { ws, rows } = await readSheet(res.rawPayload);
    expect(rows[1]).toEqual([
      'Школа',
      'Класс',
      'Фамилия',
      'Имя',
      'Отчество',
      'Тест по предмету',
      'Дата',
      'Код активации',
      'Регистрационный код',
      'Статус',
    ]);
    const data = rows.slice(2);
    expect(data).toHaveLength(3);
    // Surnames sorted; the formula-looking one is text, prefixed so it never runs.
    expect(data.map((r) => r[2])).toEqual([`'=HYPERLINK("http://evil.example","x")`, 'Петрова', 'Сидоров']);
    ws.eachRow((row) =>
      row.eachCell((cell) => {
        expect(cell.formula).toBeUndefined();
        if (typeof cell.value === 'string') expect(cell.value).not.toMatch(/^[=+\-@]/);
      }),
    );
    expect(data.every((r) => r[9] === PARTICIPANT_STATUS_RU.planned)).toBe(true);
    expect(data.every((r) => /^[0-9A-Z]{5}-[0-9A-Z]{5}$/.test(String(r[7])))).toBe(true);
    // The day is a real date cell shown дд.мм.гггг (issue 23, item 6), not text.
    expect((data[0]![6] as Date).toISOString()).toBe(`${isoDate(1)}T00:00:00.000Z`);
    const dayCell = ws.getCell(3, 7);
    expect([dayCell.type, dayCell.numFmt]).toEqual([ExcelJS.ValueType.Date, 'dd.mm.yyyy']);
  });

  it('admin gets every school; an ugnik only its own diagnostics', async () => {
    const all = await readSheet((await excel(diagnosticId, admin.headers)).rawPayload);
    expect(all.rows.slice(2)).toHaveLength(6);
    expect((await excel(diagnosticId, ugnik.session.headers)).statusCode).toBe(403);
    expect((await excel(ugnikDiagnosticId, ugnik.session.headers)).statusCode).toBe(200);
    const other = (await signedIn(t.app, ['ugnik'])).session;
    expect((await excel(ugnikDiagnosticId, other.headers)).statusCode).toBe(403);
  });

  it('401, 403 for a coordinator of a school outside the diagnostic, 404 unknown, 400 bad id', async () => {
    expect((await excel(diagnosticId)).statusCode).toBe(401);
    const res = await create(body({ schoolIds: [b.schoolId], code: 'XL-B' }), admin.headers);
    expect((await excel(res.json().id, coordA.session.headers)).statusCode).toBe(403);
    expect((await excel(res.json().id, coordB.headers)).statusCode).toBe(200);
    expect((await excel(999_999, admin.headers)).statusCode).toBe(404);
    expect((await excel('abc', admin.headers)).statusCode).toBe(400);
    const organizator = (await signedIn(t.app, ['organizator'], { schoolId: a.schoolId })).session;
    expect((await excel(diagnosticId, organizator.headers)).statusCode).toBe(403);
  });
});

describe('GET /api/createDiagnostic/specifications and subjectTests', () => {
  it('lists specifications with element counts', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/createDiagnostic/specifications',
      headers: coordA.session.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toContainEqual({
      id: specId,
      name: 'Кодификатор по математике',
      subjectId: null,
      subjectName: null,
      parallel: 7,
      description: null,
      elementCount: 2,
    });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/createDiagnostic/specifications' })).statusCode,
    ).toBe(401);
  });

  it('lists subject tests with subject, parallels, duration and variant count, by grade', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/createDiagnostic/subjectTests',
      headers: ugnik.session.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toContainEqual(
      expect.objectContaining({
        id: chem9,
        name: 'Химия 9',
        parallels: [9],
        durationMinutes: 90,
        variantCount: 0,
      }),
    );
    const grade9 = await t.app.inject({
      method: 'GET',
      url: '/api/createDiagnostic/subjectTests?parallel=9',
      headers: ugnik.session.headers,
    });
    expect(grade9.json().map((x: { id: number }) => x.id)).toEqual([chem9]);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/createDiagnostic/subjectTests?parallel=12',
      headers: ugnik.session.headers,
    });
    expect(bad.statusCode).toBe(400);
    const expert = (await signedIn(t.app, ['expert'])).session;
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/createDiagnostic/subjectTests',
          headers: expert.headers,
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('draft subject tests', () => {
  it('are neither listed for planning nor accepted by a new diagnostic until published', async () => {
    const draft = await createSubjectTest(t.app, { name: 'Черновик 7', parallels: [7] });
    await t.database.query(`update subject_tests set status = 'draft' where id = $1`, [draft]);
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/createDiagnostic/subjectTests?parallel=7',
      headers: admin.headers,
    });
    expect(listed.json().map((x: { id: number }) => x.id)).not.toContain(draft);
    const before = await countOf('diagnostics');
    const refused = await create(body({ subjectTestIds: [draft], schoolIds: [a.schoolId] }), admin.headers);
    expect([refused.statusCode, refused.json().code]).toEqual([400, 'validation_failed']);
    expect(await countOf('diagnostics')).toBe(before);

    await t.database.query(`update subject_tests set status = 'published' where id = $1`, [draft]);
    const accepted = await create(body({ subjectTestIds: [draft], schoolIds: [a.schoolId] }), admin.headers);
    expect(accepted.statusCode).toBe(200);
  });
});
