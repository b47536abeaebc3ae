import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  closeWindow,
  createExamWork,
  createParticipantTest,
  createSchoolWithStaff,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  signedInParticipant,
  tasksOfEveryType,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { readPdf } from '../../../test/pdf.js';
import {
  answers,
  examWorks,
  participantTests,
  queueItems,
  results,
  subjectTests,
  taskScores,
  tasks,
} from '../../db/schema/index.js';
import { sweepExpired } from '../exam-test/sweeper.js';
import { applyExpertFinal, regrade, scoreWork } from './results.service.js';

const SECRET = 'RESULTSECRETZZ';

/*
 * The known answer set over tasksOfEveryType (max 1,1,1,1,2,1,2,2,1,1 = 13):
 * single right 1, multiple {o1,o3} 1 (per_choice clamped), short text right 1, number «12,5» 1,
 * digits «312» 2, ordering empty 0, matching half right 1, cloze both right 2, extended text → experts,
 * file empty 0. Auto total 9; with the experts' 1 for the extended answer, 10 → mark «5».
 */
const KNOWN_ANSWERS: unknown[] = [
  'o2',
  ['o1', 'o3'],
  `${SECRET}-ref-3`,
  '12,5',
  '312',
  null,
  { a: 'o2', b: 'o3' },
  { b1: `${SECRET}-ref-8`, b2: 'c2' },
  'Развёрнутый ответ участника',
  null,
];
const MARK_SCALE = [
  { mark: '5', minScore: 10, level: 'высокий' },
  { mark: '4', minScore: 7, level: 'повышенный' },
  { mark: '3', minScore: 4, level: 'базовый' },
  { mark: '2', minScore: 0, level: 'недостаточный' },
];

let t: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
});
afterAll(async () => t?.close());

interface World {
  school: Awaited<ReturnType<typeof createSchoolWithStaff>>;
  participantTestId: number;
  diagnosticId: number;
  subjectTestId: number;
  variantId: number;
  variantTaskIds: number[];
  taskIds: number[];
  workId: number;
  participant: Session;
}

const get = (url: string, session: Session | null) =>
  app.inject({ method: 'GET', url, headers: session?.headers ?? {} });

/** A participant who answered KNOWN_ANSWERS in a started work (not finished). */
async function world(): Promise<World> {
  const school = await createSchoolWithStaff(app);
  const pt = await createParticipantTest(app, school, { status: 'in_progress' });
  await app.ctx.db
    .update(subjectTests)
    .set({ markScale: MARK_SCALE })
    .where(eq(subjectTests.id, pt.subjectTestId));
  const v = await createVariantWithTasks(app, pt.subjectTestId, tasksOfEveryType(SECRET));
  const workId = await createExamWork(app, pt.participantTestId, v.variantId);
  const rows = KNOWN_ANSWERS.flatMap((value, i) =>
    value === null ? [] : [{ examWorkId: workId, variantTaskId: v.variantTaskIds[i]!, value, seq: 1 }],
  );
  await app.ctx.db.insert(answers).values(rows);
  const { session } = await signedInParticipant(app, pt);
  return {
    school,
    participantTestId: pt.participantTestId,
    diagnosticId: pt.diagnosticId,
    subjectTestId: pt.subjectTestId,
    variantId: v.variantId,
    variantTaskIds: v.variantTaskIds,
    taskIds: v.taskIds,
    workId,
    participant: session,
  };
}

async function finishAndScore(w: World) {
  const res = await app.inject({
    method: 'PUT',
    url: `/api/exam/test/examwork/finish/${w.workId}/manual`,
    headers: w.participant.headers,
  });
  expect(res.statusCode).toBe(200);
  await app.jobs.drain();
}

/** The experts' final mark of the extended answer (task 9). */
const gradeExtended = (w: World, score = 1) =>
  app.ctx.db.transaction((tx) => applyExpertFinal(tx, w.workId, w.variantTaskIds[8]!, score));

const resultRow = async (workId: number) =>
  (await app.ctx.db.select().from(results).where(eq(results.examWorkId, workId)))[0];

