import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, participantTests, students } from '../../db/schema/index.js';
import { enqueue } from '../../jobs/queue.js';
import { createTestApp, signedIn, type Session, type TestApp } from '../../../test/helpers.js';
import {
  assignOrganizator,
  createClassWithStudents,
  createDiagnosticFixture,
  createPlanningWorld,
  type PlanningWorld,
} from '../../../test/diagnostic-fixtures.js';
import { decodeQrOf, readPdf } from '../../../test/pdf.js';
import { loginUrlOf, whenText } from './participant-codes.service.js';

let t: TestApp;
let w: PlanningWorld;
let coordA: { id: number; session: Session };
let coordB: Session;
let organizator: { id: number; session: Session };
let codesByClass: Map<number, string[]>;

const coordinatorCodes = (query: string, headers?: Record<string, string>) =>
  t.app.inject({
    method: 'GET',
    url: `/api/reports/coordinator/participantCodes?${query}`,
    ...(headers ? { headers } : {}),
  });
const organizatorCodes = (query: string, headers?: Record<string, string>) =>
  t.app.inject({
    method: 'GET',
    url: `/api/reports/organizator/participantCodes?${query}`,
    ...(headers ? { headers } : {}),
  });

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://attesta.example.ru' });
  w = await createPlanningWorld(t.app);
  // Enough students in 7 «А» of school A for more than one page of slips (8 a page).
  await createClassWithStudents(t.app, w.a, { parallel: 7, letter: 'В', surnames: ['Ёлкин', 'Жуков'] });
  await t.app.ctx.db
    .update(students)
    .set({ surname: '=HYPERLINK("http://evil.example","x")' })
    .where(eq(students.id, w.a.studentIds[1]!));
  await enqueue(t.app.ctx.db, {
    type: 'planning',
    diagnosticId: w.diagnostic.id,
    payload: { date: w.date, code: w.diagnostic.code, schoolId: null },
  });
  expect((await t.app.jobs.runOnce())!.status).toBe('done');
  const rows = await t.app.ctx.db
    .select()
    .from(participantTests)
    .where(eq(participantTests.diagnosticId, w.diagnostic.id));
  codesByClass = new Map();
  for (const r of rows)
    codesByClass.set(r.classId!, [...(codesByClass.get(r.classId!) ?? []), r.activationCode]);
  const ca = await signedIn(t.app, ['coordinator'], { schoolId: w.a.schoolId });
  coordA = { id: ca.user.id, session: ca.session };
  coordB = (await signedIn(t.app, ['coordinator'], { schoolId: w.b.schoolId })).session;
  const o = await signedIn(t.app, ['organizator'], { schoolId: w.a.schoolId });
  organizator = { id: o.user.id, session: o.session };
  await assignOrganizator(t.app, organizator.id, { classId: w.a.class8 });
});
afterAll(async () => t.close());

const schoolACodes = () =>
  [...codesByClass.entries()].filter(([c]) => c !== w.b.classId).flatMap(([, codes]) => codes);

