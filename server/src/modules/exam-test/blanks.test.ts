import { NO_ACCOMMODATIONS } from '@attesta/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, organizatorAssignments, students } from '../../db/schema/index.js';
import {
  createExamWork,
  createOrg,
  createParticipantTest,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  signedInParticipant,
  tasksOfEveryType,
  type OrgFixture,
  type ParticipantTestFixture,
  type TestApp,
} from '../../../test/helpers.js';
import { decodeQrOf, readPdf } from '../../../test/pdf.js';
import { formatBlankCode, parseBlankCode } from './blanks.code.js';
import { tasksForBlank } from './blanks.service.js';

let t: TestApp;
let org: OrgFixture;
let pt: ParticipantTestFixture;
let workId: number;
let variantTaskIds: number[];
let registrationCode: string;

const SECRET = 'SECRETKEY';
const url = (id: number | string) => `/api/exam/test/examwork/${id}/blanks`;
const get = (id: number | string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: url(id), headers });

/** A participant test with a variant of every answer type and a work on it. */
async function workFixture(options: { impersonal?: boolean; answerMode?: string; deleted?: boolean } = {}) {
  const fixture = await createParticipantTest(t.app, org, { impersonal: options.impersonal });
  const variant = await createVariantWithTasks(t.app, fixture.subjectTestId, tasksOfEveryType(SECRET));
  const id = await createExamWork(t.app, fixture.participantTestId, variant.variantId, options);
  return { fixture, variant, workId: id };
}

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t.app);
  const made = await workFixture();
  pt = made.fixture;
  workId = made.workId;
  variantTaskIds = made.variant.variantTaskIds;
  const [row] = await t.database.query<{ registration_code: string }>(
    'select registration_code from participant_tests where id = $1',
    [pt.participantTestId],
  );
  registrationCode = row!.registration_code;
});
afterAll(async () => t.close());

describe('blank codes', () => {
  it('round-trips through parseBlankCode and an independent QR decoder', () => {
    const code = { registrationCode: '012345678901', examWorkId: 4711, page: 3 };
    const text = formatBlankCode(code);
    expect(text).toBe('ATTESTA:B1:012345678901:4711:3');
    expect(parseBlankCode(text)).toEqual(code);
    expect(parseBlankCode(`  ${text.toLowerCase()}\n`)).toEqual(code);
    expect(parseBlankCode(decodeQrOf(text)!)).toEqual(code);
  });

  it('rejects what is not a blank code', () => {
    for (const bad of [
      '',
      'ATTESTA:B2:0123:1:1',
      'ATTESTA:B1:0123:0:1',
      'ATTESTA:B1:0123:1:0',
      'ATTESTA:B1::1:1',
      'ATTESTA:B1:0123:1:1:9',
      'ATTESTA:B1:0123:99999999999:1',
      'ATTESTA:B1:0123:4294967296:1',
    ])
      expect(parseBlankCode(bad), bad).toBeNull();
  });
});

describe('tasksForBlank', () => {
  const all = [{ variantTaskId: 1 }, { variantTaskId: 2 }, { variantTaskId: 3 }];
  it('takes every task of a work in blank mode', () => {
    expect(tasksForBlank(all, 'blank', new Set([2]))).toEqual(all);
  });
  it('takes the tasks switched to paper, or all when none is', () => {
    expect(tasksForBlank(all, 'online', new Set([2, 3]))).toEqual([
      { variantTaskId: 2 },
      { variantTaskId: 3 },
    ]);
    expect(tasksForBlank(all, 'online', new Set())).toEqual(all);
  });
});