describe('scoring on finish', () => {
  it('finish → result job → totals of the known answer set; awaiting experts until their mark', async () => {
    const w = await world();
    await finishAndScore(w);
    const r = await resultRow(w.workId);
    expect(r).toMatchObject({
      status: 'awaiting_experts',
      primaryScore: 9,
      maxScore: 13,
      percent: 69.2,
      mark: null,
    });
    expect(r!.verificationCode).toMatch(/^R-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
    const scores = await app.ctx.db.select().from(taskScores).where(eq(taskScores.examWorkId, w.workId));
    const byTask = new Map(scores.map((s) => [s.variantTaskId, s]));
    expect(byTask.get(w.variantTaskIds[8]!)).toMatchObject({ status: 'awaiting_experts', finalScore: null });
    expect(byTask.get(w.variantTaskIds[9]!)).toMatchObject({
      status: 'auto',
      finalScore: 0,
      autoStatus: 'empty',
    });
    expect(byTask.get(w.variantTaskIds[4]!)).toMatchObject({ status: 'auto', finalScore: 2 });
    const [pt] = await app.ctx.db
      .select()
      .from(participantTests)
      .where(eq(participantTests.id, w.participantTestId));
    expect(pt!.status).toBe('finished');

    const after = await gradeExtended(w);
    expect(after).toMatchObject({ status: 'scored', primaryScore: 10, mark: '5', level: 'высокий' });
    expect(after.verificationCode).toBe(r!.verificationCode);
    const [pt2] = await app.ctx.db
      .select()
      .from(participantTests)
      .where(eq(participantTests.id, w.participantTestId));
    expect(pt2!.status).toBe('scored');
    const [work] = await app.ctx.db.select().from(examWorks).where(eq(examWorks.id, w.workId));
    expect(work!.status).toBe('scored');
  });

  it('re-scoring is idempotent and keeps the experts’ mark and the code', async () => {
    const w = await world();
    await finishAndScore(w);
    await gradeExtended(w);
    const first = await resultRow(w.workId);
    const again = await app.ctx.db.transaction((tx) => scoreWork(tx, w.workId));
    const second = await resultRow(w.workId);
    expect(again).toMatchObject({ primaryScore: 10, mark: '5', verificationCode: first!.verificationCode });
    expect({ ...second, computedAt: null }).toEqual({ ...first, computedAt: null });
    expect(await app.ctx.db.select().from(results).where(eq(results.examWorkId, w.workId))).toHaveLength(1);
  });

  it('the sweeper queues scoring of the works it finishes', async () => {
    const w = await world();
    await app.ctx.db
      .update(examWorks)
      .set({ deadlineAt: new Date(Date.now() - 1000) })
      .where(eq(examWorks.id, w.workId));
    const done = await sweepExpired(app.ctx.db);
    expect(done.map((d) => d.id)).toContain(w.workId);
    const queued = await app.ctx.db
      .select()
      .from(queueItems)
      .where(and(eq(queueItems.type, 'result'), eq(queueItems.dedupeKey, `result:${w.workId}`)));
    expect(queued).toHaveLength(1);
    await app.jobs.drain();
    expect((await resultRow(w.workId))?.primaryScore).toBe(9);
  });

  it('regrade after a key correction lists the works whose score changed', async () => {
    const w = await world();
    await finishAndScore(w);
    await gradeExtended(w);
    // The key of task 1 is corrected: o1, not o2.
    await app.ctx.db
      .update(tasks)
      .set({ reference: { correct: 'o1' } })
      .where(eq(tasks.id, w.taskIds[0]!));
    const out = await regrade({ db: app.ctx.db }, { variantTaskId: w.variantTaskIds[0]! }, { userId: null });
    expect(out.works).toBe(1);
    expect(out.changed).toEqual([
      expect.objectContaining({
        examWorkId: w.workId,
        before: 10,
        after: 9,
        markBefore: '5',
        markAfter: '4',
      }),
    ]);
    const again = await regrade(
      { db: app.ctx.db },
      { variantTaskId: w.variantTaskIds[0]! },
      { userId: null },
    );
    expect(again.changed).toEqual([]);
  });
});

describe('publication', () => {
  it('gates the participant until published; enableChangePublish false while experts are due', async () => {
    const w = await world();
    const admin = await signedIn(app, ['admin']);
    await finishAndScore(w);
    await closeWindow(app, w.diagnosticId);

    const enable = await get(`/api/examresults/enableChangePublish/${w.diagnosticId}`, admin.session);
    expect(enable.json()).toMatchObject({
      enabled: false,
      awaitingGrading: 1,
      unscored: 0,
      reason: 'awaiting_grading',
    });
    const early = await get(`/api/examresults/changePublish/${w.diagnosticId}/true`, admin.session);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('grading_incomplete');

    await gradeExtended(w);
    const participantUrls = [
      `/api/examresults/${w.participantTestId}`,
      `/api/examresults/variant/${w.workId}`,
      `/api/examresults/referenceByVariantTaskId/${w.variantTaskIds[0]}`,
      `/api/examresults/doc/${w.participantTestId}`,
      `/api/exam/test/variant/resolve/${w.variantId}`,
    ];
    for (const url of participantUrls) {
      const res = await get(url, w.participant);
      expect([url, res.statusCode, res.json().code]).toEqual([url, 403, 'results_not_published']);
      expect(res.body).not.toContain(SECRET);
    }
    expect(
      (await get(`/api/examresults/enableChangePublish/${w.diagnosticId}`, admin.session)).json(),
    ).toMatchObject({ enabled: true, reason: null });
    // A state-changing GET: the cookie session needs the anti-CSRF header.
    const noCsrf = await app.inject({
      method: 'GET',
      url: `/api/examresults/changePublish/${w.diagnosticId}/true`,
      headers: { cookie: admin.session.cookie },
    });
    expect(noCsrf.json().code).toBe('csrf');
    const pub = await get(`/api/examresults/changePublish/${w.diagnosticId}/true`, admin.session);
    expect(pub.statusCode).toBe(200);
    expect(pub.json()).toMatchObject({ diagnosticId: w.diagnosticId, resultsPublished: true });

    for (const url of participantUrls)
      expect([url, (await get(url, w.participant)).statusCode]).toEqual([url, 200]);
    const mine = (await get(`/api/examresults/${w.participantTestId}`, w.participant)).json();
    expect(mine).toMatchObject({
      primaryScore: 10,
      maxScore: 13,
      mark: '5',
      status: 'scored',
      published: true,
    });
    expect(mine.tasks).toHaveLength(10);
    const variant = (await get(`/api/examresults/variant/${w.workId}`, w.participant)).json();
    expect(variant.withKeys).toBe(true);
    expect(variant.tasks[0]).toMatchObject({
      answer: { value: 'o2' },
      score: 1,
      reference: { correct: 'o2' },
    });
    const [pt] = await app.ctx.db
      .select()
      .from(participantTests)
      .where(eq(participantTests.id, w.participantTestId));
    expect(pt!.status).toBe('published');

    // Another participant's result stays closed.
    const other = await world();
    expect((await get(`/api/examresults/${other.participantTestId}`, w.participant)).statusCode).toBe(403);

    const unpub = await get(`/api/examresults/changePublish/${w.diagnosticId}/false`, admin.session);
    expect(unpub.json().resultsPublished).toBe(false);
    expect((await get(`/api/examresults/${w.participantTestId}`, w.participant)).statusCode).toBe(403);
  });

  it('a coordinator publishes only diagnostics they created', async () => {
    const w = await world();
    await finishAndScore(w);
    await gradeExtended(w);
    const res = await get(
      `/api/examresults/changePublish/${w.diagnosticId}/true`,
      w.school.coordinator.session,
    );
    expect(res.statusCode).toBe(403);
    expect(
      (await get(`/api/examresults/changePublish/999999/true`, (await signedIn(app, ['admin'])).session))
        .statusCode,
    ).toBe(404);
  });
});

describe('access', () => {
  it('401 without a session, 403 for a role not allowed, 400 for a bad id', async () => {
    const expert = await signedIn(app, ['expert']);
    const urls = [
      '/api/examresults/1',
      '/api/examresults/noresult/1',
      '/api/examresults/doc/1',
      '/api/examresults/preprof/1',
      '/api/examresults/preschool/1',
      '/api/examresults/enableChangePublish/1',
      '/api/ParticipantTest/getResultJson/1',
    ];
    for (const url of urls) {
      expect([url, (await get(url, null)).statusCode]).toEqual([url, 401]);
      expect([url, (await get(url, expert.session)).statusCode]).toEqual([url, 403]);
    }
    const admin = await signedIn(app, ['admin']);
    expect((await get('/api/examresults/abc', admin.session)).statusCode).toBe(400);
    expect((await get('/api/examresults/variant/0', admin.session)).statusCode).toBe(400);
    const list = await app.inject({
      method: 'POST',
      url: '/api/examresults/participantTest/list',
      headers: admin.session.headers,
      payload: { page: 0 },
    });
    expect(list.statusCode).toBe(400);
  });

  it('staff in scope read; a coordinator of another school gets 403', async () => {
    const w = await world();
    await finishAndScore(w);
    const own = await get(`/api/examresults/${w.participantTestId}`, w.school.coordinator.session);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ primaryScore: 9, status: 'awaiting_experts', mark: null });
    expect(
      (await get(`/api/examresults/${w.participantTestId}`, w.school.organizator.session)).statusCode,
    ).toBe(200);
    const stranger = await createSchoolWithStaff(app);
    for (const url of [
      `/api/examresults/${w.participantTestId}`,
      `/api/examresults/variant/${w.workId}`,
      `/api/examresults/noresult/${w.participantTestId}`,
      `/api/examresults/doc/${w.participantTestId}`,
      `/api/ParticipantTest/getResultJson/${w.participantTestId}`,
    ])
      expect([url, (await get(url, stranger.coordinator.session)).statusCode]).toEqual([url, 403]);
    const list = await app.inject({
      method: 'POST',
      url: '/api/examresults/participantTest/list',
      headers: stranger.coordinator.session.headers,
      payload: { filter: { diagnosticId: w.diagnosticId } },
    });
    expect(list.json()).toEqual({ items: [], total: 0 });
    const mineList = await app.inject({
      method: 'POST',
      url: '/api/examresults/participantTest/list',
      headers: w.school.coordinator.session.headers,
      payload: { filter: { diagnosticId: w.diagnosticId } },
    });
    expect(mineList.json()).toMatchObject({
      total: 1,
      items: [{ participantTestId: w.participantTestId, primaryScore: 9 }],
    });
    expect((await get('/api/examresults/999999', w.school.coordinator.session)).statusCode).toBe(404);
  });

  it('noresult says why', async () => {
    const w = await world();
    const coord = w.school.coordinator.session;
    expect((await get(`/api/examresults/noresult/${w.participantTestId}`, coord)).json()).toMatchObject({
      reason: 'not_finished',
    });
    await finishAndScore(w);
    expect((await get(`/api/examresults/noresult/${w.participantTestId}`, coord)).json().reason).toBe(
      'awaiting_grading',
    );
    await gradeExtended(w);
    expect((await get(`/api/examresults/noresult/${w.participantTestId}`, coord)).json()).toEqual({
      participantTestId: w.participantTestId,
      reason: null,
      message: null,
    });
    const fresh = await createParticipantTest(app, w.school);
    const res = (await get(`/api/examresults/noresult/${fresh.participantTestId}`, coord)).json();
    expect(res.reason).toBe('not_started');
    expect(res.message).toMatch(/не начинал/);
  });
});

