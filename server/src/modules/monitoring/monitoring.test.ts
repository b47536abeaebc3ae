import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../app.js';
import type { Database } from '../../db/client.js';
import {
  areas,
  auditEvents,
  examWorkEvents,
  examWorkPauses,
  participantTests,
  schools,
  subjectTests,
  users,
} from '../../db/schema/index.js';
import {
  createSchoolWithStaff,
  createTestApp,
  createTestDatabase,
  sessionFor,
  signedIn,
  signedInScoped,
  testConfig,
  unique,
  type SchoolWithStaff,
  type TestApp,
} from '../../../test/helpers.js';
import { openStream, type SseEvent } from '../../../test/sse.js';
import { createRoom, shiftWork, startWork, T, type Room } from '../exam-test/test-support.js';
import { MAX_ROOM_STREAMS_PER_USER } from './room-stream.js';

/* Live monitoring: the room snapshot, its scope, the SSE stream, integrity events, Redis fan-out. */

type Row = { participantTestId: number; status: string; answered: number; [k: string]: unknown };
const workOf = (kind: string, ptId: number) => (e: SseEvent) =>
  e.event === 'work' &&
  (e.data as { kind: string; row: Row }).kind === kind &&
  (e.data as { row: Row }).row.participantTestId === ptId;
const rowOf = (e: SseEvent) => (e.data as { row: Row }).row;

const roomUrl = (room: Room, path = '') =>
  `/api/monitoring/room${path}?diagnosticId=${room.diagnosticId}&classId=${room.org.classId}`;

