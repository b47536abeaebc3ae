import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg, createTestApp, signedIn, type TestApp } from '../../../test/helpers.js';
import { participantTests, quizAnswers, quizzes, subjectTests } from '../../db/schema/index.js';
import { caller, createRoom, startWork, T } from './test-support.js';
import { forgetContent } from './content-cache.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const anon = () => caller(t.app, null);

describe('every call needs its session and role', () => {
  it('answers 401 without a session and 403 for a role the contract does not list', async () => {
    const expert = caller(t.app, (await signedIn(t.app, ['expert'])).session);
    const participantOnly = [
      ['GET', 'checkActivationCode'],
      ['GET', 'currentParticipantTest'],
      ['GET', 'examwork/timeBefore'],
      ['POST', 'examwork/new'],
      ['GET', 'examwork/checkexistsexamwork'],
      ['GET', 'variant/current'],
      ['GET', 'examwork/left/1'],
      ['GET', 'examwork/pause'],
      ['PUT', 'examwork/1/answertype/online'],
      ['PUT', 'examwork/1/2/answertype/online'],
      ['PUT', 'saveanswer'],
      ['PUT', 'examwork/finish/1/manual'],
      ['GET', 'examwork/participantTest/subjecttest'],
      ['GET', 'getQuizCurrentParticipantTest'],
      ['PUT', 'saveQuizCurrentParticipantTest'],
      ['PUT', 'saveanswers'],
      ['POST', 'examwork/pause'],
      ['GET', 'examwork/1'],
      ['DELETE', 'examwork/1'],
      ['GET', 'examwork/ChangeTimeTill?ids=1&timeSpan=00:01:00'],
      ['GET', 'getparticipanttestbyresultid/1'],
      ['GET', 'variant/resolve/1'],
    ] as const;
    for (const [method, url] of participantOnly) {
      const send = (c: typeof expert) =>
        method === 'GET'
          ? c.get(url)
          : method === 'DELETE'
            ? c.del(url)
            : method === 'PUT'
              ? c.put(url, {})
              : c.post(url, {});
      expect((await send(anon())).statusCode, `${method} ${url}`).toBe(401);
      expect((await send(expert)).statusCode, `${method} ${url}`).toBe(403);
    }
  });
});