describe('GET /api/exam/test/examwork/{id}/blanks', () => {
  it('should require authentication', async () => {
    const res = await get(workId);
    expect(res.statusCode).toBe(401);
  });

  it('answers the participant their own forms as a PDF: header, every task, a code on every page, no key', async () => {
    const { session } = await signedInParticipant(t.app, pt);
    const res = await get(workId, { cookie: session.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="blank-${registrationCode}.pdf"`);
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

    const { pageCount, pages } = await readPdf(bytes);
    expect(pageCount).toBeGreaterThanOrEqual(2);
    const all = pages.join('\n');
    for (const words of [
      'БЛАНК ОТВЕТОВ',
      'Независимая диагностика',
      'Математика, 7 класс',
      'Иванов Иван',
      '7 «А»',
      'Регистрационный код',
      registrationCode,
      'Инструкция',
      'Обведите букву одного верного ответа',
      'вариант 1',
      'см',
      'Пропуск 2',
      'Москва',
      'прикрепите лист'.replace(/^п/, 'П'),
    ])
      expect(all).toContain(words);
    for (let n = 1; n <= variantTaskIds.length; n++) expect(all).toContain(`Задание ${n}`);
    pages.forEach((text, i) => {
      expect(text).toContain(formatBlankCode({ registrationCode, examWorkId: workId, page: i + 1 }));
      expect(text).toContain(`стр. ${i + 1} из ${pageCount}`);
    });
    expect(all).not.toContain(SECRET);
  });

  it('prints the large-print form for a student whose accommodations profile has large text', async () => {
    // Two students of the class sitting the same variant: one with large text in the profile.
    const studentId = org.studentIds[1]!;
    await t.app.ctx.db
      .update(students)
      .set({ accommodations: { ...NO_ACCOMMODATIONS, largeText: true } })
      .where(eq(students.id, studentId));
    const large = await createParticipantTest(t.app, org, { studentId });
    const variant = await createVariantWithTasks(t.app, large.subjectTestId, tasksOfEveryType(SECRET));
    const largeWork = await createExamWork(t.app, large.participantTestId, variant.variantId);
    const regular = await createParticipantTest(t.app, org, { studentId: org.studentIds[0]! });
    const regularVariant = await createVariantWithTasks(
      t.app,
      regular.subjectTestId,
      tasksOfEveryType(SECRET),
    );
    const regularWork = await createExamWork(t.app, regular.participantTestId, regularVariant.variantId);

    const pdfOf = async (fixture: ParticipantTestFixture, id: number) => {
      const { session } = await signedInParticipant(t.app, fixture);
      const res = await get(id, { cookie: session.cookie });
      expect(res.statusCode).toBe(200);
      return readPdf(res.rawPayload);
    };
    const big = await pdfOf(large, largeWork);
    const usual = await pdfOf(regular, regularWork);
    expect(big.pages[0]).toContain('Крупный шрифт');
    expect(usual.pages.join('\n')).not.toContain('Крупный шрифт');
    // Bigger type and cells for the same tasks: more pages, every task and page code still there.
    expect(big.pageCount).toBeGreaterThan(usual.pageCount);
    const all = big.pages.join('\n');
    for (let n = 1; n <= variant.variantTaskIds.length; n++) expect(all).toContain(`Задание ${n}`);
    big.pages.forEach((text, i) =>
      expect(text).toContain(
        formatBlankCode({
          registrationCode: text.match(/Рег\. код (\S+)/)![1]!,
          examWorkId: largeWork,
          page: i + 1,
        }),
      ),
    );
    expect(all).not.toContain(SECRET);
  });

  it('prints «Участник» for an impersonal participant test', async () => {
    const made = await workFixture({ impersonal: true });
    const { session } = await signedInParticipant(t.app, made.fixture);
    const res = await get(made.workId, { cookie: session.cookie });
    expect(res.statusCode).toBe(200);
    const { pages } = await readPdf(res.rawPayload);
    expect(pages[0]).toMatch(/Участник\s+Участник/);
    expect(pages[0]).not.toContain('Иванов');
  });

  it('prints only the tasks switched to paper when the work is online', async () => {
    const made = await workFixture();
    const [, second, third] = made.variant.variantTaskIds;
    await t.app.ctx.db.insert(answers).values([
      { examWorkId: made.workId, variantTaskId: second!, value: null, seq: 0, answerMode: 'blank' },
      { examWorkId: made.workId, variantTaskId: third!, value: null, seq: 0, answerMode: 'online' },
    ]);
    const { session } = await signedInParticipant(t.app, made.fixture);
    const { pages } = await readPdf((await get(made.workId, { cookie: session.cookie })).rawPayload);
    const all = pages.join('\n');
    expect(all).toContain('Задание 2');
    expect(all).not.toMatch(/Задание (1|3|4|10)\b/);
  });

  it("refuses another participant's work (403)", async () => {
    const other = await createParticipantTest(t.app, org);
    const { session } = await signedInParticipant(t.app, other);
    const res = await get(workId, { cookie: session.cookie });
    expect(res.statusCode).toBe(403);
  });

  it('lets an organizator assigned to the class in, and refuses one who is not (403)', async () => {
    const assigned = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    await t.app.ctx.db
      .insert(organizatorAssignments)
      .values({ userId: assigned.user.id, classId: org.classId });
    const ok = await get(workId, { cookie: assigned.session.cookie });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('application/pdf');

    const stranger = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    const res = await get(workId, { cookie: stranger.session.cookie });
    expect(res.statusCode).toBe(403);
  });

  it('lets the coordinator of the school in, not one of another school', async () => {
    const own = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    expect((await get(workId, { cookie: own.session.cookie })).statusCode).toBe(200);
    const otherOrg = await createOrg(t.app);
    const other = await signedIn(t.app, ['coordinator'], { schoolId: otherOrg.schoolId });
    expect((await get(workId, { cookie: other.session.cookie })).statusCode).toBe(403);
  });

  it('refuses other roles (403)', async () => {
    const { session } = await signedIn(t.app, ['expert']);
    expect((await get(workId, { cookie: session.cookie })).statusCode).toBe(403);
  });

  it('answers 404 for a deleted or unknown work, 400 for a bad id', async () => {
    const made = await workFixture({ deleted: true });
    const { session } = await signedInParticipant(t.app, made.fixture);
    const deleted = await get(made.workId, { cookie: session.cookie });
    expect(deleted.statusCode).toBe(404);
    expect(deleted.json()).toMatchObject({ code: 'not_found' });
    const coordinator = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    expect((await get(99_999_999, { cookie: coordinator.session.cookie })).statusCode).toBe(404);
    expect((await get('abc', { cookie: coordinator.session.cookie })).statusCode).toBe(400);
  });
});