describe('GET /api/reports/coordinator/participantCodes', () => {
  it('PDF slips of the coordinator’s school: every code, eight a page, QR of the login URL', async () => {
    const res = await coordinatorCodes(`diagnosticId=${w.diagnostic.id}`, coordA.session.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(
      encodeURIComponent(`Коды участников ${w.diagnostic.code}.pdf`),
    );
    expect(res.headers['cache-control']).toContain('no-store');
    const { pageCount, pages } = await readPdf(res.rawPayload);
    const codes = schoolACodes();
    expect(codes).toHaveLength(w.expected.a + 4);
    expect(pageCount).toBe(Math.ceil(codes.length / 8));
    const text = pages.join('\n');
    for (const code of codes) {
      expect(text).toContain(code);
      expect(text).toContain(loginUrlOf('https://attesta.example.ru', code));
    }
    // School B's codes never appear.
    for (const code of codesByClass.get(w.b.classId)!) expect(text).not.toContain(code);
    expect(text).toContain('Код активации');
    expect(text).toContain('Математика');
    expect(text).toContain('7 «А»');
    expect(text).toContain('Андреев Имя1 Отчество');
    expect(text).toContain(w.date.split('-').reverse().join('.'));
    expect(text).toMatch(/Вход по коду/);
    // What the QR codes hold reads back with an independent decoder.
    const url = loginUrlOf('https://attesta.example.ru', codes[0]!);
    expect(url).toMatch(/^https:\/\/attesta\.example\.ru\/login\?tab=code&code=[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    expect(decodeQrOf(url)).toBe(url);
    const [event] = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'participant_codes.print'));
    expect(event).toMatchObject({ userId: coordA.id, entityId: String(w.diagnostic.id) });
  });

  it('one class only, or as xlsx with formula-safe cells', async () => {
    const pdf = await coordinatorCodes(
      `diagnosticId=${w.diagnostic.id}&classId=${w.a.class8}`,
      coordA.session.headers,
    );
    const text = (await readPdf(pdf.rawPayload)).pages.join('\n');
    for (const code of codesByClass.get(w.a.class8)!) expect(text).toContain(code);
    for (const code of codesByClass.get(w.a.classId)!) expect(text).not.toContain(code);

    const res = await coordinatorCodes(`diagnosticId=${w.diagnostic.id}&format=xlsx`, coordA.session.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const values: string[] = [];
    ws.eachRow((row) =>
      row.eachCell((cell) => {
        expect(cell.formula).toBeUndefined();
        values.push(String(cell.value));
      }),
    );
    expect(values.filter((v) => /^[=+\-@]/.test(v))).toEqual([]);
    expect(values).toContain(`'=HYPERLINK("http://evil.example","x")`);
    for (const code of schoolACodes()) expect(values).toContain(code);
  });

  it('401, 403 for another school’s diagnostic or class and for other roles, 404 unknown, 400 bad query', async () => {
    const q = `diagnosticId=${w.diagnostic.id}`;
    expect((await coordinatorCodes(q)).statusCode).toBe(401);
    expect((await coordinatorCodes(q, organizator.session.headers)).statusCode).toBe(403);
    expect((await coordinatorCodes(`${q}&classId=${w.b.classId}`, coordA.session.headers)).statusCode).toBe(
      403,
    );
    expect((await coordinatorCodes(`${q}&classId=999999`, coordA.session.headers)).statusCode).toBe(404);
    expect((await coordinatorCodes('diagnosticId=999999', coordA.session.headers)).statusCode).toBe(404);
    expect((await coordinatorCodes(`${q}&format=docx`, coordA.session.headers)).statusCode).toBe(400);
    expect((await coordinatorCodes('', coordA.session.headers)).statusCode).toBe(400);
    // B's coordinator prints B's slips of the shared diagnostic, but nothing of a diagnostic of A only.
    expect((await coordinatorCodes(q, coordB.headers)).statusCode).toBe(200);
    const onlyA = await createDiagnosticFixture(t.app, {
      parallels: [7],
      subjectTestIds: [w.math],
      schoolIds: [w.a.schoolId],
    });
    expect((await coordinatorCodes(`diagnosticId=${onlyA.id}`, coordB.headers)).statusCode).toBe(403);
  });
});

describe('whenText', () => {
  it('shows the times when the window lies within the test day, else the whole window (Moscow time)', () => {
    const day = { startsAt: new Date('2026-03-12T06:00:00Z'), endsAt: new Date('2026-03-12T12:00:00Z') };
    expect(whenText('2026-03-12', day)).toBe('12.03.2026, 09:00–15:00 (МСК)');
    const week = { startsAt: new Date('2026-03-10T05:00:00Z'), endsAt: new Date('2026-03-17T15:00:00Z') };
    expect(whenText('2026-03-12', week)).toBe('12.03.2026; окно: 10.03.2026 08:00 – 17.03.2026 18:00 (МСК)');
  });
});

describe('GET /api/reports/organizator/participantCodes', () => {
  it('only the classes and buildings assigned to the organizator', async () => {
    const res = await organizatorCodes(`diagnosticId=${w.diagnostic.id}`, organizator.session.headers);
    expect(res.statusCode).toBe(200);
    const text = (await readPdf(res.rawPayload)).pages.join('\n');
    for (const code of codesByClass.get(w.a.class8)!) expect(text).toContain(code);
    for (const code of codesByClass.get(w.a.classId)!) expect(text).not.toContain(code);
    expect(
      (
        await organizatorCodes(
          `diagnosticId=${w.diagnostic.id}&classId=${w.a.classId}`,
          organizator.session.headers,
        )
      ).statusCode,
    ).toBe(403);

    // A whole building brings every class in it.
    const b = await signedIn(t.app, ['organizator'], { schoolId: w.b.schoolId });
    await assignOrganizator(t.app, b.user.id, { buildingId: w.b.buildingId });
    const all = await organizatorCodes(`diagnosticId=${w.diagnostic.id}&format=xlsx`, b.session.headers);
    expect(all.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(all.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0]!.rowCount).toBe(2 + w.expected.b);
  });

  it('401, 403 without assignments in the diagnostic or for other roles', async () => {
    const q = `diagnosticId=${w.diagnostic.id}`;
    expect((await organizatorCodes(q)).statusCode).toBe(401);
    expect((await organizatorCodes(q, coordA.session.headers)).statusCode).toBe(403);
    const idle = (await signedIn(t.app, ['organizator'])).session;
    expect((await organizatorCodes(q, idle.headers)).statusCode).toBe(403);
    expect((await organizatorCodes('diagnosticId=999999', organizator.session.headers)).statusCode).toBe(404);
  });
});
