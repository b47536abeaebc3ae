import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  diagnostics,
  diagnosticSchools,
  diagnosticSubjectTests,
  subjectTests,
  testGroups,
} from '../../db/schema/index.js';
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
  type Session,
  type TestApp,
} from '../../../test/helpers.js';

const SECRET = 'CATALOGLEAKMARKER';

let t: TestApp;
let org: OrgFixture;
let admin: Session;
let participant: Session;
let subjectTestId: number;
let diagnosticId: number;
let variantId: number;
let otherVariantId: number;
let groupId: number;

const get = (url: string, session: Session | null) =>
  t.app.inject({ method: 'GET', url: `/api/exam/test/${url}`, headers: session?.headers ?? {} });

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t.app);
  admin = (await signedIn(t.app, ['admin'])).session;
  const pt = await createParticipantTest(t.app, org);
  subjectTestId = pt.subjectTestId;
  diagnosticId = pt.diagnosticId;
  variantId = (await createVariantWithTasks(t.app, subjectTestId, tasksOfEveryType(SECRET))).variantId;
  otherVariantId = (await createVariantWithTasks(t.app, subjectTestId, tasksOfEveryType(SECRET))).variantId;
  await createExamWork(t.app, pt.participantTestId, variantId);
  participant = (await signedInParticipant(t.app, pt)).session;

  const [group] = await t.app.ctx.db.insert(testGroups).values({ name: 'Основная школа' }).returning();
  groupId = group!.id;
  await t.app.ctx.db
    .update(subjectTests)
    .set({
      testGroupId: groupId,
      parallels: [7, 8],
      description: '<p>Описание<img src="x" onerror="alert(1)"></p>',
      instructionHtml: '<h2>Инструкция</h2><script>steal()</script>',
    })
    .where(eq(subjectTests.id, subjectTestId));
  // The diagnostic of the fixture includes the school and this test.
  await t.app.ctx.db.insert(diagnosticSchools).values({ diagnosticId, schoolId: org.schoolId });
  await t.app.ctx.db.insert(diagnosticSubjectTests).values({ diagnosticId, subjectTestId });
});
afterAll(async () => t.close());

describe('subject test summary and texts', () => {
  it('GET subjecttest/{id}: the summary, to anybody signed in', async () => {
    expect((await get(`subjecttest/${subjectTestId}`, null)).statusCode).toBe(401);
    const res = await get(`subjecttest/${subjectTestId}`, participant);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: subjectTestId,
      name: 'Математика, 7 класс',
      subjectName: expect.any(String),
      parallels: [7, 8],
      durationMinutes: 45,
      description: '<p>Описание<img src="x" /></p>',
      taskCount: 10,
      allowBlank: true,
      allowCalculator: false,
      testGroupId: groupId,
      hasQuiz: false,
    });
    expect((await get('subjecttest/999999', participant)).statusCode).toBe(404);
    expect((await get('subjecttest/-1', participant)).statusCode).toBe(400);
  });

  it('taskCount is null for a test without variants', async () => {
    const pt = await createParticipantTest(t.app, org);
    expect((await get(`subjecttest/${pt.subjectTestId}`, admin)).json().taskCount).toBeNull();
  });

  it('GET description/{id} and subjecttesthtml/{id}: sanitized html', async () => {
    const description = await get(`description/${subjectTestId}`, participant);
    expect(description.json()).toEqual({ subjectTestId, html: '<p>Описание<img src="x" /></p>' });
    const instruction = await get(`subjecttesthtml/${subjectTestId}`, participant);
    expect(instruction.json()).toEqual({ subjectTestId, html: '<h2>Инструкция</h2>' });
    expect((await get('description/999999', participant)).statusCode).toBe(404);
    expect((await get('subjecttesthtml/999999', participant)).statusCode).toBe(404);
    expect((await get(`subjecttesthtml/${subjectTestId}`, null)).statusCode).toBe(401);
  });
});

