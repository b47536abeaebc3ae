import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sessionFor, signedIn, type Session, type TestApp } from '../../../test/helpers.js';
import { examWorks } from '../../db/schema/index.js';
import { caller, createRoom, T } from './test-support.js';

// One live delivery: a second device learns before any runner opens that the work is open
// elsewhere; flags belong to the work on the server and follow the participant to any device.

let t: TestApp;
let expert: Session;
let admin: Session;
beforeAll(async () => {
  t = await createTestApp();
  expert = (await signedIn(t.app, ['expert'])).session;
  admin = (await signedIn(t.app, ['admin'])).session;
});
afterAll(async () => t.close());

async function boundRoom() {
  const room = await createRoom(t.app);
  const first = caller(t.app, room.session, 'dev-A');
  const workId = (await first.post('examwork/new', {})).json().id as number;
  return { room, first, second: caller(t.app, room.session, 'dev-B'), workId };
}

const flagsOf = async (workId: number) =>
  (await t.app.ctx.db.select({ flags: examWorks.flags }).from(examWorks).where(eq(examWorks.id, workId)))[0]!
    .flags;

describe('openElsewhere on GET /api/exam/test/currentParticipantTest', () => {
  it('is false before a work exists, on the bound device and without a device header; true on another', async () => {
    const room = await createRoom(t.app);
    const first = caller(t.app, room.session, 'dev-A');
    expect((await first.get('currentParticipantTest')).json().openElsewhere).toBe(false);
    const workId = (await first.post('examwork/new', {})).json().id as number;
    expect((await first.get('currentParticipantTest')).json().openElsewhere).toBe(false);
    expect((await room.api.get('currentParticipantTest')).json().openElsewhere).toBe(false);
    const second = caller(t.app, room.session, 'dev-B');
    expect((await second.get('currentParticipantTest')).json().openElsewhere).toBe(true);

    // The organizer moves the work (device reset): the second device may open it now.
    const reset = await t.app.inject({
      method: 'GET',
      url: `/api/ParticipantTest/clearSession/${room.participantTestId}`,
      headers: admin.headers,
    });
    expect(reset.statusCode).toBe(200);
    const [row] = await t.app.ctx.db.select().from(examWorks).where(eq(examWorks.id, workId));
    expect(row!.deviceId).toBeNull();
  });

  it('is false once the work is finished (nothing more to write anywhere)', async () => {
    const { first, second, workId } = await boundRoom();
    expect((await first.put(`examwork/finish/${workId}/manual`)).statusCode).toBe(200);
    expect((await second.get('currentParticipantTest')).json().openElsewhere).toBe(false);
  });
});

describe('PUT /api/exam/test/examwork/{examWorkId}/{variantTaskId}/flag', () => {
  it('401 without a session, 403 for staff and for another participant’s work; nothing changes', async () => {
    const { room, first, workId } = await boundRoom();
    const vt = room.variantTaskIds[T.single]!;
    const url = `/api/exam/test/examwork/${workId}/${vt}/flag`;
    const anonymous = await t.app.inject({ method: 'PUT', url, payload: { flagged: true } });
    expect(anonymous.statusCode).toBe(401);
    const staff = await t.app.inject({
      method: 'PUT',
      url,
      payload: { flagged: true },
      headers: expert.headers,
    });
    expect(staff.statusCode).toBe(403);
    const stranger = await createRoom(t.app, room.org, 1);
    const theirs = await stranger.api.put(`examwork/${workId}/${vt}/flag`, { flagged: true });
    expect(theirs.statusCode).toBe(403);
    expect(await flagsOf(workId)).toEqual([]);
    expect((await first.put(`examwork/${workId}/${vt}/flag`, { flagged: true })).statusCode).toBe(200);
  });

  it('400 for bad input or a task of another variant; 404 for no such work; nothing changes', async () => {
    const { room, first, workId } = await boundRoom();
    const vt = room.variantTaskIds[T.single]!;
    const notBoolean = await first.put(`examwork/${workId}/${vt}/flag`, { flagged: 'yes' });
    expect([notBoolean.statusCode, notBoolean.json().code]).toEqual([400, 'validation_failed']);
    const badId = await first.put(`examwork/${workId}/abc/flag`, { flagged: true });
    expect(badId.statusCode).toBe(400);
    const other = await createRoom(t.app);
    const foreign = await first.put(`examwork/${workId}/${other.variantTaskIds[0]}/flag`, { flagged: true });
    expect([foreign.statusCode, foreign.json().code]).toEqual([400, 'task_not_in_variant']);
    expect((await first.put(`examwork/99999999/${vt}/flag`, { flagged: true })).statusCode).toBe(404);
    expect(await flagsOf(workId)).toEqual([]);
  });

  it('409 on another device and on a finished work', async () => {
    const { room, first, second, workId } = await boundRoom();
    const vt = room.variantTaskIds[T.single]!;
    const elsewhere = await second.put(`examwork/${workId}/${vt}/flag`, { flagged: true });
    expect([elsewhere.statusCode, elsewhere.json().code]).toEqual([409, 'device_mismatch']);
    await first.put(`examwork/finish/${workId}/manual`);
    const done = await first.put(`examwork/${workId}/${vt}/flag`, { flagged: true });
    expect(done.statusCode).toBe(409);
    expect(await flagsOf(workId)).toEqual([]);
  });

  it('stores the flags on the work, idempotently; another device reads them after a move', async () => {
    const { room, first, workId } = await boundRoom();
    const [a, b] = [room.variantTaskIds[T.short]!, room.variantTaskIds[T.single]!];
    expect((await first.put(`examwork/${workId}/${a}/flag`, { flagged: true })).json()).toEqual({
      examWorkId: workId,
      flags: [a],
    });
    await first.put(`examwork/${workId}/${b}/flag`, { flagged: true });
    const twice = await first.put(`examwork/${workId}/${b}/flag`, { flagged: true });
    expect(twice.json().flags).toEqual([a, b].sort((x, y) => x - y));
    const off = await first.put(`examwork/${workId}/${a}/flag`, { flagged: false });
    expect(off.json().flags).toEqual([b]);

    await t.app.inject({
      method: 'GET',
      url: `/api/ParticipantTest/clearSession/${room.participantTestId}`,
      headers: admin.headers,
    });
    // The reset ends the old sessions: the participant signs in again on the second device.
    const again = await sessionFor(t.app, room.userId, {
      participantTestId: room.participantTestId,
      activationCode: room.activationCode,
    });
    const second = caller(t.app, again, 'dev-B');
    const moved = await second.get(`examwork/${workId}`);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().flags).toEqual([b]);
    expect((await second.get('currentParticipantTest')).json().examWork.flags).toEqual([b]);
  });
});
