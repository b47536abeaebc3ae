import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.js';
import {
  createSchoolWithStaff,
  createTestApp,
  type SchoolWithStaff,
  type TestApp,
} from '../../../test/helpers.js';
import { openStream } from '../../../test/sse.js';
import { caller, createRoom, type Room } from '../exam-test/test-support.js';
import { presenceOf, type RunnerPresence } from './runner-presence.js';

/*
 * What the room's sitting log and the protocol tell about a sitting beyond staff actions: the
 * runner's connection lost and back (recorded by the server when the runner's last stream closes
 * from the client's side while the work runs and no runner is back within the grace period, and
 * when one opens again), a second device refused the work; and staff
 * actions carry the staff member's name («Иванов И. И.»), never an id.
 */

type LogEvent = {
  kind: string;
  actor: string;
  actorName?: string | null;
  offlineSeconds?: number | null;
  reason: string | null;
};

let t: TestApp;
let baseUrl: string;
let school: SchoolWithStaff;
let room: Room;
let workId: number;

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  school = await createSchoolWithStaff(t.app);
  await t.app.ctx.db
    .update(users)
    .set({ surname: 'Иванов', name: 'Иван', patronymic: 'Иванович' })
    .where(eq(users.id, school.organizator.user.id));
  room = await createRoom(t.app, school);
  workId = (await caller(t.app, room.session, 'dev-A').post('examwork/new', {})).json().id as number;
});
afterAll(async () => t?.close());

const asOrg = (url: string) =>
  t.app.inject({ method: 'GET', url, headers: school.organizator.session.headers });
const log = async () =>
  (await asOrg(`/api/monitoring/participantTest/${room.participantTestId}/events`)).json<{
    events: LogEvent[];
  }>().events;

/** Waits until the server has seen the runner's stream close (it learns it from the socket). */
async function awaitingGrace(presence: RunnerPresence) {
  for (let i = 0; i < 100 && !presence.awaiting().includes(room.participantTestId); i++)
    await new Promise((r) => setTimeout(r, 20));
  expect(presence.awaiting()).toContain(room.participantTestId);
}

