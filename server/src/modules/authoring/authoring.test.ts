import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { OUR_ENDPOINTS } from '@attesta/contract';
import {
  countRows,
  createOrg,
  createParticipantTest,
  createStoredFile,
  createExamWork,
  guardResults,
  signedIn,
  signedInParticipant,
  type Session,
  type TestApp,
  createTestApp,
} from '../../../test/helpers.js';
import { tasks, variants } from '../../db/schema/index.js';
import { canEditContent } from './authoring.access.js';
import { api, essay, ok, singleChoice, type Method } from './test-support.js';

// Content authoring (issue 11): subjects, exams, groups, subject tests, tasks and variants through
// /api/admin/content/*, admin only, audited, bad input changing nothing.

let t: TestApp;
let admin: Session;
let coordinator: Session;
let expert: Session;
let participant: Session;
let a: ReturnType<typeof api>;
let subjectId: number;
let examId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, ['admin'])).session;
  const org = await createOrg(t.app);
  coordinator = (await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId })).session;
  expert = (await signedIn(t.app, ['expert'])).session;
  participant = (await signedInParticipant(t.app, await createParticipantTest(t.app, org))).session;
  a = api(t.app, admin);
  subjectId = ok<{ id: number }>(
    await a.post('/api/admin/content/subjects', { name: 'Физика', code: 'PHYS' }),
  ).id;
  examId = ok<{ id: number }>(
    await a.post(`/api/admin/content/subjects/${subjectId}/exams`, {
      kind: 'diagnostic',
      name: 'Диагностика',
    }),
  ).id;
});
afterAll(async () => t.close());

const audits = (action: string) => countRows(t.database, 'audit_events', `action = '${action}'`);

describe('access to every authoring call', () => {
  // The calls of this module (the content import and export calls live elsewhere).
  const calls = OUR_ENDPOINTS.filter(
    (e) =>
      /^\/api\/admin\/content\/(subjects|subjectExams|testGroups|subjectTests|variants|tasks|specifications|specificationElements)\b/.test(
        e.path,
      ) && !/\/export$/.test(e.path),
  );

  it('covers the 36 calls of issue 11', () => expect(calls).toHaveLength(36));

  it.each(calls.map((c) => [c.method, c.path] as const))(
    '%s %s: 401 without a session, 403 to other roles, 403 csrf without the header',
    async (method, path) => {
      const url = path.replace(/\{\w+\}/g, '1');
      const payload = method === 'GET' || method === 'DELETE' ? undefined : {};
      for (const wrongRole of [coordinator, expert, participant]) {
        const r = await guardResults(
          t.app,
          { method: method as Method, url, payload },
          { allowed: admin, wrongRole },
        );
        expect(r.anonymous).toBe(401);
        expect(r.wrongRole).toBe(403);
        if (method !== 'GET') expect(r.noCsrf).toBe('csrf');
      }
    },
  );

  it('the scope rule is the admin today, whatever the subject', () => {
    const auth = (roles: string[]) => ({ roles }) as unknown as Parameters<typeof canEditContent>[0];
    expect(canEditContent(auth(['admin']), 1)).toBe(true);
    expect(canEditContent(auth(['admin']), null)).toBe(true);
    expect(canEditContent(auth(['expert', 'coordinator']), 1)).toBe(false);
  });
});

