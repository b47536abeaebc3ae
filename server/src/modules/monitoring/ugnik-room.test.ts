import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areas, schools, users } from '../../db/schema/index.js';
import {
  createSchoolWithStaff,
  createTestApp,
  signedInScoped,
  unique,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { createRoom, startWork, type Room } from '../exam-test/test-support.js';

/* The ugnik watches the rooms of its area's schools read-only (docs/ugnik.md); it acts on none. */

let t: TestApp;
let room: Room;
let otherRoom: Room;
let ugnik: Session;
let workId: number;

async function newArea(): Promise<number> {
  const [a] = await t.app.ctx.db
    .insert(areas)
    .values({ name: unique('Район ') })
    .returning({ id: areas.id });
  return a!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  const area = await newArea();
  const otherArea = await newArea();
  const school = await createSchoolWithStaff(t.app);
  const otherSchool = await createSchoolWithStaff(t.app);
  await t.app.ctx.db.update(schools).set({ areaId: area }).where(eq(schools.id, school.schoolId));
  await t.app.ctx.db.update(schools).set({ areaId: otherArea }).where(eq(schools.id, otherSchool.schoolId));
  room = await createRoom(t.app, school);
  otherRoom = await createRoom(t.app, otherSchool);
  workId = await startWork(room);
  const signed = await signedInScoped(t.app, ['ugnik']);
  await t.app.ctx.db.update(users).set({ areaId: area }).where(eq(users.id, signed.user.id));
  ugnik = signed.session;
});
afterAll(async () => t?.close());

const get = (url: string, session: Session) => t.app.inject({ method: 'GET', url, headers: session.headers });
const roomUrl = (r: Room) => `/api/monitoring/room?diagnosticId=${r.diagnosticId}&classId=${r.org.classId}`;

describe("the ugnik in its area's rooms", () => {
  it('reads the room and a sitting’s event log of a school of its area (200)', async () => {
    const res = await get(roomUrl(room), ugnik);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().participants.map((p: { participantTestId: number }) => p.participantTestId)).toContain(
      room.participantTestId,
    );
    const events = await get(`/api/monitoring/participantTest/${room.participantTestId}/events`, ugnik);
    expect(events.statusCode, events.body).toBe(200);
  });

  it('never receives the sittings’ activation or registration codes (credentials); room staff do', async () => {
    type Row = { participantTestId: number; activationCode: string | null; registrationCode: string | null };
    const own = (res: { json: () => { participants: Row[] } }) =>
      res.json().participants.find((p) => p.participantTestId === room.participantTestId)!;
    const seen = own(await get(roomUrl(room), ugnik));
    expect(seen.activationCode).toBeNull();
    expect(seen.registrationCode).toBeNull();
    const { session: admin } = await signedInScoped(t.app, ['admin']);
    expect(own(await get(roomUrl(room), admin)).activationCode).toBe(room.activationCode);
  });

  it('is refused the rooms of another area’s school (403), and an ugnik of no area every room', async () => {
    expect((await get(roomUrl(otherRoom), ugnik)).statusCode).toBe(403);
    expect((await get(`${roomUrl(otherRoom).replace('room?', 'room/stream?')}`, ugnik)).statusCode).toBe(403);
    expect(
      (await get(`/api/monitoring/participantTest/${otherRoom.participantTestId}/events`, ugnik)).statusCode,
    ).toBe(403);
    const unbound = (await signedInScoped(t.app, ['ugnik'])).session;
    expect((await get(roomUrl(room), unbound)).statusCode).toBe(403);
  });

  it('is refused every room action (403), even in its area', async () => {
    const actions = [
      {
        method: 'POST' as const,
        url: '/api/exam/test/examwork/pause',
        payload: { pause: true, examWorkIds: [workId], reason: 'Проверка' },
      },
      {
        method: 'GET' as const,
        url: `/api/exam/test/examwork/ChangeTimeTill?ids=${workId}&timeSpan=00:10:00`,
      },
      {
        method: 'POST' as const,
        url: `/api/monitoring/participantTest/${room.participantTestId}/message`,
        payload: { text: 'Здравствуйте' },
      },
      { method: 'GET' as const, url: `/api/ParticipantTest/clearSession/${room.participantTestId}` },
    ];
    for (const a of actions) {
      const res = await t.app.inject({ ...a, headers: ugnik.headers });
      expect(res.statusCode, `${a.url}: ${res.body}`).toBe(403);
    }
    const [state] = (await get(roomUrl(room), ugnik)).json().participants;
    expect(state.status).toBe('in_progress');
  });
});
