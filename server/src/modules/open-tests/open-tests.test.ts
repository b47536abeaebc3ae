import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  createVariantWithTasks,
  guardResults,
  signedIn,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { createSubjectTest } from '../../../test/diagnostic-fixtures.js';

/*
 * Open tests for guests (docs/open-tests.md): the admin opens a subject test, a guest starts an
 * attempt, the runner's own calls serve it, and its finish shows the result with the keys at once.
 */

let t: TestApp;
let guest: { user: { id: number }; session: Session };
let other: { user: { id: number }; session: Session };
let admin: Session;
let expert: Session;
let openId: number;
let closedId: number;
let manualId: number;
let vt: number[];
let manualTaskId: number;

const SECRET = 'OPEN-SECRET';
const inject = (session: Session | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: session ? session.headers : { 'x-requested-with': 'XMLHttpRequest' },
    ...(payload ? { payload } : {}),
  });
const list = (s: Session) => inject(s, 'GET', '/api/openTests');
const start = (s: Session, id: number) => inject(s, 'POST', `/api/openTests/${id}/attempt`);
const attempt = (s: Session, id: number) => inject(s, 'GET', `/api/openTestAttempts/${id}`);
const count = async (sql: string, params: unknown[] = []) =>
  Number((await t.database.query<{ n: number }>(sql, params))[0]!.n);