describe('documents and other views', () => {
  it('the PDF report parses and carries the verification code', async () => {
    const w = await world();
    await finishAndScore(w);
    await gradeExtended(w);
    const res = await get(`/api/examresults/doc/${w.participantTestId}`, w.school.coordinator.session);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const pdf = await readPdf(res.rawPayload);
    const text = pdf.pages.join('\n');
    const code = (await resultRow(w.workId))!.verificationCode;
    expect(text).toContain(code);
    expect(text).toContain('Результат диагностики');
    const preprof = await get(
      `/api/examresults/doc/${w.participantTestId}/preprof`,
      w.school.coordinator.session,
    );
    expect((await readPdf(preprof.rawPayload)).pages.join('\n')).toContain('Практическая');
  });

  it('preprof splits by position halves, preschool shows levels only, getResultJson for staff', async () => {
    const w = await world();
    await finishAndScore(w);
    await gradeExtended(w);
    const coord = w.school.coordinator.session;
    const pre = (await get(`/api/examresults/preprof/${w.participantTestId}`, coord)).json();
    expect(pre.rule).toBe('position_halves');
    expect(pre.theory).toMatchObject({ positions: [1, 2, 3, 4, 5], score: 6, maxScore: 6 });
    expect(pre.practice).toMatchObject({ positions: [6, 7, 8, 9, 10], score: 4, maxScore: 7 });
    const school = await get(`/api/examresults/preschool/${w.participantTestId}`, coord);
    expect(school.json().level).toBe('высокий');
    expect(school.body).not.toMatch(/"(primaryScore|maxScore|score|percent)"/);
    const json = (await get(`/api/ParticipantTest/getResultJson/${w.participantTestId}`, coord)).json();
    expect(json).toMatchObject({ participantTestId: w.participantTestId, primaryScore: 10, mark: '5' });
  });

  it('createresultqueue queues a result job once; an expert sees only assigned tasks, anonymised', async () => {
    const w = await world();
    await finishAndScore(w);
    const url = `/api/ParticipantTest/createresultqueue?participantTestId=${w.participantTestId}`;
    const first = await app.inject({ method: 'POST', url, headers: w.school.coordinator.session.headers });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ type: 'result', status: 'queued' });
    const second = await app.inject({ method: 'POST', url, headers: w.school.coordinator.session.headers });
    expect(second.json().id).toBe(first.json().id);
    const stranger = await createSchoolWithStaff(app);
    expect(
      (await app.inject({ method: 'POST', url, headers: stranger.coordinator.session.headers })).statusCode,
    ).toBe(403);

    const expert = await signedIn(app, ['expert']);
    expect((await get(`/api/examresults/variant/${w.workId}`, expert.session)).statusCode).toBe(403);
    const { expertAssignments } = await import('../../db/schema/index.js');
    await app.ctx.db.insert(expertAssignments).values({
      examWorkId: w.workId,
      variantTaskId: w.variantTaskIds[8]!,
      expertId: expert.user.id,
      round: 1,
      anonCode: 'A-0001',
    });
    const seen = await get(`/api/examresults/variant/${w.workId}`, expert.session);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ anonCode: 'A-0001', participant: null });
    expect(seen.json().tasks).toHaveLength(1);
    expect(seen.json().tasks[0]).toMatchObject({
      score: null,
      answer: { value: 'Развёрнутый ответ участника' },
    });
    expect(seen.body).not.toContain('Иванов');
    expect(
      (await get(`/api/examresults/referenceByVariantTaskId/${w.variantTaskIds[8]}`, expert.session))
        .statusCode,
    ).toBe(200);
    expect(
      (await get(`/api/examresults/referenceByVariantTaskId/${w.variantTaskIds[0]}`, expert.session))
        .statusCode,
    ).toBe(403);
  });
});