describe('subjects, subject exams and test groups', () => {
  it('creates, lists and updates subjects; a taken code is 409; bad input changes nothing', async () => {
    const created = ok(await a.post('/api/admin/content/subjects', { name: 'Химия', code: 'CHEM' }));
    expect(created).toMatchObject({ name: 'Химия', code: 'CHEM', examCount: 0, taskCount: 0 });
    const list = ok<{ name: string }[]>(await a.get('/api/admin/content/subjects'));
    expect(list.map((s) => s.name)).toEqual(expect.arrayContaining(['Физика', 'Химия']));

    const before = await countRows(t.database, 'subjects');
    const taken = await a.post('/api/admin/content/subjects', { name: 'Ещё', code: 'PHYS' });
    expect([taken.statusCode, taken.json().code]).toEqual([409, 'code_taken']);
    const bad = await a.post('/api/admin/content/subjects', { name: '  ' });
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'validation_failed']);
    expect(await countRows(t.database, 'subjects')).toBe(before);

    const renamed = ok(
      await a.put(`/api/admin/content/subjects/${created.id}`, { name: 'Химия 2', code: null }),
    );
    expect(renamed).toMatchObject({ name: 'Химия 2', code: null });
    expect(
      (await a.put(`/api/admin/content/subjects/${created.id}`, { name: 'x', code: 'PHYS' })).statusCode,
    ).toBe(409);
    expect((await a.put('/api/admin/content/subjects/999999', { name: 'x' })).statusCode).toBe(404);
    expect(await audits('content.subject.update')).toBe(1);
  });

  it('one exam per kind and subject', async () => {
    const exams = ok<{ kind: string }[]>(await a.get(`/api/admin/content/subjects/${subjectId}/exams`));
    expect(exams.map((e) => e.kind)).toEqual(['diagnostic']);
    const twin = await a.post(`/api/admin/content/subjects/${subjectId}/exams`, {
      kind: 'diagnostic',
      name: 'x',
    });
    expect([twin.statusCode, twin.json().code]).toEqual([409, 'conflict']);
    const bad = await a.post(`/api/admin/content/subjects/${subjectId}/exams`, {
      kind: 'olympiad',
      name: 'x',
    });
    expect(bad.statusCode).toBe(400);
    const preprof = ok<{ id: number }>(
      await a.post(`/api/admin/content/subjects/${subjectId}/exams`, { kind: 'preprof', name: 'Предпроф' }),
    );
    const renamed = ok(
      await a.put(`/api/admin/content/subjectExams/${preprof.id}`, { kind: 'preprof', name: 'П' }),
    );
    expect(renamed).toMatchObject({ name: 'П', subjectId });
    const clash = await a.put(`/api/admin/content/subjectExams/${preprof.id}`, {
      kind: 'diagnostic',
      name: 'П',
    });
    expect(clash.statusCode).toBe(409);
    expect((await a.get('/api/admin/content/subjects/999999/exams')).statusCode).toBe(404);
  });

  it('test groups', async () => {
    const group = ok<{ id: number; name: string }>(
      await a.post('/api/admin/content/testGroups', { name: 'Весна' }),
    );
    expect(ok<{ id: number }[]>(await a.get('/api/admin/content/testGroups')).map((g) => g.id)).toContain(
      group.id,
    );
    expect((await a.post('/api/admin/content/testGroups', { name: '' })).statusCode).toBe(400);
  });
});

describe('subject tests', () => {
  it('creates a draft with sanitised html, lists with filters, updates; bad references are 400 and change nothing', async () => {
    const body = {
      subjectExamId: examId,
      name: 'Физика, 8 класс',
      parallels: [8],
      durationMinutes: 40,
      procedureHtml: '<p onclick="x()">Порядок<script>alert(1)</script></p>',
      markScale: [
        { mark: '3', minScore: 0 },
        { mark: '5', minScore: 8 },
      ],
      levelBands: [{ level: 'базовый', minPercent: 50 }],
    };
    const created = ok<{ id: number; status: string; procedureHtml: string; markScale: { mark: string }[] }>(
      await a.post('/api/admin/content/subjectTests', body),
    );
    expect(created.status).toBe('draft');
    expect(created.procedureHtml).toBe('<p>Порядок</p>');
    expect(created.markScale.map((s) => s.mark)).toEqual(['5', '3']);

    const list = ok<{ items: { id: number }[]; total: number }>(
      await a.post('/api/admin/content/subjectTests/list', {
        filter: { subjectId, status: 'draft', parallel: 8 },
      }),
    );
    expect(list.items.map((i) => i.id)).toEqual([created.id]);
    const none = ok<{ total: number }>(
      await a.post('/api/admin/content/subjectTests/list', { filter: { subjectId, status: 'published' } }),
    );
    expect(none.total).toBe(0);

    const before = await countRows(t.database, 'subject_tests');
    const noExam = await a.post('/api/admin/content/subjectTests', { ...body, subjectExamId: 999999 });
    expect([noExam.statusCode, noExam.json().errors[0].path]).toEqual([400, 'body.subjectExamId']);
    const badScale = await a.post('/api/admin/content/subjectTests', {
      ...body,
      markScale: [
        { mark: '3', minScore: 0 },
        { mark: '4', minScore: 0 },
      ],
    });
    expect(badScale.statusCode).toBe(400);
    expect(await countRows(t.database, 'subject_tests')).toBe(before);

    const updated = ok(
      await a.put(`/api/admin/content/subjectTests/${created.id}`, {
        ...body,
        name: 'Физика, 8 класс (весна)',
        durationMinutes: 45,
        instructionHtml: '<b>Инструкция</b><img src="javascript:x">',
      }),
    );
    expect(updated).toMatchObject({
      name: 'Физика, 8 класс (весна)',
      durationMinutes: 45,
      instructionHtml: '<b>Инструкция</b><img />',
    });
    expect(ok(await a.get(`/api/admin/content/subjectTests/${created.id}`))).toMatchObject({
      durationMinutes: 45,
    });
    expect((await a.get('/api/admin/content/subjectTests/999999')).statusCode).toBe(404);
    expect(await audits('content.subject_test.update')).toBe(1);
  });
});