describe('GET checkActivationCode', () => {
  it('tells an anonymous caller whether a code is usable, without personal data', async () => {
    const room = await createRoom(t.app);
    const res = await anon().get(
      `checkActivationCode/${room.activationCode.toLowerCase().replace('-', ' ')}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ valid: true, reason: null, subjectTest: { id: room.subjectTestId } });
    expect(res.body).not.toMatch(/Иванов|Иван|student|class/i);
    const unknown = (await anon().get('checkActivationCode/ZZZZZ-ZZZZZ')).json();
    expect(unknown).toMatchObject({ valid: false, reason: 'unknown', subjectTest: null });
    await t.app.ctx.db
      .update(participantTests)
      .set({ status: 'annulled' })
      .where(eq(participantTests.id, room.participantTestId));
    expect((await anon().get(`checkActivationCode/${room.activationCode}`)).json().reason).toBe('annulled');
    expect((await room.api.get('checkActivationCode')).json().reason).toBe('annulled');
  });

  it('throttles a code string after repeated unknown attempts (429), while other codes still work', async () => {
    const room = await createRoom(t.app);
    const guess = 'QQQQQ-QQQQQ';
    const headers = { 'x-forwarded-for': '10.9.9.9' };
    const statuses = [];
    for (let i = 0; i < 12; i++)
      statuses.push((await anon().get(`checkActivationCode/${guess}`, headers)).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await anon().get(`checkActivationCode/${room.activationCode}`)).statusCode).toBe(200);
    expect((await anon().get(`checkActivationCode/${'x'.repeat(80)}`)).statusCode).toBe(400);
  });
});

describe('GET currentParticipantTest, subjecttest, timeBefore', () => {
  it('describes the bound participant test and its work', async () => {
    const room = await createRoom(t.app);
    const before = (await room.api.get('currentParticipantTest')).json();
    expect(before).toMatchObject({
      id: room.participantTestId,
      subjectTest: { id: room.subjectTestId, taskCount: 10, durationMinutes: 45, hasQuiz: false },
      participant: { displayName: 'Иванов Иван', cardComplete: true, className: '7 «А»' },
      quizDone: true,
      examWork: null,
    });
    const id = await startWork(room);
    expect((await room.api.get('currentParticipantTest')).json().examWork).toMatchObject({
      id,
      status: 'in_progress',
    });
    expect((await room.api.get('examwork/participantTest/subjecttest')).json()).toMatchObject({
      id: room.subjectTestId,
      allowBlank: true,
    });
    expect((await room.api.get('examwork/timeBefore')).json().seconds).toBe(0);
    expect((await room.api.get('examwork/left/' + id)).json()).toMatchObject({
      examWorkId: id,
      paused: false,
    });
  });
});

describe('quiz', () => {
  it('returns the questionnaire and validates answers before saving', async () => {
    const room = await createRoom(t.app);
    expect((await room.api.get('getQuizCurrentParticipantTest')).json()).toEqual({
      quiz: null,
      answers: null,
    });
    expect((await room.api.put('saveQuizCurrentParticipantTest', { answers: {} })).statusCode).toBe(404);
    const [quiz] = await t.app.ctx.db
      .insert(quizzes)
      .values({
        name: 'Анкета',
        questions: [
          {
            id: 'q1',
            text: 'Класс?',
            kind: 'single',
            options: [
              { id: 'a', text: '7' },
              { id: 'b', text: '8' },
            ],
            required: true,
          },
          {
            id: 'q2',
            text: 'Предметы',
            kind: 'multiple',
            options: [
              { id: 'm', text: 'М' },
              { id: 'r', text: 'Р' },
            ],
          },
          { id: 'q3', text: 'Комментарий', kind: 'text' },
        ],
      })
      .returning();
    await t.app.ctx.db
      .update(subjectTests)
      .set({ quizId: quiz!.id })
      .where(eq(subjectTests.id, room.subjectTestId));
    forgetContent(t.app.ctx.db); // content edited behind the API's back
    const got = (await room.api.get('getQuizCurrentParticipantTest')).json();
    expect(got.quiz.questions).toHaveLength(3);
    expect((await room.api.get('currentParticipantTest')).json().quizDone).toBe(false);
    const count0 = (await t.app.ctx.db.select({ n: count() }).from(quizAnswers))[0]!.n;
    for (const answers of [
      { q2: ['m'] },
      { q1: 'z' },
      { q1: 'a', q2: ['m', 'm'] },
      { q1: 'a', q9: 'x' },
      { q1: ['a'] },
    ]) {
      const res = await room.api.put('saveQuizCurrentParticipantTest', { answers });
      expect(res.statusCode, JSON.stringify(answers)).toBe(400);
    }
    expect((await t.app.ctx.db.select({ n: count() }).from(quizAnswers))[0]!.n).toBe(count0);
    const ok = await room.api.put('saveQuizCurrentParticipantTest', {
      answers: { q1: 'a', q2: ['m', 'r'], q3: 'ок' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await room.api.get('getQuizCurrentParticipantTest')).json().answers).toEqual({
      q1: 'a',
      q2: ['m', 'r'],
      q3: 'ок',
    });
    expect((await room.api.get('currentParticipantTest')).json().quizDone).toBe(true);
  });
});

describe('staff reads', () => {
  it('GET examwork/{id}: own work, staff in scope; others refused', async () => {
    const room = await createRoom(t.app);
    const id = await startWork(room);
    await room.api.put('saveanswer', {
      examWorkId: id,
      variantTaskId: room.variantTaskIds[T.number],
      value: '12',
      seq: 1,
    });
    const own = (await room.api.get(`examwork/${id}`)).json();
    expect(own.answers).toEqual([expect.objectContaining({ value: '12', seq: 1, answerMode: 'online' })]);
    const coordinator = await signedIn(t.app, ['coordinator'], { schoolId: room.org.schoolId });
    expect((await caller(t.app, coordinator.session).get(`examwork/${id}`)).json().answers).toHaveLength(1);
    const outsider = await signedIn(t.app, ['coordinator'], { schoolId: (await createOrg(t.app)).schoolId });
    expect((await caller(t.app, outsider.session).get(`examwork/${id}`)).statusCode).toBe(403);
    expect((await caller(t.app, coordinator.session).get('examwork/0')).statusCode).toBe(400);
    expect((await caller(t.app, coordinator.session).get('examwork/999999')).statusCode).toBe(404);
  });

  it('GET getparticipanttestbyresultid/{id}: the card in scope', async () => {
    const room = await createRoom(t.app);
    const id = await startWork(room);
    const organizator = await signedIn(t.app, ['organizator'], { schoolId: room.org.schoolId });
    expect(
      (await caller(t.app, organizator.session).get(`getparticipanttestbyresultid/${id}`)).statusCode,
    ).toBe(403);
    const admin = await signedIn(t.app, ['admin']);
    const res = await caller(t.app, admin.session).get(`getparticipanttestbyresultid/${id}`);
    expect(res.json()).toMatchObject({
      id: room.participantTestId,
      participantName: 'Иванов Иван',
      registrationCode: room.registrationCode,
      status: 'in_progress',
    });
    expect((await caller(t.app, admin.session).get('getparticipanttestbyresultid/999999')).statusCode).toBe(
      404,
    );
  });

  it('GET variant/{id}: admin and expert any, a participant only their own', async () => {
    const room = await createRoom(t.app);
    const other = await createRoom(t.app);
    expect((await room.api.get(`variant/${room.variantId}`)).statusCode).toBe(403);
    await startWork(room);
    expect((await room.api.get(`variant/${room.variantId}`)).statusCode).toBe(200);
    expect((await room.api.get(`variant/${other.variantId}`)).statusCode).toBe(403);
    const expert = await signedIn(t.app, ['expert']);
    expect((await caller(t.app, expert.session).get(`variant/${other.variantId}`)).statusCode).toBe(200);
    expect((await caller(t.app, expert.session).get('variant/999999')).statusCode).toBe(404);
    expect((await caller(t.app, expert.session).get(`variant/resolve/${other.variantId}`)).statusCode).toBe(
      403,
    );
    const admin = await signedIn(t.app, ['admin']);
    expect((await caller(t.app, admin.session).get(`variant/resolve/${other.variantId}`)).statusCode).toBe(
      200,
    );
    expect((await other.api.get('variant/current')).json().code).toBe('no_exam_work');
  });
});
