import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type TestApp } from '../../../test/helpers.js';
import {
  answers,
  diagnostics,
  files,
  quizzes,
  subjectTests,
  tasks,
  variantTasks,
} from '../../db/schema/index.js';
import { caller, createRoom, SECRET, startWork, T, type Room } from './test-support.js';
import { multipart, PNG } from './multipart-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const VALUES: Record<number, unknown> = {
  [T.single]: 'o2',
  [T.multiple]: ['o1', 'o3'],
  [T.short]: 'ответ',
  [T.number]: '12,5',
  [T.digits]: '312',
  [T.ordering]: ['o3', 'o1', 'o4', 'o2'],
  [T.matching]: { a: 'o2', b: 'o1' },
  [T.cloze]: { b1: 'Москва', b2: 'c2' },
  [T.extended]: 'Развёрнутый ответ',
};

/** A room whose tasks carry the marker in every secret part, with a quiz, a task file and answers. */
async function busyRoom(): Promise<{ room: Room; workId: number }> {
  const room = await createRoom(t.app);
  const [quiz] = await t.app.ctx.db
    .insert(quizzes)
    .values({
      name: 'Анкета',
      questions: [
        { id: 'q1', text: 'Нравится?', kind: 'single', options: [{ id: 'y', text: 'Да' }], required: true },
      ],
    })
    .returning();
  await t.app.ctx.db
    .update(subjectTests)
    .set({ quizId: quiz!.id })
    .where(eq(subjectTests.id, room.subjectTestId));
  const workId = await startWork(room);
  for (const [i, value] of Object.entries(VALUES)) {
    const res = await room.api.put('saveanswer', {
      examWorkId: workId,
      variantTaskId: room.variantTaskIds[Number(i)],
      value,
      seq: 1,
    });
    expect(res.statusCode, `${i}: ${res.body}`).toBe(200);
  }
  return { room, workId };
}