describe('tasks', () => {
  it('creates a task checked by the task model; html sanitised; criteria keep their step', async () => {
    const res = await a.post('/api/admin/content/tasks', {
      ...singleChoice(subjectId),
      html: '<p>2 + 2?<script>steal()</script></p>',
      category: 'Механика/Движение',
      title: 'Сложение',
    });
    const task = ok<Record<string, unknown>>(res);
    expect(task).toMatchObject({
      answerType: 'single_choice',
      html: '<p>2 + 2?</p>',
      reference: { correct: 'o2' },
      scoring: { method: 'all_or_nothing' },
      maxScore: 1,
      subjectId,
      category: 'Механика/Движение',
      version: 1,
      previousVersionId: null,
      supersededAt: null,
      elementIds: [],
      files: [],
      usedByWorks: false,
    });
    expect(task.content).toMatchObject({ shuffle: false });
    const e = ok<{ criteria: unknown }>(await a.post('/api/admin/content/tasks', essay(subjectId)));
    expect(e.criteria).toEqual([{ code: 'К1', text: 'Тезис сформулирован', maxScore: 2, step: 0.5 }]);
  });

  it('refuses a definition the task model refuses (400 invalid_task) and writes nothing', async () => {
    const before = await countRows(t.database, 'tasks');
    const outside = await a.post(
      '/api/admin/content/tasks',
      singleChoice(subjectId, { reference: { correct: 'zz' } }),
    );
    expect([outside.statusCode, outside.json().code]).toEqual([400, 'invalid_task']);
    expect(outside.json().errors[0].path).toBe('body.reference.correct');
    const noCriteria = await a.post('/api/admin/content/tasks', essay(subjectId, { criteria: [] }));
    expect(noCriteria.json().code).toBe('invalid_task');
    const badStep = await a.post(
      '/api/admin/content/tasks',
      essay(subjectId, { criteria: [{ code: 'К1', text: 't', maxScore: 2, step: 0.75 }] }),
    );
    expect(badStep.json().errors.map((x: { path: string }) => x.path)).toEqual(['body.criteria.0.step']);
    const unknownType = await a.post(
      '/api/admin/content/tasks',
      singleChoice(subjectId, { answerType: 'telepathy' }),
    );
    expect([unknownType.statusCode, unknownType.json().code]).toEqual([400, 'validation_failed']);
    const noSubject = await a.post('/api/admin/content/tasks', singleChoice(999999));
    expect(noSubject.statusCode).toBe(400);
    expect(await countRows(t.database, 'tasks')).toBe(before);
  });

  it('GET gives the task with key, files and classifiers; 404 for none', async () => {
    const { id } = ok<{ id: number }>(await a.post('/api/admin/content/tasks', singleChoice(subjectId)));
    const fileId = await createStoredFile(t.app, {
      ownerType: 'task',
      ownerId: id,
      name: 'рис.png',
      mime: 'image/png',
    });
    const got = ok<{ files: unknown[] }>(await a.get(`/api/admin/content/tasks/${id}`));
    expect(got.files).toEqual([{ id: fileId, name: 'рис.png', mime: 'image/png' }]);
    expect((await a.get('/api/admin/content/tasks/999999')).statusCode).toBe(404);
    expect((await a.get('/api/admin/content/tasks/abc')).statusCode).toBe(400);
  });

  it('scores a trial answer with the scoring engine; a value of another shape is 400 invalid_answer', async () => {
    const { id } = ok<{ id: number }>(await a.post('/api/admin/content/tasks', singleChoice(subjectId)));
    expect(ok(await a.post(`/api/admin/content/tasks/${id}/score`, { value: 'o2' }))).toEqual({
      score: 1,
      maxScore: 1,
      status: 'scored',
      correct: true,
    });
    expect(ok(await a.post(`/api/admin/content/tasks/${id}/score`, { value: 'o1' }))).toMatchObject({
      score: 0,
      correct: false,
    });
    expect(ok(await a.post(`/api/admin/content/tasks/${id}/score`, { value: '' }))).toMatchObject({
      score: 0,
      status: 'empty',
    });
    const wrong = await a.post(`/api/admin/content/tasks/${id}/score`, { value: { o2: true } });
    expect([wrong.statusCode, wrong.json().code]).toEqual([400, 'invalid_answer']);
    const extra = await a.post(`/api/admin/content/tasks/${id}/score`, { value: 'o2', seq: 1 });
    expect(extra.statusCode).toBe(400);

    const e = ok<{ id: number }>(await a.post('/api/admin/content/tasks', essay(subjectId)));
    expect(ok(await a.post(`/api/admin/content/tasks/${e.id}/score`, { value: 'Моё рассуждение' }))).toEqual({
      score: null,
      maxScore: 2,
      status: 'manual',
    });
    expect((await a.post('/api/admin/content/tasks/999999/score', { value: 'o1' })).statusCode).toBe(404);
  });

  it('a stored task the engine cannot score answers 409 content_invalid to a trial', async () => {
    const [row] = await t.app.ctx.db
      .insert(tasks)
      .values({
        answerType: 'single_choice',
        html: '<p>x</p>',
        content: { options: [] },
        reference: { correct: 'a' },
      })
      .returning();
    const res = await a.post(`/api/admin/content/tasks/${row!.id}/score`, { value: 'a' });
    expect([res.statusCode, res.json().code]).toEqual([409, 'content_invalid']);
  });

  it('lists the pool by subject, category (and below), answer type and text', async () => {
    const other = ok<{ id: number }>(await a.post('/api/admin/content/subjects', { name: 'Биология' })).id;
    const mk = async (body: object) => ok<{ id: number }>(await a.post('/api/admin/content/tasks', body)).id;
    const t1 = await mk(singleChoice(other, { category: 'Клетка', title: 'Органоиды' }));
    const t2 = await mk(singleChoice(other, { category: 'Клетка/Деление', html: '<p>Митоз</p>' }));
    const t3 = await mk(essay(other, { category: 'Экология' }));
    const list = async (filter: object) =>
      ok<{ items: { id: number }[]; total: number }>(
        await a.post('/api/admin/content/tasks/list', { filter }),
      ).items.map((i) => i.id);
    expect(await list({ subjectId: other })).toEqual([t1, t2, t3]);
    expect(await list({ subjectId: other, category: 'Клетка' })).toEqual([t1, t2]);
    expect(await list({ subjectId: other, answerType: 'extended_text' })).toEqual([t3]);
    expect(await list({ subjectId: other, search: 'митоз' })).toEqual([t2]);
    expect(await list({ subjectId: other, search: 'органоид' })).toEqual([t1]);
    const page = ok<{ items: unknown[]; total: number }>(
      await a.post('/api/admin/content/tasks/list', { page: 2, pageSize: 2, filter: { subjectId: other } }),
    );
    expect([page.items.length, page.total]).toEqual([1, 3]);
    expect((await a.post('/api/admin/content/tasks/list', { filter: { nope: 1 } })).statusCode).toBe(400);
  });
});

