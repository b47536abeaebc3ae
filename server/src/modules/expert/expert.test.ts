import AdmZip from 'adm-zip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createExpertWork,
  createSchoolWithStaff,
  guardResults,
  isoDate,
  signedIn,
  signedInParticipant,
  type ExpertWorkFixture,
  type Session,
  type TestApp,
  createTestApp,
} from '../../../test/helpers.js';
import { assignExperts, assignPending, roundHalf } from './grading.service.js';

let t: TestApp;
let w: ExpertWorkFixture;
type Expert = { user: { id: number }; session: Session };
let experts: Expert[];
let outsider: Expert;
let admin: Session;
let participant: Session;
let coordinator: Session;
/** Every body an expert received: none may name the participant. */
const expertBodies: string[] = [];

const call = async (session: Session, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
  const res = await t.app.inject({ method, url, headers: session.headers, ...(payload ? { payload } : {}) });
  expertBodies.push(res.rawPayload.toString('latin1'), res.body);
  return res;
};
const saveProfile = (e: Expert, body: object) =>
  call(e.session, 'PUT', '/api/Profile/expert/saveProfile', body);
const assignmentsOf = (examWorkId: number) =>
  t.database.query<{
    id: number;
    variant_task_id: number;
    expert_id: number;
    round: number;
    anon_code: string;
    status: string;
  }>(
    'select id, variant_task_id, expert_id, round, anon_code, status from expert_assignments where exam_work_id = $1 order by variant_task_id, round',
    [examWorkId],
  );
const scoreOf = async (examWorkId: number, variantTaskId: number) =>
  (
    await t.database.query<{ final_score: string | null; status: string }>(
      'select final_score, status from task_scores where exam_work_id = $1 and variant_task_id = $2',
      [examWorkId, variantTaskId],
    )
  )[0]!;
const expertById = (id: number) => experts.find((e) => e.user.id === id)!;
const mark = (e: Expert, id: number, marks: [string, number][], comment?: string) =>
  call(e.session, 'POST', `/api/expert/assignment/${id}/marks`, {
    marks: marks.map(([criterionCode, score]) => ({ criterionCode, score })),
    ...(comment ? { comment } : {}),
  });

beforeAll(async () => {
  t = await createTestApp();
  w = await createExpertWork(t.app, { threshold: 1, expertRule: 'third' });
  experts = [];
  for (let i = 0; i < 3; i++) experts.push(await signedIn(t.app, ['expert']));
  outsider = await signedIn(t.app, ['expert']);
  admin = (await signedIn(t.app, ['admin'])).session;
  participant = (await signedInParticipant(t.app, w)).session;
  coordinator = (await createSchoolWithStaff(t.app)).coordinator.session;
});
afterAll(async () => t.close());

describe('expert profile', () => {
  it('guards, saves, answers and rejects bad input without change', async () => {
    expect(
      await guardResults(
        t.app,
        { method: 'PUT', url: '/api/Profile/expert/saveProfile', payload: { subjectIds: [], parallels: [] } },
        { allowed: experts[0]!.session, wrongRole: participant },
      ),
    ).toEqual({ anonymous: 401, wrongRole: 403, noCsrf: 'csrf' });
    for (const e of experts) {
      const res = await saveProfile(e, { subjectIds: [w.subjectId], parallels: [7, 6], maxPerDay: 10 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ subjectIds: [w.subjectId], parallels: [6, 7], maxPerDay: 10 });
    }
    // The outsider grades grade 7 of another subject: never matched.
    const other = await createExpertWork(t.app);
    await t.database.query(`update task_scores set status = 'auto' where exam_work_id = $1`, [
      other.examWorkId,
    ]);
    expect((await saveProfile(outsider, { subjectIds: [other.subjectId], parallels: [7] })).statusCode).toBe(
      200,
    );

    const got = await call(experts[0]!.session, 'GET', '/api/Profile/expert/get');
    expect(got.json()).toMatchObject({ subjectIds: [w.subjectId], parallels: [6, 7], maxPerDay: 10 });
    expect(got.json().subjects[0].id).toBe(w.subjectId);
    for (const bad of [
      { subjectIds: [999999], parallels: [7] },
      { subjectIds: [w.subjectId], parallels: [12] },
      { subjectIds: [w.subjectId, w.subjectId], parallels: [7] },
      { subjectIds: [w.subjectId], parallels: [7], maxPerDay: 0 },
      { subjectIds: [w.subjectId], parallels: [7], extra: 1 },
      { parallels: [7] },
    ])
      expect((await saveProfile(experts[0]!, bad)).statusCode).toBe(400);
    expect((await call(experts[0]!.session, 'GET', '/api/Profile/expert/get')).json()).toEqual(got.json());
  });
});