describe('monitoring', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let school: SchoolWithStaff;
  let room: Room;
  let workId: number;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    app = t.app;
    school = await createSchoolWithStaff(app);
    room = await createRoom(app, school);
    workId = await startWork(room);
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const asOrg = (url: string) =>
    app.inject({ method: 'GET', url, headers: school.organizator.session.headers });

  it('snapshot: a row per participant with state, progress, clock and codes', async () => {
    const res = await asOrg(roomUrl(room));
    expect(res.statusCode).toBe(200);
    const body = res.json<{ participants: Row[] }>();
    expect(body.participants).toHaveLength(1);
    expect(body.participants[0]).toMatchObject({
      participantTestId: room.participantTestId,
      examWorkId: workId,
      status: 'in_progress',
      answered: 0,
      total: room.variantTaskIds.length,
      className: '7 «А»',
      subjectTestId: room.subjectTestId,
      subjectTestName: 'Математика, 7 класс',
      activationCode: room.activationCode,
      online: true,
      pausedByStaff: false,
    });
    expect(body.participants[0]!.secondsLeft).toBeGreaterThan(40 * 60);
  });

  it('snapshot: one row per sitting — the same participant on a second subject test is a second row, named by its test', async () => {
    const db = app.ctx.db;
    const [first] = await db
      .select()
      .from(participantTests)
      .where(eq(participantTests.id, room.participantTestId));
    const [test] = await db.select().from(subjectTests).where(eq(subjectTests.id, room.subjectTestId));
    const [second] = await db
      .insert(subjectTests)
      .values({
        subjectExamId: test!.subjectExamId,
        name: 'Геометрия, 7 класс',
        parallels: [7],
        durationMinutes: 40,
      })
      .returning();
    const [sitting] = await db
      .insert(participantTests)
      .values({
        ...first!,
        id: undefined,
        subjectTestId: second!.id,
        activationCode: `${first!.activationCode}X`,
        registrationCode: `${first!.registrationCode}X`,
        status: 'planned',
      })
      .returning();
    try {
      const rows = (await asOrg(roomUrl(room))).json<{ participants: Row[] }>().participants;
      expect(rows.map((r) => [r.participantTestId, r.subjectTestName, r.status])).toEqual([
        [sitting!.id, 'Геометрия, 7 класс', 'not_started'],
        [room.participantTestId, 'Математика, 7 класс', 'in_progress'],
      ]);
      expect(rows[0]!.name).toBe(rows[1]!.name);
    } finally {
      await db
        .update(participantTests)
        .set({ deletedAt: new Date() })
        .where(eq(participantTests.id, sitting!.id));
    }
  });

  it('snapshot is scoped: unassigned class, another school, participant and anonymous are refused', async () => {
    const unassigned = `/api/monitoring/room?diagnosticId=${room.diagnosticId}&classId=${school.otherClassId}`;
    expect((await asOrg(unassigned)).statusCode).toBe(403);
    const coordinatorOk = await app.inject({
      method: 'GET',
      url: roomUrl(room),
      headers: school.coordinator.session.headers,
    });
    expect(coordinatorOk.statusCode).toBe(200);
    const other = await createSchoolWithStaff(app);
    for (const session of [other.coordinator.session, other.organizator.session, room.session]) {
      const res = await app.inject({ method: 'GET', url: roomUrl(room), headers: session.headers });
      expect(res.statusCode).toBe(403);
    }
    expect((await app.inject({ method: 'GET', url: roomUrl(room) })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: roomUrl(room, '/stream') })).statusCode).toBe(401);
    const both = `/api/monitoring/room?diagnosticId=${room.diagnosticId}`;
    expect((await asOrg(both)).statusCode).toBe(400);
    const admin = await signedIn(app, ['admin']);
    const asAdmin = await app.inject({ method: 'GET', url: roomUrl(room), headers: admin.session.headers });
    expect(asAdmin.statusCode).toBe(200);
  });

  it('stream: an answer, a pause, a resume and a time change arrive as they happen', async () => {
    const stream = await openStream(baseUrl, roomUrl(room, '/stream'), school.organizator.session);
    try {
      expect(stream.res.headers.get('content-type')).toContain('text/event-stream');
      const snap = await stream.next((e) => e.event === 'snapshot');
      expect((snap.data as { participants: Row[] }).participants[0]!.status).toBe('in_progress');

      const saved = await room.api.put('saveanswer', {
        examWorkId: workId,
        variantTaskId: room.variantTaskIds[T.short]!,
        value: 'ответ',
        seq: 1,
      });
      expect(saved.statusCode).toBe(200);
      const answered = await stream.next(workOf('answer_saved', room.participantTestId));
      expect(rowOf(answered)).toMatchObject({ answered: 1, status: 'in_progress' });
      expect(rowOf(answered).lastSaveAt).toBeTruthy();

      const org = school.organizator.session.headers;
      const pause = await app.inject({
        method: 'POST',
        url: '/api/exam/test/examwork/pause',
        headers: org,
        payload: { pause: true, examWorkIds: [workId], reason: 'Пожарная тревога' },
      });
      expect(pause.statusCode).toBe(200);
      const paused = await stream.next(workOf('paused', room.participantTestId));
      expect(rowOf(paused)).toMatchObject({
        status: 'paused',
        pausedByStaff: true,
        pauseReason: 'Пожарная тревога',
      });
      const [stored] = await app.ctx.db
        .select()
        .from(examWorkPauses)
        .where(eq(examWorkPauses.examWorkId, workId));
      expect(stored).toMatchObject({ byStaff: true, reason: 'Пожарная тревога' });
      // A staff pause is lifted by staff only.
      const own = await room.api.post('examwork/pause', { pause: false });
      expect(own.statusCode).toBe(403);

      const resume = await app.inject({
        method: 'POST',
        url: '/api/exam/test/examwork/pause',
        headers: org,
        payload: { pause: false, examWorkIds: [workId], reason: 'Продолжаем' },
      });
      expect(resume.statusCode).toBe(200);
      const resumed = await stream.next(workOf('resumed', room.participantTestId));
      expect(rowOf(resumed).status).toBe('in_progress');
      const before = rowOf(resumed).secondsLeft as number;

      const extend = await app.inject({
        method: 'GET',
        url: `/api/exam/test/examwork/ChangeTimeTill?ids=${workId}&timeSpan=00:10:00&reason=${encodeURIComponent('Справка')}`,
        headers: org,
      });
      expect(extend.statusCode).toBe(200);
      const changed = await stream.next(workOf('time_changed', room.participantTestId));
      expect(rowOf(changed).secondsLeft as number).toBeGreaterThanOrEqual(before + 590);

      const audits = await app.ctx.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.entityId, String(workId)));
      expect(audits.map((a) => a.action)).toEqual(
        expect.arrayContaining(['exam_work.pause', 'exam_work.resume', 'exam_work.change_time']),
      );
      expect(audits.find((a) => a.action === 'exam_work.pause')).toMatchObject({
        reason: 'Пожарная тревога',
        userId: school.organizator.user.id,
      });
    } finally {
      await stream.close();
    }
  });

  it('stream: clear session, log out by code, paper form, delete and restore publish too', async () => {
    const other = await createRoom(app, school, 1);
    const otherWork = await startWork(other);
    const url = `/api/monitoring/room/stream?diagnosticId=${other.diagnosticId}&classId=${school.classId}`;
    const stream = await openStream(baseUrl, url, school.organizator.session);
    const org = school.organizator.session.headers;
    try {
      await stream.next((e) => e.event === 'snapshot');
      const cleared = await app.inject({
        method: 'GET',
        url: `/api/ParticipantTest/clearSession/${other.participantTestId}`,
        headers: org,
      });
      expect(cleared.statusCode).toBe(200);
      await stream.next(workOf('session_cleared', other.participantTestId));

      const out = await app.inject({
        method: 'POST',
        url: '/api/Account/LogoutByActivationCode',
        headers: org,
        payload: { activationCode: other.activationCode },
      });
      expect(out.statusCode).toBe(200);
      await stream.next(workOf('logged_out', other.participantTestId));

      // A paper form is keyed in once the sitting's time is up (a work still open online refuses it).
      await shiftWork(app, otherWork, 3 * 3600);
      const keyed = await app.inject({
        method: 'PUT',
        url: `/api/exam/test/saveanswers?registrationCode=${other.registrationCode}`,
        headers: org,
        payload: {
          examWorkId: otherWork,
          answers: [{ variantTaskId: other.variantTaskIds[T.short]!, value: 'с бланка', seq: 1 }],
        },
      });
      expect(keyed.statusCode).toBe(200);
      const paper = await stream.next(workOf('answer_saved', other.participantTestId));
      expect(rowOf(paper).answered).toBe(1);

      const admin = await signedIn(app, ['admin']);
      const del = await app.inject({
        method: 'DELETE',
        url: `/api/exam/test/examwork/${otherWork}?reason=test`,
        headers: admin.session.headers,
      });
      expect(del.statusCode).toBe(200);
      const deleted = await stream.next(workOf('deleted', other.participantTestId));
      expect(rowOf(deleted)).toMatchObject({ status: 'not_started', deletedExamWorkId: otherWork });

      const restore = await app.inject({
        method: 'POST',
        url: '/api/ParticipantTest/RestoreExamWork',
        headers: org,
        payload: { examWorkId: otherWork, reason: 'ошибочно удалена' },
      });
      expect(restore.statusCode).toBe(200);
      const restored = await stream.next(workOf('restored', other.participantTestId));
      expect(rowOf(restored)).toMatchObject({ status: 'in_progress', examWorkId: otherWork, answered: 1 });
    } finally {
      await stream.close();
    }
  });

  it('integrity: the participant reports, it is stored, published, counted and rate-limited', async () => {
    const stream = await openStream(baseUrl, roomUrl(room, '/stream'), school.organizator.session);
    try {
      await stream.next((e) => e.event === 'snapshot');
      const post = (payload: unknown, headers = room.session.headers) =>
        app.inject({ method: 'POST', url: '/api/monitoring/integrity', headers, payload: payload as object });
      const res = await post({ kind: 'blur', at: new Date().toISOString() });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ accepted: true });
      const event = await stream.next(workOf('integrity', room.participantTestId));
      expect(rowOf(event).integrity).toMatchObject({ blur: 1 });

      expect((await post({ kind: 'nonsense' })).statusCode).toBe(400);
      expect((await post({ kind: 'blur' }, school.organizator.session.headers)).statusCode).toBe(403);
      expect(
        (await app.inject({ method: 'POST', url: '/api/monitoring/integrity', payload: { kind: 'blur' } }))
          .statusCode,
      ).toBe(401);
      // Cookie sessions need the anti-CSRF header.
      expect((await post({ kind: 'blur' }, { cookie: room.session.cookie })).statusCode).toBe(403);

      for (let i = 0; i < 125; i++) await post({ kind: 'fullscreen_exit' });
      const stored = await app.ctx.db
        .select()
        .from(examWorkEvents)
        .where(eq(examWorkEvents.examWorkId, workId));
      expect(stored.length).toBeLessThanOrEqual(120);
      expect(stored.length).toBeGreaterThan(100);
    } finally {
      await stream.close();
    }
  });

  it("event log: a sitting's start, staff pause with its reason, resume, time change and integrity, oldest first", async () => {
    const url = `/api/monitoring/participantTest/${room.participantTestId}/events`;
    const res = await asOrg(url);
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      participantTestId: number;
      events: Record<string, unknown>[];
      truncated: boolean;
    }>();
    expect(body.participantTestId).toBe(room.participantTestId);
    expect(body.truncated).toBe(false);
    const staffOnes = body.events.filter((e) => e.kind !== 'integrity');
    expect(staffOnes.map((e) => [e.kind, e.actor])).toEqual([
      ['started', 'participant'],
      ['paused', 'staff'],
      ['resumed', 'staff'],
      ['time_changed', 'staff'],
    ]);
    expect(staffOnes[1]).toMatchObject({ reason: 'Пожарная тревога', examWorkId: workId });
    expect(staffOnes[3]).toMatchObject({ deltaSeconds: 600, reason: 'Справка' });
    const integrity = body.events.filter((e) => e.kind === 'integrity');
    expect(integrity[0]).toMatchObject({ integrityKind: 'blur', actor: 'participant' });
    expect(integrity.length).toBeGreaterThan(100);
    const times = body.events.map((e) => Date.parse(e.at as string));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // The other sitting of the class went through staff's room actions (the stream test above).
    const sittings = await app.ctx.db
      .select({ id: participantTests.id })
      .from(participantTests)
      .where(eq(participantTests.studentId, school.studentIds[1]!));
    const otherLog = (await asOrg(`/api/monitoring/participantTest/${sittings[0]!.id}/events`)).json<{
      events: { kind: string; actor: string; reason: string | null }[];
    }>();
    expect(otherLog.events.map((e) => e.kind)).toEqual([
      'started',
      'session_cleared',
      'logged_out',
      'answers_keyed_in',
      'deleted',
      'restored',
    ]);
    expect(otherLog.events.at(-1)).toMatchObject({ actor: 'staff', reason: 'ошибочно удалена' });
    // Only the allowlisted fields leave the server.
    expect(Object.keys(body.events[0]!).sort()).toEqual(
      [
        'actor',
        'actorName',
        'at',
        'deltaSeconds',
        'examWorkId',
        'finishReason',
        'integrityKind',
        'kind',
        'message',
        'offlineSeconds',
        'reason',
        'verdict',
      ].sort(),
    );
  });

  it('event log is scoped like the room: 401, 403 by role and by school, 404 unknown, 400 bad id', async () => {
    const url = `/api/monitoring/participantTest/${room.participantTestId}/events`;
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const coordinator = await app.inject({ method: 'GET', url, headers: school.coordinator.session.headers });
    expect(coordinator.statusCode).toBe(200);
    const other = await createSchoolWithStaff(app);
    const expert = await signedIn(app, ['expert']);
    for (const session of [
      other.coordinator.session,
      other.organizator.session,
      room.session,
      expert.session,
    ]) {
      const res = await app.inject({ method: 'GET', url, headers: session.headers });
      expect(res.statusCode).toBe(403);
    }
    // An organizator not assigned to the sitting's class.
    const unassigned = await app.inject({ method: 'GET', url, headers: other.organizator.session.headers });
    expect(unassigned.json()).toMatchObject({ status: 403 });
    expect((await asOrg('/api/monitoring/participantTest/999999/events')).statusCode).toBe(404);
    const bad = await asOrg('/api/monitoring/participantTest/abc/events');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('many streams of one room share one read a batch: a change costs one room query, whoever watches', async () => {
    const watched = await createRoom(app, school, 2);
    const watchedWork = await startWork(watched);
    const url = `/api/monitoring/room/stream?diagnosticId=${watched.diagnosticId}&classId=${school.classId}`;
    // An ugnik of the school's area watches too, without the codes.
    const [area] = await app.ctx.db
      .insert(areas)
      .values({ name: unique('Район ') })
      .returning();
    await app.ctx.db.update(schools).set({ areaId: area!.id }).where(eq(schools.id, school.schoolId));
    const ugnik = await signedInScoped(app, ['ugnik']);
    await app.ctx.db.update(users).set({ areaId: area!.id }).where(eq(users.id, ugnik.user.id));
    const admins = [await signedIn(app, ['admin']), await signedIn(app, ['admin'])];
    const sessions = [...Array.from({ length: 12 }, (_, i) => admins[i % 2]!.session), ugnik.session];
    const streams = await Promise.all(sessions.map((session) => openStream(baseUrl, url, session)));
    const db = app.ctx.db;
    try {
      await Promise.all(streams.map((s) => s.next((e) => e.event === 'snapshot')));
      // Every statement of the room's rows counted from here on.
      const dialect = (db as unknown as { dialect: { sqlToQuery(q: unknown): { sql: string } } }).dialect;
      let roomReads = 0;
      app.ctx.db = new Proxy(db, {
        get: (target, key, receiver) =>
          key === 'execute'
            ? (query: Parameters<typeof db.execute>[0]) => {
                if (
                  dialect
                    .sqlToQuery(query)
                    .sql.includes('left join exam_works w on w.participant_test_id = pt.id')
                )
                  roomReads++;
                return target.execute(query);
              }
            : Reflect.get(target, key, receiver),
      });
      const saved = await watched.api.put('saveanswer', {
        examWorkId: watchedWork,
        variantTaskId: watched.variantTaskIds[T.short]!,
        value: 'ответ',
        seq: 1,
      });
      expect(saved.statusCode).toBe(200);
      const events = await Promise.all(
        streams.map((s) => s.next(workOf('answer_saved', watched.participantTestId))),
      );
      expect(events.map((e) => rowOf(e).answered)).toEqual(Array(13).fill(1));
      expect(roomReads).toBe(1);
      // The one read carries the codes; the ugnik's copy of the update has none.
      expect(rowOf(events[0]!).activationCode).toBe(watched.activationCode);
      expect(rowOf(events[12]!)).toMatchObject({ activationCode: null, registrationCode: null });
    } finally {
      app.ctx.db = db;
      await Promise.all(streams.map((s) => s.close()));
    }
  });

  it(`a user holds at most ${MAX_ROOM_STREAMS_PER_USER} room streams: one more is 429 too_many_streams, another user is not refused`, async () => {
    const admin = await signedIn(app, ['admin']);
    const url = roomUrl(room, '/stream');
    const streams = await Promise.all(
      Array.from({ length: MAX_ROOM_STREAMS_PER_USER }, () => openStream(baseUrl, url, admin.session)),
    );
    try {
      expect(streams.map((s) => s.res.status)).toEqual(Array(MAX_ROOM_STREAMS_PER_USER).fill(200));
      const refused = await fetch(baseUrl + url, { headers: { cookie: admin.session.cookie } });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ status: 429, code: 'too_many_streams' });
      // Someone else still watches.
      const other = await openStream(baseUrl, url, school.organizator.session);
      expect(other.res.status).toBe(200);
      await other.close();
      // A closed stream gives its place back.
      await streams.pop()!.close();
      const again = await vi.waitFor(async () => {
        const s = await openStream(baseUrl, url, admin.session);
        if (s.res.status !== 200) {
          await s.close();
          throw new Error(`still ${s.res.status}`);
        }
        return s;
      });
      streams.push(again);
      await again.next((e) => e.event === 'snapshot');
    } finally {
      await Promise.all(streams.map((s) => s.close()));
    }
  });

  it('a stream still open when the server closes ends cleanly', async () => {
    const local = await createTestApp();
    const s = await createSchoolWithStaff(local.app);
    const r = await createRoom(local.app, s);
    const url = await local.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openStream(url, roomUrl(r, '/stream'), s.organizator.session);
    await stream.next((e) => e.event === 'snapshot');
    const started = Date.now();
    await local.close();
    expect(Date.now() - started).toBeLessThan(5000);
    await stream.close();
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('monitoring across instances (Redis)', () => {
  let database: Database;
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig({
      REDIS_URL: process.env.TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: `attesta-test-${process.pid}-${Date.now()}:`,
    });
    a = await buildApp(config, { database, logger: false, web: false });
    b = await buildApp(config, { database, logger: false, web: false });
    await a.ready();
    await b.ready();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.close();
  });

  it('an answer saved on instance A reaches a stream on instance B', async () => {
    const school = await createSchoolWithStaff(a);
    const room = await createRoom(a, school);
    const workId = await startWork(room);
    const urlB = await b.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openStream(urlB, roomUrl(room, '/stream'), school.organizator.session);
    try {
      await stream.next((e) => e.event === 'snapshot');
      const saved = await room.api.put('saveanswer', {
        examWorkId: workId,
        variantTaskId: room.variantTaskIds[T.short]!,
        value: 'через redis',
        seq: 1,
      });
      expect(saved.statusCode).toBe(200);
      const event = await stream.next(workOf('answer_saved', room.participantTestId));
      expect(rowOf(event).answered).toBe(1);

      const pause = await a.inject({
        method: 'POST',
        url: '/api/exam/test/examwork/pause',
        headers: school.organizator.session.headers,
        payload: { pause: true, examWorkIds: [workId], reason: 'тест' },
      });
      expect(pause.statusCode).toBe(200);
      expect(rowOf(await stream.next(workOf('paused', room.participantTestId))).status).toBe('paused');
    } finally {
      await stream.close();
    }
  });
});