describe('variants by hand', () => {
  let testId: number;
  let taskIds: number[];
  beforeAll(async () => {
    testId = ok<{ id: number }>(
      await a.post('/api/admin/content/subjectTests', {
        subjectExamId: examId,
        name: 'Варианты',
        parallels: [9],
        durationMinutes: 30,
      }),
    ).id;
    taskIds = [];
    for (const body of [singleChoice(subjectId), singleChoice(subjectId, { maxScore: 2 }), essay(subjectId)])
      taskIds.push(ok<{ id: number }>(await a.post('/api/admin/content/tasks', body)).id);
  });

  it('creates a variant with per-position max scores defaulting to the task’s', async () => {
    const v = ok<{
      id: number;
      number: number;
      maxScore: number;
      tasks: { taskId: number; maxScore: number }[];
    }>(
      await a.post(`/api/admin/content/subjectTests/${testId}/variants`, {
        tasks: [{ taskId: taskIds[0] }, { taskId: taskIds[1], maxScore: 3 }, { taskId: taskIds[2] }],
      }),
    );
    expect(v.number).toBe(1);
    expect(v.tasks.map((x) => [x.taskId, x.maxScore])).toEqual([
      [taskIds[0], 1],
      [taskIds[1], 3],
      [taskIds[2], 2],
    ]);
    expect(v.maxScore).toBe(6);
    const twin = await a.post(`/api/admin/content/subjectTests/${testId}/variants`, {
      number: 1,
      tasks: [{ taskId: taskIds[0] }],
    });
    expect(twin.statusCode).toBe(409);
  });

  it('refuses unknown, repeated or other-subject tasks and changes nothing', async () => {
    const before = await countRows(t.database, 'variants');
    const unknown = await a.post(`/api/admin/content/subjectTests/${testId}/variants`, {
      tasks: [{ taskId: 999999 }],
    });
    expect([unknown.statusCode, unknown.json().errors[0].path]).toEqual([400, 'body.tasks.0.taskId']);
    const twice = await a.post(`/api/admin/content/subjectTests/${testId}/variants`, {
      tasks: [{ taskId: taskIds[0] }, { taskId: taskIds[0] }],
    });
    expect(twice.statusCode).toBe(400);
    const other = ok<{ id: number }>(await a.post('/api/admin/content/subjects', { name: 'География' })).id;
    const foreign = ok<{ id: number }>(await a.post('/api/admin/content/tasks', singleChoice(other))).id;
    const res = await a.post(`/api/admin/content/subjectTests/${testId}/variants`, {
      tasks: [{ taskId: foreign }],
    });
    expect(res.json().errors[0].code).toBe('other_subject');
    expect(await countRows(t.database, 'variants')).toBe(before);
  });

  it('updates an unused variant in place and deletes it; a used one is 409 has_exam_works', async () => {
    const v = ok<{ id: number }>(
      await a.post(`/api/admin/content/subjectTests/${testId}/variants`, { tasks: [{ taskId: taskIds[0] }] }),
    );
    const updated = ok<{ id: number; tasks: { taskId: number }[] }>(
      await a.put(`/api/admin/content/variants/${v.id}`, {
        tasks: [{ taskId: taskIds[1] }, { taskId: taskIds[0] }],
      }),
    );
    expect(updated.id).toBe(v.id);
    expect(updated.tasks.map((x) => x.taskId)).toEqual([taskIds[1], taskIds[0]]);
    const list = ok<{ id: number }[]>(await a.get(`/api/admin/content/subjectTests/${testId}/variants`));
    expect(list.map((x) => x.id)).toContain(v.id);

    // A task in a current variant is not withdrawn.
    const inUse = await a.del(`/api/admin/content/tasks/${taskIds[1]}`);
    expect([inUse.statusCode, inUse.json().code]).toEqual([409, 'conflict']);

    expect(ok(await a.del(`/api/admin/content/variants/${v.id}`))).toEqual({ ok: true });
    expect((await a.get(`/api/admin/content/variants/${v.id}`)).statusCode).toBe(404);

    const used = ok<{ id: number }>(
      await a.post(`/api/admin/content/subjectTests/${testId}/variants`, { tasks: [{ taskId: taskIds[0] }] }),
    );
    const org = await createOrg(t.app);
    const pt = await createParticipantTest(t.app, org);
    await createExamWork(t.app, pt.participantTestId, used.id);
    const refused = await a.del(`/api/admin/content/variants/${used.id}`);
    expect([refused.statusCode, refused.json().code]).toEqual([409, 'has_exam_works']);
    const [still] = await t.app.ctx.db.select().from(variants).where(eq(variants.id, used.id));
    expect(still!.supersededAt).toBeNull();
  });

  it('withdraws a task no variant uses (soft): it leaves the pool, the row stays', async () => {
    const { id } = ok<{ id: number }>(await a.post('/api/admin/content/tasks', singleChoice(subjectId)));
    expect(ok(await a.del(`/api/admin/content/tasks/${id}`))).toEqual({ ok: true });
    const got = ok<{ supersededAt: string | null }>(await a.get(`/api/admin/content/tasks/${id}`));
    expect(got.supersededAt).not.toBeNull();
    const pool = ok<{ items: { id: number }[] }>(
      await a.post('/api/admin/content/tasks/list', { pageSize: 500, filter: { subjectId } }),
    );
    expect(pool.items.map((i) => i.id)).not.toContain(id);
    expect((await a.del(`/api/admin/content/tasks/${id}`)).statusCode).toBe(409);
    expect(await audits('content.task.withdraw')).toBe(1);
  });
});