describe('blind double marking', () => {
  it('assigns two different matching experts per answer under one anonymous code', async () => {
    // Saving the profiles above already assigned the work (assignPending): start again from none.
    expect(await assignmentsOf(w.examWorkId)).toHaveLength(4);
    await t.database.query('delete from expert_assignments where exam_work_id = $1', [w.examWorkId]);
    const out = await t.app.ctx.db.transaction((tx) => assignExperts(tx, w.examWorkId));
    expect(out).toEqual({ created: 4, queued: 0 });
    // Idempotent.
    expect(await t.app.ctx.db.transaction((tx) => assignExperts(tx, w.examWorkId))).toEqual({
      created: 0,
      queued: 0,
    });
    const rows = await assignmentsOf(w.examWorkId);
    expect(rows).toHaveLength(4);
    const ids = experts.map((e) => e.user.id);
    for (const vt of w.variantTaskIds) {
      const pair = rows.filter((r) => r.variant_task_id === vt);
      expect(pair.map((r) => r.round)).toEqual([1, 2]);
      expect(pair[0]!.expert_id).not.toBe(pair[1]!.expert_id);
      expect(pair[0]!.anon_code).toBe(pair[1]!.anon_code);
      // One code per work: every task of it shows the same code.
      expect(pair[0]!.anon_code).toBe(rows[0]!.anon_code);
      expect(pair[0]!.anon_code).toMatch(/^A-[2-9A-Z]{4}-[2-9A-Z]{2}$/);
      for (const r of pair) expect(ids).toContain(r.expert_id);
    }
    // Least loaded first: three experts share four assignments 2/1/1.
    const load = ids.map((id) => rows.filter((r) => r.expert_id === id).length).sort();
    expect(load).toEqual([1, 1, 2]);
  });

  it('guards the workspace: 401, 403 for participant, coordinator and another expert', async () => {
    const [a] = await assignmentsOf(w.examWorkId);
    const owner = expertById(a!.expert_id);
    const stranger = experts.find((e) => e !== owner)!;
    const others = (await assignmentsOf(w.examWorkId)).filter((r) => r.expert_id === stranger.user.id);
    const strangerOwnsA = others.some((r) => r.id === a!.id);
    expect(strangerOwnsA).toBe(false);
    for (const url of ['/api/expert/next', '/api/expert/queue', `/api/expert/assignment/${a!.id}`]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      expect((await call(participant, 'GET', url)).statusCode).toBe(403);
      expect((await call(coordinator, 'GET', url)).statusCode).toBe(403);
    }
    expect((await call(stranger.session, 'GET', `/api/expert/assignment/${a!.id}`)).statusCode).toBe(403);
    expect(
      (
        await mark(stranger, a!.id, [
          ['К1', 1],
          ['К2', 1],
        ])
      ).statusCode,
    ).toBe(403);
    expect((await call(owner.session, 'GET', '/api/expert/assignment/999999')).statusCode).toBe(404);
    expect((await call(admin, 'GET', `/api/expert/assignment/${a!.id}`)).statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/ParticipantTest/getExpertAnswersDates',
          headers: coordinator.headers,
        })
      ).statusCode,
    ).toBe(403);
  });

  it('shows the next answer anonymised, with its files downloadable by its experts only', async () => {
    const rows = await assignmentsOf(w.examWorkId);
    const fileRound = rows.find((r) => r.variant_task_id === w.variantTaskIds[1])!;
    const e = expertById(fileRound.expert_id);
    const res = await call(e.session, 'GET', `/api/expert/assignment/${fileRound.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({
      anonCode: fileRound.anon_code,
      round: fileRound.round,
      status: 'assigned',
      editable: true,
      workDate: isoDate(),
      task: { position: 2, maxScore: 3, criteria: [{ code: 'К1', text: 'Решение', maxScore: 3 }] },
      answer: { files: [{ id: w.fileId, name: 'file-1.jpg', mime: 'image/jpeg' }] },
      marks: null,
    });
    const file = await call(e.session, 'GET', `/api/files/${w.fileId}`);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(w.fileBytes)).toBe(true);
    // Blind: the participant named the scan after themselves; the grader gets a neutral name.
    const named = encodeURIComponent('Иванов');
    expect(file.headers['content-disposition']).toContain(`answer-${w.fileId}.jpg`);
    expect(file.headers['content-disposition']).not.toContain(named);
    const ext = await call(e.session, 'GET', `/api/files/${w.fileId}/ext`);
    expect(ext.json()).toMatchObject({ name: `answer-${w.fileId}.jpg`, extension: 'jpg' });
    const asAdmin = await call(admin, 'GET', `/api/files/${w.fileId}`);
    expect(asAdmin.headers['content-disposition']).toContain(named);
    expect((await call(outsider.session, 'GET', `/api/files/${w.fileId}`)).statusCode).toBe(403);

    const textRound = rows.find((r) => r.variant_task_id === w.variantTaskIds[0])!;
    const next = await call(
      expertById(textRound.expert_id).session,
      'GET',
      `/api/expert/next?date=${isoDate()}`,
    );
    expect(next.statusCode, next.body).toBe(200);
    const body = next.json();
    expect(body.progress.done).toBe(0);
    expect(body.progress.total).toBeGreaterThanOrEqual(1);
    expect(body.assignment.anonCode).toBe(textRound.anon_code);
    const text = (
      await call(expertById(textRound.expert_id).session, 'GET', `/api/expert/assignment/${textRound.id}`)
    ).json();
    expect(text.task.html).toContain('Напишите сочинение');
    expect(text.task.html).not.toContain('<script');
    expect(text.task.solutionHtml).toBe('<p>Образец ответа</p>');
    expect(text.answer).toEqual({ value: w.answerText, files: [] });
    expect((await call(outsider.session, 'GET', '/api/expert/next')).json()).toEqual({
      assignment: null,
      progress: { done: 0, total: 0 },
      waiting: { otherExpert: 0, dailyLimit: 0 },
    });
  });

  it('lists dates and streams a zip of the answers with files and no names', async () => {
    const rows = await assignmentsOf(w.examWorkId);
    const e = expertById(rows.find((r) => r.variant_task_id === w.variantTaskIds[1])!.expert_id);
    const dates = await call(e.session, 'GET', '/api/ParticipantTest/getExpertAnswersDates');
    expect(dates.json()).toEqual({ dates: [isoDate()] });
    expect((await call(admin, 'GET', '/api/ParticipantTest/getExpertAnswersDates')).json().dates).toContain(
      isoDate(),
    );
    expect(
      (await call(outsider.session, 'GET', '/api/ParticipantTest/getExpertAnswersDates')).json(),
    ).toEqual({
      dates: [],
    });
    expect(
      (
        await call(
          e.session,
          'GET',
          `/api/ParticipantTest/getExpertAnswersFileForDownloader?date=${isoDate(1)}&dateTill=${isoDate()}`,
        )
      ).statusCode,
    ).toBe(400);

    const res = await call(
      e.session,
      'GET',
      `/api/ParticipantTest/getExpertAnswersFileForDownloader?date=${isoDate()}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/zip');
    expect(res.headers['content-disposition']).toContain(
      `attachment; filename="expert-answers-${isoDate()}.zip"`,
    );
    const zip = new AdmZip(res.rawPayload);
    const names = zip.getEntries().map((x) => x.entryName);
    const anon = rows[0]!.anon_code;
    expect(names).toContain(`${anon}-2/file-1.jpg`);
    expect(names).toContain(`${anon}-2/task.html`);
    expect(names).toContain(`${anon}-2/answer.txt`);
    expect(names).toContain('manifest.csv');
    expect(zip.readFile(`${anon}-2/file-1.jpg`)!.equals(w.fileBytes)).toBe(true);
    const mine = rows.filter((r) => r.expert_id === e.user.id);
    if (mine.some((r) => r.variant_task_id === w.variantTaskIds[0]))
      expect(zip.readAsText(`${anon}-1/answer.txt`)).toBe(w.answerText);
    expect(zip.readAsText('manifest.csv')).toContain(`${anon};2;`);
    expect(zip.readAsText(`${anon}-2/task.html`)).toContain('К1');
    for (const entry of zip.getEntries()) {
      const text = entry.getData().toString('utf8');
      expect(text).not.toContain('Иванов');
      expect(text).not.toContain(w.activationCode);
    }
    // An admin gets every open answer once.
    const all = new AdmZip(
      (await call(admin, 'GET', `/api/ParticipantTest/getExpertAnswersFileForDownloader?date=${isoDate()}`))
        .rawPayload,
    );
    expect(all.getEntries().filter((x) => x.entryName.endsWith('/answer.txt'))).toHaveLength(2);
  });

  it('rejects bad marks without changing anything', async () => {
    const [a] = await assignmentsOf(w.examWorkId);
    const e = expertById(a!.expert_id);
    const before = await countRows(t.database, 'expert_marks');
    for (const marks of [
      [['К1', 1]],
      [
        ['К1', 3],
        ['К2', 1],
      ],
      [
        ['К1', 1],
        ['К2', 1],
        ['К9', 0],
      ],
      [
        ['К1', 1],
        ['К1', 1],
        ['К2', 1],
      ],
      [
        ['К1', 0.3],
        ['К2', 1],
      ],
      [
        ['К1', -1],
        ['К2', 1],
      ],
      // К1 is scored in whole points: no half point there (К2 allows halves).
      [
        ['К1', 1.5],
        ['К2', 0.5],
      ],
    ] as [string, number][][]) {
      const res = await mark(e, a!.id, marks);
      expect(res.statusCode, JSON.stringify(marks)).toBe(400);
    }
    expect(await countRows(t.database, 'expert_marks')).toBe(before);
    expect((await assignmentsOf(w.examWorkId))[0]!.status).toBe('assigned');
  });

  it('agreement: blind until both are in, then the mean; corrections close with the final mark', async () => {
    const rows = (await assignmentsOf(w.examWorkId)).filter((r) => r.variant_task_id === w.variantTaskIds[0]);
    const [r1, r2] = rows;
    const [e1, e2] = [expertById(r1!.expert_id), expertById(r2!.expert_id)];
    const first = await mark(
      e1,
      r1!.id,
      [
        ['К1', 2],
        ['К2', 1],
      ],
      'ПОМЕТКА-ПЕРВОГО',
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ status: 'graded', total: 3, editable: true });
    // The first expert may still correct; the second sees nothing of the first.
    expect(
      (
        await mark(
          e1,
          r1!.id,
          [
            ['К1', 2],
            ['К2', 0.5],
          ],
          'ПОМЕТКА-ПЕРВОГО',
        )
      ).json().total,
    ).toBe(2.5);
    const seen = await call(e2.session, 'GET', `/api/expert/assignment/${r2!.id}`);
    expect(seen.body).not.toContain('ПОМЕТКА-ПЕРВОГО');
    expect(seen.json().marks).toBeNull();
    expect(seen.json().total).toBeNull();
    expect((await scoreOf(w.examWorkId, w.variantTaskIds[0]!)).status).toBe('awaiting_experts');

    const second = await mark(e2, r2!.id, [
      ['К1', 1],
      ['К2', 0.5],
    ]);
    expect(second.statusCode, second.body).toBe(200);
    // |2.5 − 1.5| = 1 ≤ threshold 1: mean 2.
    expect(await scoreOf(w.examWorkId, w.variantTaskIds[0]!)).toEqual({ final_score: '2', status: 'expert' });
    expect(second.json().editable).toBe(false);
    const late = await mark(e1, r1!.id, [
      ['К1', 0],
      ['К2', 0],
    ]);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('grading_closed');
    const [audits] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from audit_events where action like 'expert.marks.%' and entity_id = $1`,
      [String(r1!.id)],
    );
    expect(audits!.n).toBe(2);
  });

  it('disagreement beyond the threshold: a third expert, not one of the two; final = third (rule third)', async () => {
    const rows = (await assignmentsOf(w.examWorkId)).filter((r) => r.variant_task_id === w.variantTaskIds[1]);
    const [r1, r2] = rows;
    expect((await mark(expertById(r1!.expert_id), r1!.id, [['К1', 3]])).statusCode).toBe(200);
    expect((await mark(expertById(r2!.expert_id), r2!.id, [['К1', 0.5]])).statusCode).toBe(200);
    const after = (await assignmentsOf(w.examWorkId)).filter(
      (r) => r.variant_task_id === w.variantTaskIds[1],
    );
    expect(after).toHaveLength(3);
    const third = after.find((r) => r.round === 3)!;
    expect([r1!.expert_id, r2!.expert_id]).not.toContain(third.expert_id);
    expect(third.anon_code).toBe(r1!.anon_code);
    expect((await scoreOf(w.examWorkId, w.variantTaskIds[1]!)).status).toBe('awaiting_experts');
    // Rounds 1–2 are closed once the third check started; the third expert sees neither.
    expect((await mark(expertById(r1!.expert_id), r1!.id, [['К1', 1]])).statusCode).toBe(409);
    const e3 = expertById(third.expert_id);
    const next = await call(e3.session, 'GET', '/api/expert/next');
    expect(next.json().assignment).toMatchObject({ id: third.id, round: 3, marks: null });
    expect((await mark(e3, third.id, [['К1', 1.5]])).statusCode).toBe(200);
    expect(await scoreOf(w.examWorkId, w.variantTaskIds[1]!)).toEqual({
      final_score: '1.5',
      status: 'expert',
    });
    // applyExpertFinal (results module) recomputed the result: 2 + 1.5, nothing awaits experts.
    const [result] = await t.database.query<{ status: string; primary_score: string }>(
      'select status, primary_score from results where exam_work_id = $1',
      [w.examWorkId],
    );
    expect(result).toEqual({ status: 'scored', primary_score: '3.5' });
  });

  it('queues answers without enough matching experts and assigns them when profiles change (rule mean)', async () => {
    const m = await createExpertWork(t.app, { threshold: 0, expertRule: 'mean' });
    await t.database.query(
      `update task_scores set status = 'auto' where exam_work_id = $1 and variant_task_id = $2`,
      [m.examWorkId, m.variantTaskIds[1]],
    );
    expect(await t.app.ctx.db.transaction((tx) => assignExperts(tx, m.examWorkId))).toEqual({
      created: 0,
      queued: 2,
    });
    const [e1, e2, e3] = experts as [Expert, Expert, Expert];
    const withBoth = { subjectIds: [w.subjectId, m.subjectId], parallels: [7] };
    expect((await saveProfile(e1, withBoth)).statusCode).toBe(200);
    expect(await assignmentsOf(m.examWorkId)).toHaveLength(1);
    expect((await saveProfile(e2, withBoth)).statusCode).toBe(200);
    const [a1, a2] = await assignmentsOf(m.examWorkId);
    expect(new Set([a1!.expert_id, a2!.expert_id])).toEqual(new Set([e1.user.id, e2.user.id]));
    expect(
      (
        await mark(expertById(a1!.expert_id), a1!.id, [
          ['К1', 2],
          ['К2', 1],
        ])
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await mark(expertById(a2!.expert_id), a2!.id, [
          ['К1', 1],
          ['К2', 0],
        ])
      ).statusCode,
    ).toBe(200);
    // A third check is due but nobody else matches: queued until e3 takes the subject.
    expect(await assignmentsOf(m.examWorkId)).toHaveLength(2);
    expect(await assignPending(t.app.ctx.db)).toEqual({ created: 0, queued: 1 });
    expect((await saveProfile(e3, withBoth)).statusCode).toBe(200);
    const third = (await assignmentsOf(m.examWorkId)).find((r) => r.round === 3)!;
    expect(third.expert_id).toBe(e3.user.id);
    expect(
      (
        await mark(e3, third.id, [
          ['К1', 1],
          ['К2', 1],
        ])
      ).statusCode,
    ).toBe(200);
    // Mean of 3, 1, 2 = 2.
    expect(await scoreOf(m.examWorkId, m.variantTaskIds[0]!)).toEqual({ final_score: '2', status: 'expert' });
    expect(roundHalf(7 / 3)).toBe(2.5);
    expect(roundHalf(2.25)).toBe(2.5);
  });

  it('reports queue and agreement; experts never see the participant', async () => {
    const q = await call(experts[0]!.session, 'GET', '/api/expert/queue');
    expect(q.statusCode, q.body).toBe(200);
    expect(q.json().items.length).toBeGreaterThanOrEqual(1);
    const adminQueue = await call(admin, 'GET', '/api/expert/queue');
    const total = adminQueue
      .json()
      .items.reduce((s: number, i: { assigned: number; graded: number }) => s + i.assigned + i.graded, 0);
    expect(total).toBe(await countRows(t.database, 'expert_assignments'));

    const all = await call(admin, 'GET', '/api/expert/agreement');
    expect(all.statusCode, all.body).toBe(200);
    const body = all.json();
    expect(
      body.tasks.find((x: { variantTaskId: number }) => x.variantTaskId === w.variantTaskIds[0]),
    ).toMatchObject({
      doubleMarked: 1,
      exactAgreementPercent: 0,
      meanAbsDifference: 1,
      thirdCheckRate: 0,
    });
    expect(
      body.tasks.find((x: { variantTaskId: number }) => x.variantTaskId === w.variantTaskIds[1]),
    ).toMatchObject({
      thirdCheckRate: 1,
      meanAbsDifference: 2.5,
    });
    expect(body.experts.length).toBe(3);
    const own = await call(experts[0]!.session, 'GET', '/api/expert/agreement');
    expect(own.json().experts.map((x: { expertId: number }) => x.expertId)).toEqual([experts[0]!.user.id]);
    expect((await call(participant, 'GET', '/api/expert/agreement')).statusCode).toBe(403);

    for (const body of expertBodies.filter(Boolean)) {
      expect(body).not.toContain('Иванов');
      expect(body).not.toContain(w.activationCode);
    }
  });
});
