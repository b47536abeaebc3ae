import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExamWork,
  createParticipantTest,
  createSchoolWithStaff,
  createTestApp,
  createVariantWithTasks,
  guardResults,
  signedIn,
  signedInParticipant,
  type SchoolWithStaff,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let a: SchoolWithStaff;
let b: SchoolWithStaff;
let expert: Session;

const clear = (session: Session, id: number, query = '') =>
  t.app.inject({
    method: 'GET',
    url: `/api/ParticipantTest/clearSession/${id}${query}`,
    headers: session.headers,
  });
const deviceOf = async (workId: number) =>
  (
    await t.database.query<{ device_id: string | null }>('select device_id from exam_works where id = $1', [
      workId,
    ])
  )[0]!.device_id;

async function boundWork() {
  const pt = await createParticipantTest(t.app, a);
  const variant = await createVariantWithTasks(t.app, pt.subjectTestId, [{ answerType: 'short_text' }]);
  const workId = await createExamWork(t.app, pt.participantTestId, variant.variantId);
  await t.database.query(`update exam_works set device_id = 'tablet-1' where id = $1`, [workId]);
  const participant = await signedInParticipant(t.app, pt);
  return { pt, workId, participant: participant.session };
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createSchoolWithStaff(t.app);
  b = await createSchoolWithStaff(t.app);
  expert = (await signedIn(t.app, ['expert'])).session;
});
afterAll(async () => t.close());

describe('GET /api/ParticipantTest/clearSession/{id}', () => {
  it('guards: 401, 403 role, 403 csrf (a state-changing GET); refused calls change nothing', async () => {
    const { pt, workId, participant } = await boundWork();
    const r = await guardResults(
      t.app,
      { method: 'GET', url: `/api/ParticipantTest/clearSession/${pt.participantTestId}` },
      { allowed: a.organizator.session, wrongRole: expert },
    );
    expect(r).toEqual({ anonymous: 401, wrongRole: 403, noCsrf: 'csrf' });
    expect((await clear(b.coordinator.session, pt.participantTestId)).statusCode).toBe(403);
    expect((await clear(b.organizator.session, pt.participantTestId)).statusCode).toBe(403);
    expect((await clear(a.coordinator.session, 99_999_999)).statusCode).toBe(404);
    expect(
      (await clear(a.coordinator.session, pt.participantTestId, `?reason=${'x'.repeat(501)}`)).statusCode,
    ).toBe(400);
    expect(await deviceOf(workId)).toBe('tablet-1');
    const still = await t.app.inject({ method: 'GET', url: '/api/user', headers: participant.headers });
    expect(still.statusCode).toBe(200);
  });

  it('frees the device and ends the bound sessions, audited with the reason', async () => {
    const { pt, workId, participant } = await boundWork();
    const res = await clear(a.organizator.session, pt.participantTestId, '?reason=Сломался%20планшет');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      participantTestId: pt.participantTestId,
      examWorkId: workId,
      sessionsEnded: 1,
    });
    expect(await deviceOf(workId)).toBeNull();
    const ended = await t.app.inject({ method: 'GET', url: '/api/user', headers: participant.headers });
    expect(ended.statusCode).toBe(401);
    const [event] = await t.database.query<{ reason: string; details: { deviceId: string } }>(
      `select reason, details from audit_events where action = 'participant_test.clear_session' and entity_id = $1`,
      [String(pt.participantTestId)],
    );
    expect(event).toEqual({
      reason: 'Сломался планшет',
      details: { examWorkId: workId, deviceId: 'tablet-1' },
    });
    // Without a work it still ends sessions, and the admin reaches any school.
    const fresh = await createParticipantTest(t.app, b);
    const admin = (await signedIn(t.app, ['admin'])).session;
    expect((await clear(admin, fresh.participantTestId)).json()).toMatchObject({
      examWorkId: null,
      sessionsEnded: 0,
    });
  });
});