describe('what the experts’ final mark is made of (issue 14, item 4)', () => {
  /** Graded rounds of the extended answer (task 9, criterion К1 of max 1), as experts leave them. */
  async function gradedRounds(w: World, rounds: { score: number; comment: string | null }[]) {
    const { expertAssignments, expertMarks } = await import('../../db/schema/index.js');
    const experts = [];
    for (const [i, r] of rounds.entries()) {
      const expert = await signedIn(app, ['expert']);
      experts.push(expert);
      const [a] = await app.ctx.db
        .insert(expertAssignments)
        .values({
          examWorkId: w.workId,
          variantTaskId: w.variantTaskIds[8]!,
          expertId: expert.user.id,
          round: i + 1,
          anonCode: 'A-GRDG-01',
          status: 'graded',
          total: r.score,
          comment: r.comment,
          gradedAt: new Date(),
        })
        .returning();
      await app.ctx.db
        .insert(expertMarks)
        .values({ assignmentId: a!.id, criterionCode: 'К1', score: r.score });
    }
    return experts;
  }
  const extendedTask = (body: { tasks: { variantTaskId: number }[] }, w: World) =>
    body.tasks.find((t) => t.variantTaskId === w.variantTaskIds[8]) as Record<string, unknown>;

  it('the participant gets the criteria marks and comments after publication only, never who graded', async () => {
    const w = await world();
    await finishAndScore(w);
    const experts = await gradedRounds(w, [
      { score: 1, comment: '  Тема раскрыта полностью.  ' },
      { score: 1, comment: '   ' },
    ]);
    await gradeExtended(w, 1);
    await closeWindow(app, w.diagnosticId);
    const url = `/api/examresults/variant/${w.workId}`;

    const before = await get(url, w.participant);
    expect(before.statusCode).toBe(403);
    expect(before.json().code).toBe('results_not_published');
    expect(before.body).not.toContain('Тема раскрыта');
    expect((await get(url, null)).statusCode).toBe(401);

    const admin = await signedIn(app, ['admin']);
    expect(
      (await get(`/api/examresults/changePublish/${w.diagnosticId}/true`, admin.session)).statusCode,
    ).toBe(200);
    const res = await get(url, w.participant);
    expect(res.statusCode).toBe(200);
    const task = extendedTask(res.json(), w);
    expect(task.grading).toEqual({
      criteria: [{ code: 'К1', text: `${SECRET}-criterion-9`, maxScore: 1, score: 1 }],
      comments: ['Тема раскрыта полностью.'],
    });
    // Auto-scored tasks have no experts' grading; the cloze says which gaps were right.
    const tasks = res.json().tasks as Record<string, unknown>[];
    expect(tasks[0]!.grading).toBeNull();
    expect(tasks[7]!.checks).toEqual({ b1: true, b2: true });
    expect(tasks[6]!.checks).toEqual({ a: true, b: false });
    expect(tasks[0]!.checks).toBeNull();
    // Nothing names an expert: no ids, logins, names, rounds or anonymous codes.
    for (const e of experts) {
      expect(res.body).not.toContain(e.user.login);
      expect(res.body).not.toMatch(new RegExp(`"(expertId|userId)"\\s*:\\s*${e.user.id}\\b`));
    }
    expect(res.body).not.toMatch(/"(expertId|assignmentId|round|anonCode)"\s*:\s*(?!null)/);
    expect(res.body).not.toContain('A-GRDG-01');
    expect(res.body).not.toContain('"expert1"');
  });

  it('after a third check under the rule «third» only the third expert’s marks and comment count', async () => {
    const w = await world();
    await finishAndScore(w);
    await gradedRounds(w, [
      { score: 0, comment: 'Первый' },
      { score: 1, comment: 'Второй' },
      { score: 1, comment: 'Третий' },
    ]);
    await gradeExtended(w, 1);
    const admin = await signedIn(app, ['admin']);
    const task = extendedTask((await get(`/api/examresults/variant/${w.workId}`, admin.session)).json(), w);
    expect(task.grading).toEqual({
      criteria: [{ code: 'К1', text: `${SECRET}-criterion-9`, maxScore: 1, score: 1 }],
      comments: ['Третий'],
    });
  });

  it('staff get it where keys go; an assigned expert never does (blind marking)', async () => {
    const w = await world();
    await finishAndScore(w);
    const [first] = await gradedRounds(w, [
      { score: 1, comment: 'Комментарий эксперта' },
      { score: 0, comment: null },
    ]);
    await gradeExtended(w, 0.5);
    const url = `/api/examresults/variant/${w.workId}`;
    // A coordinator while the diagnostic's window is open and nothing is published: no keys, no grading.
    const coord = await get(url, w.school.coordinator.session);
    expect(coord.json().withKeys).toBe(false);
    const coordTask = extendedTask(coord.json(), w);
    expect('grading' in coordTask).toBe(false);
    expect('checks' in coordTask).toBe(false);
    expect(coord.body).not.toContain('Комментарий эксперта');
    // An admin reads keys always: the mean of the two rounds per criterion.
    const admin = await signedIn(app, ['admin']);
    expect(extendedTask((await get(url, admin.session)).json(), w).grading).toEqual({
      criteria: [{ code: 'К1', text: `${SECRET}-criterion-9`, maxScore: 1, score: 0.5 }],
      comments: ['Комментарий эксперта'],
    });
    const seen = await get(url, first!.session);
    expect(seen.statusCode).toBe(200);
    expect('grading' in extendedTask(seen.json(), w)).toBe(false);
    expect(seen.body).not.toContain('Комментарий эксперта');
    // Another school's coordinator: 403, as before.
    const stranger = await createSchoolWithStaff(app);
    expect((await get(url, stranger.coordinator.session)).statusCode).toBe(403);
  });
});
