import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type TestApp } from '../../../test/helpers.js';
import { answerFiles, files } from '../../db/schema/index.js';
import { createHash } from 'node:crypto';
import { caller, createRoom, startWork, T, type Room } from './test-support.js';
import { EXE, multipart, PDF, PNG, type FilePart } from './multipart-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const fileCount = async (workId: number) =>
  (
    await t.app.ctx.db
      .select({ n: count() })
      .from(files)
      .where(and(eq(files.ownerType, 'answer'), eq(files.ownerId, workId)))
  )[0]!.n;

function upload(
  room: Room,
  workId: number,
  value: unknown,
  seq: number,
  parts: FilePart[],
  query = '',
  session = room.session,
) {
  const vt = room.variantTaskIds[T.file]!;
  const body = multipart(
    { answers: JSON.stringify({ examWorkId: workId, answers: [{ variantTaskId: vt, value, seq }] }) },
    parts,
  );
  return t.app.inject({
    method: 'POST',
    url: `/api/exam/test/saveanswers_with_files${query}`,
    headers: { ...session.headers, ...body.headers },
    payload: body.payload,
  });
}
const part = (room: Room, data: Buffer, type = 'image/png', filename = 'photo.png'): FilePart => ({
  field: `file:${room.variantTaskIds[T.file]}`,
  filename,
  type,
  data,
});

describe('POST saveanswers_with_files', () => {
  it('stores the files and the answer in one transaction and appends to the kept files', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const first = await upload(room, workId, { fileIds: [] }, 1, [part(room, PNG)]);
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(body.results[0]).toMatchObject({ status: 'saved', seq: 1 });
    expect(body.files[0]).toMatchObject({ name: 'photo.png', mime: 'image/png', size: PNG.length });
    const [row] = await t.app.ctx.db.select().from(files).where(eq(files.id, body.files[0].id));
    expect(row).toMatchObject({
      ownerType: 'answer',
      ownerId: workId,
      sha256: createHash('sha256').update(PNG).digest('hex'),
      size: PNG.length,
    });
    expect((await t.app.ctx.files.read(t.app.ctx.db, row!))!.equals(PNG)).toBe(true);

    const second = await upload(room, workId, { fileIds: [body.files[0].id] }, 2, [
      part(room, PDF, 'application/pdf', 'work.pdf'),
    ]);
    expect(second.statusCode, second.body).toBe(200);
    const state = (await room.api.get(`examwork/${workId}`)).json();
    const answer = state.answers.find(
      (a: { variantTaskId: number }) => a.variantTaskId === room.variantTaskIds[T.file],
    );
    expect(answer.value.fileIds).toEqual([body.files[0].id, second.json().files[0].id]);
    const links = await t.app.ctx.db.select().from(answerFiles).where(eq(answerFiles.examWorkId, workId));
    expect(links).toHaveLength(2);

    // maxFiles is 2: a third file is refused and nothing of the request stays.
    const third = await upload(room, workId, answer.value, 3, [part(room, PNG)]);
    expect(third.statusCode).toBe(413);
    expect(await fileCount(workId)).toBe(2);

    // Dropping a file is a plain save of the kept ids.
    const drop = await room.api.put('saveanswer', {
      examWorkId: workId,
      variantTaskId: room.variantTaskIds[T.file],
      value: { fileIds: [body.files[0].id] },
      seq: 4,
    });
    expect(drop.statusCode).toBe(200);
  });

  it('checks type by content and by the task, and size by the task', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const cases: [FilePart, number][] = [
      [part(room, EXE, 'image/png', 'virus.png'), 415],
      [part(room, PDF, 'image/png', 'fake.png'), 415],
      [
        part(
          room,
          Buffer.from('PK\u0003\u0004rest'),
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          'a.docx',
        ),
        415,
      ],
      [part(room, Buffer.concat([PNG, Buffer.alloc(1024 * 1024)])), 413],
    ];
    for (const [p, status] of cases) {
      const res = await upload(room, workId, { fileIds: [] }, 1, [p]);
      expect(res.statusCode, res.body).toBe(status);
      if (status === 415) expect(res.json().code).toBe('unsupported_file_type');
    }
    const wrongTask = multipart(
      {
        answers: JSON.stringify({
          examWorkId: workId,
          answers: [{ variantTaskId: room.variantTaskIds[T.short], value: 'x', seq: 1 }],
        }),
      },
      [{ ...part(room, PNG), field: `file:${room.variantTaskIds[T.short]}` }],
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/exam/test/saveanswers_with_files',
      headers: { ...room.session.headers, ...wrongTask.headers },
      payload: wrongTask.payload,
    });
    expect(res.statusCode).toBe(400);
    const noAnswers = multipart({}, [part(room, PNG)]);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/exam/test/saveanswers_with_files',
      headers: { ...room.session.headers, ...noAnswers.headers },
      payload: noAnswers.payload,
    });
    expect(missing.statusCode).toBe(400);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/exam/test/saveanswers_with_files',
      headers: room.session.headers,
      payload: { answers: [] },
    });
    expect(json.statusCode).toBe(415);
    expect(await fileCount(workId)).toBe(0);
  });

  it('refuses a file answer naming files not uploaded to it', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    const res = await room.api.put('saveanswer', {
      examWorkId: workId,
      variantTaskId: room.variantTaskIds[T.file],
      value: { fileIds: [1] },
      seq: 1,
    });
    expect([res.statusCode, res.json().code]).toEqual([400, 'invalid_answer']);
  });

  it('lets staff attach a scanned form after finish; needs a session and the right role', async () => {
    const room = await createRoom(t.app);
    const workId = await startWork(room);
    await room.api.put(`examwork/finish/${workId}/manual`);
    expect((await upload(room, workId, { fileIds: [] }, 1, [part(room, PNG)])).json().code).toBe(
      'work_finished',
    );
    const coordinator = await signedIn(t.app, ['coordinator'], { schoolId: room.org.schoolId });
    const res = await upload(
      room,
      workId,
      { fileIds: [] },
      1,
      [part(room, PNG)],
      `?registrationCode=${room.registrationCode}`,
      coordinator.session,
    );
    expect(res.statusCode, res.body).toBe(200);
    const anon = await t.app.inject({ method: 'POST', url: '/api/exam/test/saveanswers_with_files' });
    expect(anon.statusCode).toBe(401);
    const expert = await signedIn(t.app, ['expert']);
    expect((await caller(t.app, expert.session).post('saveanswers_with_files', {})).statusCode).toBe(403);
  });
});
