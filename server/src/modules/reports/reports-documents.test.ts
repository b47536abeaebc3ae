import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportAttesta, ReportMrko, ReportProtocol } from '@attesta/contract';
import {
  auditEvents,
  diagnostics,
  examWorkEvents,
  examWorkPauses,
  examWorks,
  users,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { schoolInstant } from '../../lib/calendar.js';
import { createTestApp, createUser, type Session, type TestApp } from '../../../test/helpers.js';
import { createDiagnosticFixture } from '../../../test/diagnostic-fixtures.js';
import { readPdf } from '../../../test/pdf.js';
import { createReportWorld, FORMULA_SURNAME, register, sit, type ReportWorld } from './test-support.js';

let t: TestApp;
let w: ReportWorld;

const get = (url: string, session?: Session) =>
  t.app.inject({ method: 'GET', url, ...(session ? { headers: session.headers } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  w = await createReportWorld(t.app);
});
afterAll(async () => t.close());

describe('GET /api/reports/diagnostic/protocol', () => {
  const at = (time: string) => schoolInstant(w.yesterday, time);
  let protocolUrl: string;

  beforeAll(async () => {
    const db = t.app.ctx.db;
    protocolUrl = `/api/reports/diagnostic/protocol?diagnosticId=${w.diagnosticId}&classId=${w.a.classId}`;
    await db.insert(examWorkPauses).values({
      examWorkId: w.p.p1.workId!,
      startedAt: at('10:10'),
      endedAt: at('10:15'),
      pausedBy: w.organizatorA.id,
      byStaff: true,
      resumedBy: w.organizatorA.id,
      reason: 'Плохое самочувствие',
    });
    await audit(db, {
      userId: w.organizatorA.id,
      action: 'exam_work.change_time',
      entity: 'exam_work',
      entityId: w.p.p2.workId!,
      reason: 'Сбой компьютера',
      details: { deltaSeconds: 600 },
    });
    await db.insert(examWorkEvents).values([
      { examWorkId: w.p.p1.workId!, at: at('10:05'), kind: 'blur', details: { source: 'participant' } },
      { examWorkId: w.p.p1.workId!, at: at('10:06'), kind: 'focus', details: { source: 'participant' } },
    ]);
    // Сидоров's work was started by mistake and deleted: he stays absent, the protocol says why.
    const [deleted] = await db
      .insert(examWorks)
      .values({
        participantTestId: w.p.p3.id,
        variantId: w.v1.variantId,
        startedAt: at('09:55'),
        timeLimitSeconds: 2700,
        deadlineAt: at('10:40'),
        windowEndsAt: at('23:00'),
        deletedAt: at('09:58'),
        deletedBy: w.organizatorA.id,
        deletedReason: 'Ошибочный запуск',
      })
      .returning();
    expect(deleted).toBeDefined();
  });

  it('the data of a room: organizers, sittings, attendance, pauses, time changes, incidents', async () => {
    const res = await get(`${protocolUrl}&format=json`, w.organizatorA.session);
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json() as ReportProtocol;
    expect(p.room).toEqual({
      schoolId: w.a.schoolId,
      schoolName: expect.stringMatching(/^Школа А/),
      buildingId: w.a.buildingId,
      buildingName: 'Основное здание',
      buildingAddress: null,
      classId: w.a.classId,
      className: '7 «А»',
    });
    expect(p.organizers).toEqual([{ userId: w.organizatorA.id, name: 'Организаторова Ольга Олеговна' }]);
    expect(p.sittings.map((s) => s.testDate)).toEqual([w.yesterday, w.tomorrow]);
    const s = p.sittings[0]!;
    expect(s).toMatchObject({
      subjectTestId: w.math,
      durationMinutes: 45,
      present: 2,
      absent: 1,
      startedAt: at('10:00').toISOString(),
      finishedAt: at('10:30').toISOString(),
    });
    expect(s.participants.map((x) => [x.participantName, x.attendance, x.code])).toEqual([
      ['Иванов Иван', 'present', w.p.p1.code],
      ['Петрова Мария', 'present', w.p.p2.code],
      ['Сидоров Пётр', 'absent', w.p.p3.code],
    ]);
    expect(s.pauses).toEqual([
      {
        participantTestId: w.p.p1.id,
        participantName: 'Иванов Иван',
        startedAt: at('10:10').toISOString(),
        endedAt: at('10:15').toISOString(),
        byStaff: true,
        by: 'Организаторова Ольга Олеговна',
        resumedBy: 'Организаторова Ольга Олеговна',
        reason: 'Плохое самочувствие',
      },
    ]);
    expect(s.timeChanges).toEqual([
      expect.objectContaining({
        participantTestId: w.p.p2.id,
        deltaSeconds: 600,
        by: 'Организаторова Ольга Олеговна',
        reason: 'Сбой компьютера',
      }),
    ]);
    expect(s.incidents).toEqual([
      expect.objectContaining({ participantTestId: w.p.p1.id, kind: 'blur', count: 1 }),
      expect.objectContaining({
        participantTestId: w.p.p3.id,
        kind: 'work_deleted',
        reason: 'Ошибочный запуск',
      }),
    ]);
    expect(p.sittings[1]!.participants).toEqual([
      expect.objectContaining({ participantTestId: w.p.p10.id, attendance: 'pending' }),
    ]);
  });

  it('the PDF (default): room, names, events with reasons and the signature lines, in Cyrillic', async () => {
    const res = await get(protocolUrl, w.organizatorA.session);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('attachment');
    const text = (await readPdf(res.rawPayload)).pages.join('\n').replace(/\s+/g, ' ');
    for (const expected of [
      'ПРОТОКОЛ проведения диагностики в аудитории',
      'Независимая диагностика',
      'Школа А',
      'Основное здание',
      '7 «А»',
      'Организаторова Ольга Олеговна',
      'Математика',
      'Иванов Иван',
      'Петрова Мария',
      'Сидоров Пётр',
      'присутствовал(а)',
      'отсутствовал(а)',
      'Плохое самочувствие',
      'Сбой компьютера',
      '+10 мин',
      'уход с окна теста',
      'Ошибочный запуск',
      'Организатор в аудитории',
      'Школьный координатор',
      '(подпись)',
      '(расшифровка подписи)',
    ])
      expect(text).toContain(expected);
    expect(text).toContain(w.yesterday.split('-').reverse().join('.'));
    // Only the room's participants.
    expect(text).not.toContain('Андреев');
  });

  it('a whole building; scope per role; 400 without a room; 404 unknown ids', async () => {
    const building = await get(
      `/api/reports/diagnostic/protocol?diagnosticId=${w.diagnosticId}&buildingId=${w.a.buildingId}&format=json`,
      w.coordA,
    );
    expect(building.statusCode).toBe(200);
    const b = building.json() as ReportProtocol;
    expect(b.room.className).toBeNull();
    expect(b.sittings.map((s) => s.participants.length)).toEqual([5, 2, 1]); // математика, физика, завтра
    const status = async (q: string, s?: Session) =>
      (await get(`/api/reports/diagnostic/protocol?diagnosticId=${w.diagnosticId}&${q}`, s)).statusCode;
    expect(await status(`classId=${w.a.classId}`)).toBe(401);
    expect(await status(`classId=${w.a.class7b}`, w.organizatorA.session)).toBe(403);
    expect(await status(`buildingId=${w.a.buildingId}`, w.organizatorA.session)).toBe(403);
    expect(await status(`classId=${w.a.classId}`, w.coordB)).toBe(403);
    expect(await status(`classId=${w.a.classId}`, w.ugnik.session)).toBe(403);
    expect(await status(`classId=${w.a.classId}&format=json`, w.admin)).toBe(200);
    expect(await status(`classId=${w.b.classId}&format=json`, w.coordB)).toBe(200);
    expect(await status(`classId=${w.a.classId}&buildingId=999999`, w.admin)).toBe(404);
    expect(await status('classId=999999', w.admin)).toBe(404);
    expect(await status('', w.admin)).toBe(400);
    expect(await status(`classId=${w.a.classId}&format=xlsx`, w.admin)).toBe(400);
    expect(
      (await get(`/api/reports/diagnostic/protocol?diagnosticId=999999&classId=${w.a.classId}`, w.admin))
        .statusCode,
    ).toBe(404);
    // A diagnostic with neither the organizator's school nor a participant in their rooms.
    const elsewhere = await createDiagnosticFixture(t.app, {
      parallels: [7],
      subjectTestIds: [w.math],
      schoolIds: [w.b.schoolId],
    });
    expect(
      (
        await get(
          `/api/reports/diagnostic/protocol?diagnosticId=${elsewhere.id}&classId=${w.a.classId}`,
          w.organizatorA.session,
        )
      ).statusCode,
    ).toBe(403);
  });
});

describe('GET /api/reports/attesta and /api/reports/mrko', () => {
  let published: { id: number; code: string };
  let sent: { id: number; code: string };

  beforeAll(async () => {
    const db = t.app.ctx.db;
    published = await createDiagnosticFixture(t.app, {
      parallels: [7],
      subjectTestIds: [w.math],
      schoolIds: [w.b.schoolId],
    });
    await db
      .update(diagnostics)
      .set({ resultsPublished: true, publishedAt: new Date() })
      .where(eq(diagnostics.id, published.id));
    const m = {
      diagnosticId: published.id,
      subjectTestId: w.math,
      testDate: w.yesterday,
      maxScores: [1, 1, 2, 2],
    };
    // Петрова of B (her surname is a formula): a published «5»; Сидоров of B: still with the experts.
    const reg = await register(t.app, {
      ...m,
      org: w.b,
      classId: w.b.classId,
      studentId: w.b.studentIds[1]!,
    });
    sent = { id: reg.id, code: reg.code };
    await sit(t.app, reg, { ...m, variant: w.v2, scores: [1, 1, 2, 1] });
    const waiting = await register(t.app, {
      ...m,
      org: w.b,
      classId: w.b.classId,
      studentId: w.b.studentIds[2]!,
    });
    await sit(t.app, waiting, { ...m, variant: w.v1, scores: [1, 1, 2, 2], awaiting: true });
    const own = await createUser(t.app, { roles: ['participant'] });
    await db
      .update(users)
      .set({ studentId: w.b.studentIds[1]!, externalProvider: 'mos', externalSubject: 'ext-123' })
      .where(eq(users.id, own.id));
  });

  it('only published results leave, with per-task scores and external ids', async () => {
    const res = await get('/api/reports/attesta', w.admin);
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json() as ReportAttesta;
    expect(a.format).toBe('attesta.results');
    expect(a.items).toEqual([
      {
        diagnosticCode: published.code,
        diagnosticName: 'Независимая диагностика',
        subjectCode: expect.any(String),
        subjectTestId: w.math,
        subjectTestName: 'Математика',
        subjectTestSourceId: null,
        testDate: w.yesterday,
        schoolCode: expect.any(String),
        schoolName: expect.stringMatching(/^Школа Б/),
        className: '7 «А»',
        participantCode: sent.code,
        externalProvider: 'mos',
        externalId: 'ext-123',
        variant: 2,
        primaryScore: 5,
        maxScore: 6,
        percent: 83.3,
        mark: '5',
        level: 'высокий',
        verificationCode: expect.stringMatching(/^R-TEST-/),
        publishedAt: expect.any(String),
        tasks: [
          { position: 1, score: 1, maxScore: 1 },
          { position: 2, score: 1, maxScore: 1 },
          { position: 3, score: 2, maxScore: 2 },
          { position: 4, score: 1, maxScore: 2 },
        ],
      },
    ]);
    expect(JSON.stringify(a)).not.toContain('HYPERLINK'); // no names go upstream
    const m = (await get('/api/reports/mrko', w.admin)).json() as ReportMrko;
    expect(m.format).toBe('mrko.marks');
    expect(m.items).toEqual([
      expect.objectContaining({
        studentExternalId: 'ext-123',
        surname: FORMULA_SURNAME,
        name: 'Мария',
        subjectName: expect.any(String),
        date: w.yesterday,
        mark: '5',
        primaryScore: 5,
        participantCode: sent.code,
      }),
    ]);
    // The unpublished diagnostic of the world gives nothing, even when named.
    const none = (
      await get(`/api/reports/attesta?diagnosticId=${w.diagnosticId}`, w.admin)
    ).json() as ReportAttesta;
    expect(none.items).toEqual([]);
    const [event] = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'reports.export'));
    expect(event).toMatchObject({ entity: 'report', entityId: 'attesta' });
  });

  it('csv and xlsx: the same rows, every cell formula-safe', async () => {
    const csv = await get('/api/reports/mrko?format=csv', w.admin);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = parse(csv.rawPayload, { bom: true, delimiter: ';', columns: true }) as Record<
      string,
      string
    >[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      surname: `'${FORMULA_SURNAME}`,
      mark: '5',
      task1: '1',
      task4: '1',
      task4_max: '2',
      participantCode: sent.code,
    });
    for (const value of Object.values(rows[0]!)) expect(value).not.toMatch(/^[=+\-@]/);

    const xlsx = await get('/api/reports/mrko?format=xlsx', w.admin);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const values: unknown[] = [];
    wb.worksheets[0]!.eachRow((row) =>
      row.eachCell((cell) => {
        expect(cell.formula).toBeUndefined();
        values.push(cell.value);
      }),
    );
    expect(values).toContain(`'${FORMULA_SURNAME}`);
    const attesta = await get('/api/reports/attesta?format=csv', w.admin);
    const lines = parse(attesta.rawPayload, { bom: true, delimiter: ';', columns: true }) as Record<
      string,
      string
    >[];
    expect(lines.map((l) => l.participantCode)).toEqual([sent.code]);
  });

  it('publishing the world’s diagnostic adds its scored results only (not awaiting, not annulled)', async () => {
    await t.app.ctx.db
      .update(diagnostics)
      .set({ resultsPublished: true, publishedAt: new Date() })
      .where(eq(diagnostics.id, w.diagnosticId));
    const a = (
      await get(`/api/reports/attesta?diagnosticId=${w.diagnosticId}`, w.admin)
    ).json() as ReportAttesta;
    const p = w.p;
    expect(a.items.map((i) => i.participantCode).sort()).toEqual(
      [p.p1, p.p2, p.p4, p.p6, p.p7, p.q1, p.q2].map((r) => r.code).sort(),
    );
    const onlyB = (
      await get(`/api/reports/mrko?schoolId=${w.b.schoolId}&startDate=${w.yesterday}`, w.admin)
    ).json() as ReportMrko;
    expect(onlyB.items.map((i) => i.participantCode).sort()).toEqual(
      [p.p6.code, p.p7.code, sent.code].sort(),
    );
    expect((await get('/api/reports/mrko?schoolId=999999', w.admin)).statusCode).toBe(404);
    expect((await get('/api/reports/attesta?format=pdf', w.admin)).statusCode).toBe(400);
  });
});