describe('groups and parallels', () => {
  it('GET testgroups', async () => {
    const res = await get('testgroups', participant);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toContainEqual({ id: groupId, name: 'Основная школа' });
  });

  it('GET subjecttests/{testGroupId}/{parallel}: tests of the group offered for the grade', async () => {
    const res = await get(`subjecttests/${groupId}/8`, participant);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((s: { id: number }) => s.id)).toEqual([subjectTestId]);
    expect((await get(`subjecttests/${groupId}/5`, participant)).json()).toEqual([]);
    expect((await get(`subjecttests/${groupId}/12`, participant)).statusCode).toBe(400);
    expect((await get(`subjecttests/x/7`, participant)).statusCode).toBe(400);
  });

  it('GET parallels?TestId=: the grades of the test; TestId missing or invalid → 400', async () => {
    const res = await get(`parallels?TestId=${subjectTestId}`, participant);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: 7, name: expect.any(String) },
      { id: 8, name: expect.any(String) },
    ]);
    for (const q of ['', '?TestId=', '?TestId=abc', '?TestId=0']) {
      const bad = await get(`parallels${q}`, participant);
      expect(bad.statusCode, q).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'validation_failed' });
    }
    expect((await get('parallels?TestId=999999', participant)).statusCode).toBe(404);
  });
});

describe('GET variant/{id}/taskTextHtml', () => {
  it('a participant prints their own variant: one document, every task rendered, no keys', async () => {
    const res = await get(`variant/${variantId}/taskTextHtml`, participant);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const html = res.body;
    expect(html.startsWith('<!doctype html>')).toBe(true);
    for (let n = 1; n <= 10; n++) expect(html).toContain(`Задание ${n} `);
    expect(html).toContain('<li>Вариант 4</li>'); // options
    expect(html).toContain('(1) ________'); // cloze text blank
    expect(html).toContain('[Волга / Москва]'); // cloze drop-down
    expect(html).toContain('<th>А</th>'); // matching answer grid
    expect(html).toContain('см'); // unit of the number task
    expect(html).not.toContain(SECRET);
    expect(html).not.toMatch(/<script|onerror|onclick/i);
  });

  it('a participant cannot print another variant', async () => {
    expect((await get(`variant/${otherVariantId}/taskTextHtml`, participant)).statusCode).toBe(403);
  });

  it('school staff print once the diagnostic of their school has started; others not', async () => {
    const coordinator = (await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId })).session;
    const organizator = (await signedIn(t.app, ['organizator'], { schoolId: org.schoolId })).session;
    const expert = (await signedIn(t.app, ['expert'])).session;
    const otherSchool = await createOrg(t.app);
    const foreign = (await signedIn(t.app, ['coordinator'], { schoolId: otherSchool.schoolId })).session;
    const ugnik = (await signedIn(t.app, ['ugnik'])).session;

    for (const s of [coordinator, organizator, expert, admin]) {
      const res = await get(`variant/${otherVariantId}/taskTextHtml`, s);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(SECRET);
    }
    expect((await get(`variant/${variantId}/taskTextHtml`, foreign)).statusCode).toBe(403);
    expect((await get(`variant/${variantId}/taskTextHtml`, ugnik)).statusCode).toBe(403);
    expect((await get(`variant/${variantId}/taskTextHtml`, null)).statusCode).toBe(401);

    // Not yet started: nobody at the school prints the test before the exam.
    await t.app.ctx.db
      .update(diagnostics)
      .set({ startsAt: new Date(Date.now() + 86_400_000) })
      .where(eq(diagnostics.id, diagnosticId));
    expect((await get(`variant/${variantId}/taskTextHtml`, coordinator)).statusCode).toBe(403);
    expect((await get(`variant/${variantId}/taskTextHtml`, organizator)).statusCode).toBe(403);
    expect((await get(`variant/${variantId}/taskTextHtml`, admin)).statusCode).toBe(200);
    await t.app.ctx.db
      .update(diagnostics)
      .set({ startsAt: new Date(Date.now() - 86_400_000) })
      .where(eq(diagnostics.id, diagnosticId));
  });

  it('unknown variant → 404, bad id → 400', async () => {
    expect((await get('variant/999999/taskTextHtml', admin)).statusCode).toBe(404);
    expect((await get('variant/999999/taskTextHtml', participant)).statusCode).toBe(404);
    expect((await get('variant/abc/taskTextHtml', admin)).statusCode).toBe(400);
  });
});