/**
 * The participant's own stream: staff actions reach an open runner within a second. `fromA` is
 * the instance staff act on, `streamB` the base URL the participant's stream is opened on. The
 * session clear ends the first stream; the participant signs in again, opens a second one, and
 * staff log them out by their activation code, which ends that one.
 */
async function staffActionsReachTheRunner(fromA: FastifyInstance, streamB: string) {
  const school = await createSchoolWithStaff(fromA);
  const room = await createRoom(fromA, school);
  const workId = await startWork(room);
  const org = school.organizator.session.headers;
  const stream = await openStream(streamB, '/api/monitoring/participant/stream', room.session);
  const kindOf = (kind: string) => (e: SseEvent) =>
    e.event === 'work' && (e.data as { kind: string }).kind === kind;
  const timed = async (
    on: typeof stream,
    kind: string,
    act: () => Promise<{ statusCode: number }>,
    examWorkId: number | null = workId,
  ) => {
    const from = on.events.length;
    const started = Date.now();
    expect((await act()).statusCode).toBe(200);
    const event = await on.next(kindOf(kind), 5000, from);
    const ms = Date.now() - started;
    expect(event.data).toMatchObject({ kind, examWorkId });
    return ms;
  };
  let again: typeof stream | null = null;
  try {
    await stream.next((e) => e.event === 'hello');
    const pauseBy = (pause: boolean) => () =>
      fromA.inject({
        method: 'POST',
        url: '/api/exam/test/examwork/pause',
        headers: org,
        payload: { pause, examWorkIds: [workId], reason: 'тревога' },
      });
    const latencies = [
      await timed(stream, 'paused', pauseBy(true)),
      await timed(stream, 'resumed', pauseBy(false)),
      await timed(stream, 'time_changed', () =>
        fromA.inject({
          method: 'GET',
          url: `/api/exam/test/examwork/ChangeTimeTill?ids=${workId}&timeSpan=00:05:00`,
          headers: org,
        }),
      ),
    ];
    // Nothing secret travels: the runner re-reads what it needs with its own session.
    expect(JSON.stringify(stream.events)).not.toContain('тревога');
    const cleared = await timed(stream, 'session_cleared', () =>
      fromA.inject({
        method: 'GET',
        url: `/api/ParticipantTest/clearSession/${room.participantTestId}`,
        headers: org,
      }),
    );

    // Signed in again (a new session for the same code), then logged out by staff.
    const session = await sessionFor(fromA, room.userId, {
      participantTestId: room.participantTestId,
      activationCode: room.activationCode,
    });
    again = await openStream(streamB, '/api/monitoring/participant/stream', session);
    await again.next((e) => e.event === 'hello');
    const loggedOut = await timed(
      again,
      'logged_out',
      () =>
        fromA.inject({
          method: 'POST',
          url: '/api/Account/LogoutByActivationCode',
          headers: org,
          payload: { activationCode: room.activationCode, reason: 'другое устройство' },
        }),
      null,
    );
    for (const ms of [...latencies, cleared, loggedOut]) expect(ms).toBeLessThan(1000);
    // The session is gone: the runner's next call is refused.
    const after = await fromA.inject({ method: 'GET', url: '/api/user', headers: session.headers });
    expect(after.statusCode).toBe(401);
    return { stream, loggedOutStream: again, room };
  } catch (err) {
    await stream.close();
    await again?.close();
    throw err;
  }
}