/** The admin's subject test call with its current fields and `isOpen`. */
async function setOpen(id: number, isOpen: boolean) {
  const current = (await inject(admin, 'GET', `/api/admin/content/subjectTests/${id}`)).json();
  return inject(admin, 'PUT', `/api/admin/content/subjectTests/${id}`, {
    subjectExamId: current.subjectExamId,
    name: current.name,
    parallels: current.parallels,
    durationMinutes: current.durationMinutes,
    isOpen,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  guest = await signedIn(t.app, ['guest']);
  other = await signedIn(t.app, ['guest']);
  admin = (await signedIn(t.app, ['admin'])).session;
  expert = (await signedIn(t.app, ['expert'])).session;
  openId = await createSubjectTest(t.app, { name: 'Открытая математика', parallels: [7, 8] });
  closedId = await createSubjectTest(t.app, { name: 'Закрытая физика', parallels: [9] });
  manualId = await createSubjectTest(t.app, { name: 'Сочинение', parallels: [9] });
  ({ variantTaskIds: vt } = await createVariantWithTasks(t.app, openId, [
    {
      answerType: 'single_choice',
      content: { options: [1, 2, 3].map((i) => ({ id: `o${i}`, html: `Ответ ${i}` })) },
      reference: { correct: 'o2', note: `${SECRET}-ref` },
      solutionHtml: `<p>${SECRET}-solution</p>`,
    },
    { answerType: 'short_text', reference: { accepted: ['Москва'] }, maxScore: 2 },
  ]));
  await createVariantWithTasks(t.app, closedId, [
    { answerType: 'short_text', reference: { accepted: ['x'] } },
  ]);
  const manual = await createVariantWithTasks(t.app, manualId, [
    { answerType: 'extended_text', scoring: { method: 'expert' } },
  ]);
  manualTaskId = manual.taskIds[0]!;
});
afterAll(async () => t.close());

describe('opening a subject test (admin authoring)', () => {
  it('refuses to open a test with an expert-graded task and changes nothing', async () => {
    const res = await setOpen(manualId, true);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('open_test_needs_auto_scoring');
    expect(
      await count('select count(*)::int n from subject_tests where id = $1 and is_open', [manualId]),
    ).toBe(0);
  });

  it('opens a test whose tasks are all scored automatically', async () => {
    const res = await setOpen(openId, true);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().isOpen).toBe(true);
    expect((await inject(admin, 'GET', `/api/admin/content/subjectTests/${closedId}`)).json().isOpen).toBe(
      false,
    );
  });

  it('keeps an open test automatic: a variant with an expert-graded task is refused, nothing written', async () => {
    const variants = () => count('select count(*)::int n from variants where subject_test_id = $1', [openId]);
    const before = await variants();
    const res = await inject(admin, 'POST', `/api/admin/content/subjectTests/${openId}/variants`, {
      tasks: [{ taskId: manualTaskId }],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('open_test_needs_auto_scoring');
    expect(res.json().errors[0].path).toBe('body.tasks');
    expect(await variants()).toBe(before);
  });
});

describe('/api/openTests', () => {
  it('guards every call: 401 without a session, 403 for other roles, 403 csrf on the start', async () => {
    expect(
      await guardResults(
        t.app,
        { method: 'GET', url: '/api/openTests' },
        { allowed: guest.session, wrongRole: expert },
      ),
    ).toEqual({ anonymous: 401, wrongRole: 403, noCsrf: 200 });
    expect(
      await guardResults(
        t.app,
        { method: 'POST', url: `/api/openTests/${openId}/attempt` },
        { allowed: guest.session, wrongRole: admin },
      ),
    ).toEqual({ anonymous: 401, wrongRole: 403, noCsrf: 'csrf' });
    expect((await inject(null, 'GET', '/api/openTestAttempts/1')).statusCode).toBe(401);
    expect((await attempt(expert, 1)).statusCode).toBe(403);
    // Nothing was started by the refused calls.
    expect(await count('select count(*)::int n from participant_tests where guest_user_id is not null')).toBe(
      0,
    );
  });

  it('lists the open tests only, with subject, duration and number of tasks', async () => {
    const res = await list(guest.session);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as { id: number }[];
    expect(items.map((i) => i.id)).toContain(openId);
    expect(items.map((i) => i.id)).not.toContain(closedId);
    expect(items.find((i) => i.id === openId)).toMatchObject({
      name: 'Открытая математика',
      parallels: [7, 8],
      durationMinutes: 45,
      taskCount: 2,
      isOpen: true,
      attempts: [],
    });
  });

  it('refuses to start a test that is not open, unknown or a draft (400), creating nothing', async () => {
    for (const id of [closedId, 999_999]) {
      const res = await start(guest.session, id);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('test_not_open');
    }
    await t.database.query(`update subject_tests set status = 'draft' where id = $1`, [openId]);
    expect((await start(guest.session, openId)).json().code).toBe('test_not_open');
    await t.database.query(`update subject_tests set status = 'published' where id = $1`, [openId]);
    expect((await start(guest.session, 0)).statusCode).toBe(400);
    expect(await count('select count(*)::int n from participant_tests where guest_user_id is not null')).toBe(
      0,
    );
    // The guest's session is not bound to anything: the runner refuses it.
    expect((await inject(guest.session, 'GET', '/api/exam/test/variant/current')).statusCode).toBe(403);
  });

  it('start → variant → save → finish → the result at once; keys only after the finish', async () => {
    const started = await start(guest.session, openId);
    expect(started.statusCode, started.body).toBe(200);
    const { attemptId, examWorkId, resumed } = started.json();
    expect(resumed).toBe(false);

    // The session now sits the attempt: the runner's calls serve it, without keys.
    const me = (await inject(guest.session, 'GET', '/api/user')).json();
    expect(me.roles).toEqual(expect.arrayContaining(['guest', 'participant']));
    const variant = await inject(guest.session, 'GET', '/api/exam/test/variant/current');
    expect(variant.statusCode, variant.body).toBe(200);
    expect(variant.body).not.toContain(SECRET);
    const reference = await inject(
      guest.session,
      'GET',
      `/api/examresults/referenceByVariantTaskId/${vt[0]}`,
    );
    expect(reference.statusCode).toBe(403);
    expect(reference.json().code).toBe('results_not_published');
    const early = await attempt(guest.session, attemptId);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('work_not_finished');
    expect(early.body).not.toContain(SECRET);

    // Starting again resumes the same attempt.
    expect((await start(guest.session, openId)).json()).toEqual({ attemptId, examWorkId, resumed: true });

    const save = (variantTaskId: number, value: unknown) =>
      inject(guest.session, 'PUT', '/api/exam/test/saveanswer', { examWorkId, variantTaskId, value, seq: 1 });
    expect((await save(vt[0]!, 'o2')).statusCode).toBe(200);
    expect((await save(vt[1]!, 'Казань')).statusCode).toBe(200);
    const finished = await inject(
      guest.session,
      'PUT',
      `/api/exam/test/examwork/finish/${examWorkId}/manual`,
    );
    expect(finished.statusCode, finished.body).toBe(200);

    const res = await attempt(guest.session, attemptId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.attempt).toMatchObject({ id: attemptId, state: 'finished', primaryScore: 1, maxScore: 3 });
    expect(body.result).toMatchObject({ primaryScore: 1, maxScore: 3, percent: 33.3, published: true });
    expect(body.result.tasks.map((x: { score: number }) => x.score)).toEqual([1, 0]);
    expect(body.variant.withKeys).toBe(true);
    expect(body.variant.tasks[0].reference).toMatchObject({ correct: 'o2' });
    expect(body.variant.tasks[0].answer.value).toBe('o2');
    expect(res.body).toContain(`${SECRET}-solution`);

    const listed = (await list(guest.session)).json().items.find((i: { id: number }) => i.id === openId);
    expect(listed.attempts).toEqual([
      expect.objectContaining({ id: attemptId, state: 'finished', primaryScore: 1, percent: 33.3 }),
    ]);
  });

  it('keeps the history: a finished attempt is followed by a new one', async () => {
    const before = (await list(guest.session)).json().items.find((i: { id: number }) => i.id === openId);
    const res = await start(guest.session, openId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().resumed).toBe(false);
    expect(res.json().attemptId).not.toBe(before.attempts[0].id);
    const after = (await list(guest.session)).json().items.find((i: { id: number }) => i.id === openId);
    expect(after.attempts.map((a: { state: string }) => a.state)).toEqual(['in_progress', 'finished']);
  });

  it('another guest reaches neither the attempt nor its result (403), nor its sitting', async () => {
    const [mine] = await t.database.query<{ id: number }>(
      'select id from participant_tests where guest_user_id = $1 order by id limit 1',
      [guest.user.id],
    );
    const res = await attempt(other.session, mine!.id);
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain(SECRET);
    expect((await attempt(other.session, 999_999)).statusCode).toBe(404);
    expect(
      (await list(other.session)).json().items.find((i: { id: number }) => i.id === openId).attempts,
    ).toEqual([]);
    // Its activation code opens nothing: an attempt is sat by its guest's session only.
    const [code] = await t.database.query<{ activation_code: string }>(
      'select activation_code from participant_tests where id = $1',
      [mine!.id],
    );
    const login = await inject(null, 'POST', '/api/Account/login', { activationCode: code!.activation_code });
    expect(login.statusCode).toBe(401);
    expect(login.json().code).toBe('invalid_activation_code');
  });

  it('a closed test keeps its attempts listed but starts no new one', async () => {
    // The running attempt of the previous test is finished first, so that a start would be a new one.
    const [live] = await t.database.query<{ id: number }>(
      `select w.id from exam_works w join participant_tests p on p.id = w.participant_test_id
       where p.guest_user_id = $1 and w.finished_at is null`,
      [guest.user.id],
    );
    await inject(guest.session, 'PUT', `/api/exam/test/examwork/finish/${live!.id}/manual`);
    expect((await setOpen(openId, false)).statusCode).toBe(200);
    const item = (await list(guest.session)).json().items.find((i: { id: number }) => i.id === openId);
    expect(item).toMatchObject({ isOpen: false });
    expect(item.attempts).toHaveLength(2);
    expect((await list(other.session)).json().items.map((i: { id: number }) => i.id)).not.toContain(openId);
    expect((await start(guest.session, openId)).json().code).toBe('test_not_open');
    expect((await setOpen(openId, true)).statusCode).toBe(200);
  });

  it('keeps the open diagnostic and the attempts out of the staff lists', async () => {
    expect(await count(`select count(*)::int n from diagnostics where kind = 'open'`)).toBe(1);
    const diagnostics = await inject(admin, 'POST', '/api/admin/diagnostics/list', {
      page: 1,
      pageSize: 100,
    });
    expect(diagnostics.statusCode, diagnostics.body).toBe(200);
    expect(diagnostics.json().items.map((d: { kind: string }) => d.kind)).not.toContain('open');
    const registrations = await inject(admin, 'POST', '/api/ParticipantTest/list', {
      page: 1,
      pageSize: 100,
    });
    expect(registrations.statusCode, registrations.body).toBe(200);
    expect(registrations.json().total).toBe(0);
    const results = await inject(admin, 'POST', '/api/examresults/participantTest/list', {
      page: 1,
      pageSize: 100,
    });
    expect(results.statusCode, results.body).toBe(200);
    expect(results.json().total).toBe(0);
    // Nor in the reports over every diagnostic (guests' practice is no school's result).
    expect(await count(`select count(*)::int n from results`)).toBeGreaterThan(0);
    const detailed = await inject(admin, 'GET', '/api/reports/detailed');
    expect(detailed.statusCode, detailed.body).toBe(200);
    expect(detailed.json().total).toBe(0);
  });
});
