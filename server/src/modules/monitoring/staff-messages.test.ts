import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEvents, staffMessages } from '../../db/schema/index.js';
import {
  createSchoolWithStaff,
  createTestApp,
  signedIn,
  type SchoolWithStaff,
  type TestApp,
} from '../../../test/helpers.js';
import { openStream } from '../../../test/sse.js';
import { createRoom, startWork, type Room } from '../exam-test/test-support.js';

/* Staff messages from the room view to one sitting: scope, input, storage, audit, log, push, unread. */

describe('staff messages to a sitting', () => {
  let t: TestApp;
  let school: SchoolWithStaff;
  let room: Room;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    school = await createSchoolWithStaff(t.app);
    room = await createRoom(t.app, school);
    await startWork(room);
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  const send = (headers: Record<string, string> | undefined, text: unknown, ptId = room.participantTestId) =>
    t.app.inject({
      method: 'POST',
      url: `/api/monitoring/participantTest/${ptId}/message`,
      ...(headers ? { headers } : {}),
      payload: { text } as object,
    });
  const unread = () =>
    t.app.inject({ method: 'GET', url: '/api/monitoring/messages', headers: room.session.headers });

  it('401 without a session, 403 for a participant, an expert and staff of another school', async () => {
    expect((await send(undefined, 'Hi')).statusCode).toBe(401);
    expect((await send(room.session.headers, 'Hi')).statusCode).toBe(403);
    const expert = await signedIn(t.app, ['expert']);
    expect((await send(expert.session.headers, 'Hi')).statusCode).toBe(403);
    const other = await createSchoolWithStaff(t.app, 'Другая школа');
    expect((await send(other.coordinator.session.headers, 'Hi')).statusCode).toBe(403);
    expect((await send(other.organizator.session.headers, 'Hi')).statusCode).toBe(403);
    expect(await t.app.ctx.db.select().from(staffMessages)).toHaveLength(0);
  });

  it('400 validation_failed for an empty, blank or too long text; 404 for no such sitting', async () => {
    const org = school.organizator.session.headers;
    for (const text of ['', '   ', 'я'.repeat(501), 42]) {
      const res = await send(org, text);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
    }
    expect((await send(org, 'Hi', 99_999_999)).statusCode).toBe(404);
  });

  it('the organizator sends: stored, audited, in the event log and pushed to the open runner', async () => {
    const stream = await openStream(baseUrl, '/api/monitoring/participant/stream', room.session);
    try {
      await stream.next((e) => e.event === 'hello');
      const res = await send(school.organizator.session.headers, '  Осталось 10 минут, проверьте бланк  ');
      expect(res.statusCode).toBe(200);
      const message = res.json<{ id: number; text: string; readAt: string | null }>();
      expect(message).toMatchObject({
        participantTestId: room.participantTestId,
        text: 'Осталось 10 минут, проверьте бланк',
        readAt: null,
      });
      const pushed = await stream.next((e) => e.event === 'message', 5000);
      expect(pushed.data).toMatchObject({ id: message.id, text: message.text });

      const [audited] = await t.app.ctx.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'participant_test.message')));
      expect(audited).toMatchObject({
        userId: school.organizator.user.id,
        entity: 'participant_test',
        entityId: String(room.participantTestId),
      });

      const log = await t.app.inject({
        method: 'GET',
        url: `/api/monitoring/participantTest/${room.participantTestId}/events`,
        headers: school.coordinator.session.headers,
      });
      expect(log.statusCode).toBe(200);
      expect(log.json<{ events: unknown[] }>().events).toContainEqual(
        expect.objectContaining({ kind: 'message', actor: 'staff', message: message.text }),
      );
    } finally {
      await stream.close();
    }
  });

  it('a runner that was away reads its unread messages, dismisses one, and it is not shown again', async () => {
    const second = await send(school.coordinator.session.headers, 'Подойдите к столу организатора');
    expect(second.statusCode).toBe(200);
    const res = await unread();
    expect(res.statusCode).toBe(200);
    const { messages } = res.json<{ messages: { id: number; text: string }[] }>();
    expect(messages.map((m) => m.text)).toEqual([
      'Осталось 10 минут, проверьте бланк',
      'Подойдите к столу организатора',
    ]);
    const read = await t.app.inject({
      method: 'POST',
      url: `/api/monitoring/messages/${messages[0]!.id}/read`,
      headers: room.session.headers,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json<{ readAt: string | null }>().readAt).not.toBeNull();
    expect((await unread()).json<{ messages: { id: number }[] }>().messages.map((m) => m.id)).toEqual([
      messages[1]!.id,
    ]);
  });

  it("the participant's calls: 401 without a session, 403 for staff, 404 for another sitting's message, 400 for a bad id", async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/monitoring/messages' })).statusCode).toBe(401);
    const staff = school.organizator.session.headers;
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/monitoring/messages', headers: staff })).statusCode,
    ).toBe(403);
    const [own] = await t.app.ctx.db.select().from(staffMessages).limit(1);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/monitoring/messages/${own!.id}/read`,
          headers: staff,
        })
      ).statusCode,
    ).toBe(403);
    const other = await createRoom(t.app, school, 1);
    const stranger = await t.app.inject({
      method: 'POST',
      url: `/api/monitoring/messages/${own!.id}/read`,
      headers: other.session.headers,
    });
    expect(stranger.statusCode).toBe(404);
    expect(
      (
        await t.app.inject({ method: 'GET', url: '/api/monitoring/messages', headers: other.session.headers })
      ).json<{ messages: unknown[] }>().messages,
    ).toEqual([]);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/monitoring/messages/abc/read',
      headers: room.session.headers,
    });
    expect(bad.statusCode).toBe(400);
  });
});