describe('leak walker: no secret reaches a participant before publication', () => {
  it('every participant-facing call answers without a single marker', async () => {
    const { room, workId } = await busyRoom();
    const { variantId } = room;
    const vt = room.variantTaskIds[T.file]!;
    const upload = multipart(
      {
        answers: JSON.stringify({
          examWorkId: workId,
          answers: [{ variantTaskId: vt, value: { fileIds: [] }, seq: 1 }],
        }),
      },
      [{ field: `file:${vt}`, filename: 'photo.png', type: 'image/png', data: PNG }],
    );
    const calls = [
      () => t.app.inject({ method: 'GET', url: '/api/user', headers: room.session.headers }),
      () => caller(t.app, null).get(`checkActivationCode/${room.activationCode}`),
      () => room.api.get('checkActivationCode'),
      () => room.api.get('currentParticipantTest'),
      () => room.api.get('examwork/timeBefore'),
      () => room.api.get('examwork/participantTest/subjecttest'),
      () => room.api.get('examwork/checkexistsexamwork'),
      () => room.api.post('examwork/new', {}),
      () => room.api.get(`examwork/${workId}`),
      () => room.api.get(`examwork/left/${workId}`),
      () => room.api.get('examwork/pause'),
      () => room.api.get('variant/current'),
      () => room.api.get(`variant/${variantId}`),
      () => room.api.get(`variant/resolve/${variantId}`),
      () => room.api.get('getQuizCurrentParticipantTest'),
      () => room.api.put('saveQuizCurrentParticipantTest', { answers: { q1: 'y' } }),
      () =>
        room.api.put('saveanswer', {
          examWorkId: workId,
          variantTaskId: room.variantTaskIds[T.single],
          value: 'o1',
          seq: 2,
        }),
      () =>
        room.api.put('saveanswer', {
          examWorkId: workId,
          variantTaskId: room.variantTaskIds[T.single],
          value: 'o1',
          seq: 1,
        }),
      () =>
        room.api.put('saveanswer', {
          examWorkId: workId,
          variantTaskId: room.variantTaskIds[T.single],
          value: 'zz',
          seq: 3,
        }),
      () =>
        room.api.put('saveanswers', {
          examWorkId: workId,
          answers: [{ variantTaskId: room.variantTaskIds[T.short], value: 'x', seq: 2 }],
        }),
      () =>
        t.app.inject({
          method: 'POST',
          url: '/api/exam/test/saveanswers_with_files',
          headers: { ...room.session.headers, ...upload.headers },
          payload: upload.payload,
        }),
      () => room.api.put(`examwork/${workId}/${room.variantTaskIds[T.extended]}/answertype/blank`),
      () => room.api.put(`examwork/${workId}/answertype/online`),
      () => room.api.post('examwork/pause', { pause: true }),
      () => room.api.post('examwork/pause', { pause: false }),
      () => room.api.put(`examwork/finish/${workId}/manual`),
      () => room.api.get(`examwork/${workId}`),
      () => room.api.get('variant/current'),
    ];
    const statuses: number[] = [];
    for (const call of calls) {
      const res = await call();
      statuses.push(res.statusCode);
      expect(res.body, res.body.slice(0, 300)).not.toContain(SECRET);
      expect(res.body).not.toMatch(/solutionHtml|"reference"|"scoring"|"criteria"/);
    }
    // The walk really exercised the calls: all answered, most of them 200.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(calls.length - 3);
    expect(statuses[13]).toBe(403);
  });

  it('shows content through the allowlist: no unknown keys, sanitized html, stable shuffle with the same ids', async () => {
    const { room } = await busyRoom();
    const first = (await room.api.get('variant/current')).json();
    const again = (await room.api.get('variant/current')).json();
    expect(again).toEqual(first);
    const multiple = first.tasks[T.multiple];
    expect(Object.keys(multiple.content).sort()).toEqual(['maxChoices', 'options', 'shuffle']);
    expect(multiple.content.options.map((o: { id: string }) => o.id).sort()).toEqual([
      'o1',
      'o2',
      'o3',
      'o4',
      'o5',
    ]);
    expect(first.tasks.map((x: { position: number }) => x.position)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const admin = await signedIn(t.app, ['admin']);
    const plain = (await caller(t.app, admin.session).get(`variant/${room.variantId}`)).json();
    expect(plain.tasks[T.multiple].content.options.map((o: { id: string }) => o.id)).toEqual([
      'o1',
      'o2',
      'o3',
      'o4',
      'o5',
    ]);
    expect(JSON.stringify(plain)).not.toContain(SECRET);
  });

  it('sanitizes task html and lists the task files', async () => {
    const room = await createRoom(t.app);
    await startWork(room);
    const [vtRow] = await t.app.ctx.db
      .select()
      .from(variantTasks)
      .where(eq(variantTasks.id, room.variantTaskIds[T.short]!));
    const taskId = vtRow!.taskId;
    await t.app.ctx.db
      .update(tasks)
      .set({ html: '<p onclick="x()">Текст<script>alert(1)</script><img src="javascript:x()"></p>' })
      .where(eq(tasks.id, taskId));
    await t.app.ctx.db.insert(files).values({
      ownerType: 'task',
      ownerId: taskId,
      name: 'рис.png',
      mime: 'image/png',
      size: 4,
      sha256: 'x',
      data: Buffer.from('abcd'),
    });
    const v = (await room.api.get('variant/current')).json();
    const task = v.tasks[T.short];
    expect(task.html).toBe('<p>Текст<img /></p>');
    expect(task.files).toEqual([{ id: expect.any(Number), name: 'рис.png', mime: 'image/png' }]);
    expect(v.tasks[T.single].files).toEqual([]);
  });

  it('after publication the participant gets the key of their own variant, only once their work is finished', async () => {
    const { room, workId } = await busyRoom();
    await t.app.ctx.db
      .update(diagnostics)
      .set({ resultsPublished: true })
      .where(eq(diagnostics.id, room.diagnosticId));
    // Published while this work still runs (set straight in the table: publication itself refuses
    // it): keys never reach anyone who can still write.
    const running = [
      await room.api.get(`variant/resolve/${room.variantId}`),
      await t.app.inject({
        method: 'GET',
        url: `/api/examresults/referenceByVariantTaskId/${room.variantTaskIds[T.single]}`,
        headers: room.session.headers,
      }),
    ];
    for (const r of running) {
      expect([r.statusCode, r.json().code]).toEqual([409, 'work_not_finished']);
      expect(r.body).not.toContain(SECRET);
    }
    expect((await room.api.put(`examwork/finish/${workId}/manual`)).statusCode).toBe(200);
    const res = await room.api.get(`variant/resolve/${room.variantId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().tasks[T.single].reference).toMatchObject({ correct: 'o2' });
    expect(res.json().tasks[T.single].solutionHtml).toContain(SECRET);
    const other = await createRoom(t.app);
    expect((await room.api.get(`variant/resolve/${other.variantId}`)).statusCode).toBe(403);
  });
});

describe("IDOR: a participant never touches someone else's work", () => {
  it('answers 403/404 on every call with the other participant’s ids and changes nothing', async () => {
    const victim = await busyRoom();
    const attacker = await busyRoom();
    const id = victim.workId;
    const vt = victim.room.variantTaskIds[T.short]!;
    const before = await t.app.ctx.db.select().from(answers).where(eq(answers.examWorkId, id));
    const a = attacker.room.api;
    const upload = multipart(
      {
        answers: JSON.stringify({
          examWorkId: id,
          answers: [{ variantTaskId: victim.room.variantTaskIds[T.file], value: { fileIds: [] }, seq: 9 }],
        }),
      },
      [
        {
          field: `file:${victim.room.variantTaskIds[T.file]}`,
          filename: 'x.png',
          type: 'image/png',
          data: PNG,
        },
      ],
    );
    const results = await Promise.all([
      a.get(`examwork/${id}`),
      a.get(`examwork/left/${id}`),
      a.put(`examwork/finish/${id}/manual`),
      a.put(`examwork/${id}/answertype/blank`),
      a.put(`examwork/${id}/${vt}/answertype/blank`),
      a.put('saveanswer', { examWorkId: id, variantTaskId: vt, value: 'hack', seq: 99 }),
      a.put('saveanswers', { examWorkId: id, answers: [{ variantTaskId: vt, value: 'hack', seq: 99 }] }),
      a.put(`saveanswers?registrationCode=${victim.room.registrationCode}`, {
        examWorkId: id,
        answers: [{ variantTaskId: vt, value: 'hack', seq: 99 }],
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/exam/test/saveanswers_with_files',
        headers: { ...attacker.room.session.headers, ...upload.headers },
        payload: upload.payload,
      }),
      a.get(`variant/${victim.room.variantId}`),
      a.get(`variant/resolve/${victim.room.variantId}`),
      a.del(`examwork/${id}`),
      a.get(`examwork/ChangeTimeTill?ids=${id}&timeSpan=01:00:00`),
      a.get(`getparticipanttestbyresultid/${id}`),
      a.post('examwork/pause', { pause: true, examWorkIds: [id] }),
    ]);
    for (const r of results) expect([403, 404], r.body).toContain(r.statusCode);
    const victimFiles = await t.app.ctx.db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.ownerType, 'answer'), eq(files.ownerId, id)));
    expect(victimFiles).toHaveLength(0);
    const after = await t.app.ctx.db.select().from(answers).where(eq(answers.examWorkId, id));
    expect(after).toEqual(before);
  });
});