describe("the participant's stream (one instance)", () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp();
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  it('carries pause, resume, time change, the moved session and the log out within a second, then ends', async () => {
    const { stream, loggedOutStream } = await staffActionsReachTheRunner(t.app, baseUrl);
    // The session moved to another device, or was logged out: the stream ends.
    expect(await stream.endedWithin(2000)).toBe(true);
    expect(await loggedOutStream.endedWithin(2000)).toBe(true);
    await stream.close();
    await loggedOutStream.close();
  });

  it('is for participants with their own test only: 401 without a session, 403 for staff', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/monitoring/participant/stream' })).statusCode,
    ).toBe(401);
    const staff = await signedIn(t.app, ['organizator']);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/monitoring/participant/stream',
      headers: staff.session.headers,
    });
    expect(res.statusCode).toBe(403);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the participant stream across instances', () => {
  for (const withRedis of [false, true]) {
    describe.skipIf(withRedis && !process.env.TEST_REDIS_URL)(withRedis ? 'Redis' : 'PostgreSQL only', () => {
      let database: Database;
      let a: FastifyInstance;
      let b: FastifyInstance;
      beforeAll(async () => {
        database = await createTestDatabase();
        const config = testConfig(
          withRedis
            ? {
                REDIS_URL: process.env.TEST_REDIS_URL!,
                REDIS_KEY_PREFIX: `attesta-test-${process.pid}-${Date.now()}:`,
              }
            : {},
        );
        a = await buildApp(config, { database, logger: false, web: false });
        b = await buildApp(config, { database, logger: false, web: false });
        await a.ready();
        await b.ready();
      });
      afterAll(async () => {
        await a?.close();
        await b?.close();
        await database?.close();
      });

      it('staff acting on instance A reach the runner streaming from instance B within a second', async () => {
        const urlB = await b.listen({ port: 0, host: '127.0.0.1' });
        const { stream, loggedOutStream } = await staffActionsReachTheRunner(a, urlB);
        await stream.close();
        await loggedOutStream.close();
      });
    });
  }
});