/** Reads the log until `kind` appears (the stream's end is noted after the client is gone). */
async function logWith(kind: string): Promise<LogEvent[]> {
  for (let i = 0; i < 100; i++) {
    const events = await log();
    if (events.some((e) => e.kind === kind)) return events;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${kind} in the log: ${JSON.stringify(await log())}`);
}

describe("the sitting's log and protocol", () => {
  it('a second device refused at entry is logged once a minute, not on every recheck', async () => {
    const second = caller(t.app, room.session, 'dev-B');
    expect((await second.get('currentParticipantTest')).json().openElsewhere).toBe(true);
    expect((await second.get('currentParticipantTest')).json().openElsewhere).toBe(true);
    const start = await second.post('examwork/new', {});
    expect(start.statusCode).toBe(409);
    expect(start.json().code).toBe('device_mismatch');
    const events = await log();
    expect(events.filter((e) => e.kind === 'second_device')).toEqual([
      expect.objectContaining({ kind: 'second_device', actor: 'participant', actorName: null }),
    ]);
    // The bound device itself is no second device.
    await caller(t.app, room.session, 'dev-A').get('currentParticipantTest');
    expect((await log()).filter((e) => e.kind === 'second_device')).toHaveLength(1);
  });

  it('the runner away beyond the grace period while the work runs is a lost connection; back, its return', async () => {
    const presence = presenceOf(t.app.ctx)!;
    const stream = () => openStream(baseUrl, '/api/monitoring/participant/stream', room.session);
    const first = await stream();
    await first.next((e) => e.event === 'hello');
    // The first connection is no return.
    expect((await log()).some((e) => e.kind === 'connection_restored')).toBe(false);
    // A runner back within the grace period (a reload) lost nothing.
    await first.close();
    await awaitingGrace(presence);
    const reload = await stream();
    await reload.next((e) => e.event === 'hello');
    expect(presence.awaiting()).toEqual([]);
    expect((await log()).some((e) => e.kind.startsWith('connection_'))).toBe(false);
    // Away: the grace period ends (settled here instead of waited for) — a lost connection.
    await reload.close();
    await awaitingGrace(presence);
    await presence.settle(room.participantTestId);
    const afterLoss = await logWith('connection_lost');
    expect(afterLoss.filter((e) => e.kind === 'connection_lost')).toEqual([
      expect.objectContaining({ actor: 'system', actorName: null }),
    ]);
    const again = await openStream(baseUrl, '/api/monitoring/participant/stream', room.session);
    await again.next((e) => e.event === 'hello');
    const back = (await log()).filter((e) => e.kind === 'connection_restored');
    expect(back).toHaveLength(1);
    expect(back[0]!.offlineSeconds).toBeGreaterThanOrEqual(0);
    // The room row does not take the server's notes for the runner being there.
    const row = (
      await asOrg(`/api/monitoring/room?diagnosticId=${room.diagnosticId}&classId=${school.classId}`)
    )
      .json<{ participants: { participantTestId: number; integrity: Record<string, number> }[] }>()
      .participants.find((p) => p.participantTestId === room.participantTestId)!;
    expect(Object.keys(row.integrity)).not.toContain('connection_lost');
    expect(Object.keys(row.integrity)).not.toContain('second_device');
    // A stream the server ends (the session moved) is no lost connection.
    const moved = await t.app.inject({
      method: 'GET',
      url: `/api/ParticipantTest/clearSession/${room.participantTestId}`,
      headers: school.organizator.session.headers,
    });
    expect(moved.statusCode).toBe(200);
    expect(await again.endedWithin(2000)).toBe(true);
    await again.close();
    expect(presence.awaiting()).toEqual([]);
    expect((await log()).filter((e) => e.kind === 'connection_lost')).toHaveLength(1);
  });

  it("staff actions carry the staff member's short name, never an id", async () => {
    const org = school.organizator.session.headers;
    for (const pause of [true, false])
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/exam/test/examwork/pause',
            headers: org,
            payload: { pause, examWorkIds: [workId], reason: 'проверка' },
          })
        ).statusCode,
      ).toBe(200);
    const events = await log();
    const staff = events.filter((e) => e.actor === 'staff');
    expect(staff.map((e) => e.kind)).toEqual(['session_cleared', 'paused', 'resumed']);
    for (const e of staff) expect(e.actorName).toBe('Иванов И. И.');
    expect(JSON.stringify(events)).not.toContain(`"${school.organizator.user.id}"`);
  });

  it('the protocol lists the lost connection and the second device, and who paused and resumed by name', async () => {
    const res = await asOrg(
      `/api/reports/diagnostic/protocol?diagnosticId=${room.diagnosticId}&classId=${school.classId}&format=json`,
    );
    expect(res.statusCode).toBe(200);
    const sitting = res.json<{
      sittings: {
        incidents: { kind: string; count: number; participantName: string }[];
        pauses: { by: string | null; resumedBy?: string | null; byStaff: boolean }[];
      }[];
    }>().sittings[0]!;
    const kinds = sitting.incidents.map((i) => i.kind);
    expect(kinds).toContain('connection_lost');
    expect(kinds).toContain('second_device');
    expect(sitting.incidents.find((i) => i.kind === 'second_device')).toMatchObject({ count: 1 });
    expect(sitting.pauses).toEqual([
      expect.objectContaining({
        byStaff: true,
        by: 'Иванов Иван Иванович',
        resumedBy: 'Иванов Иван Иванович',
      }),
    ]);
    const pdf = await asOrg(
      `/api/reports/diagnostic/protocol?diagnosticId=${room.diagnosticId}&classId=${school.classId}&format=pdf`,
    );
    expect(pdf.statusCode).toBe(200);
  });
});
