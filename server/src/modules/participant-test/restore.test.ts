import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExamWork,
  createParticipantTest,
  createSchoolWithStaff,
  createTestApp,
  createVariantWithTasks,
  guardResults,
  signedIn,
  type SchoolWithStaff,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let a: SchoolWithStaff;
let b: SchoolWithStaff;
let expert: Session;

const restore = (session: Session, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: '/api/ParticipantTest/RestoreExamWork',
    headers: session.headers,
    payload,
  });
const deletedAt = async (id: number) =>
  (
    await t.database.query<{ deleted_at: Date | null }>('select deleted_at from exam_works where id = $1', [
      id,
    ])
  )[0]!.deleted_at;

async function deletedWork() {
  const pt = await createParticipantTest(t.app, a);
  const variant = await createVariantWithTasks(t.app, pt.subjectTestId, [{ answerType: 'short_text' }]);
  const workId = await createExamWork(t.app, pt.participantTestId, variant.variantId, { deleted: true });
  await t.database.query(`update exam_works set deleted_reason = 'Ошибочный вход' where id = $1`, [workId]);
  return { pt, variant, workId };
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createSchoolWithStaff(t.app);
  b = await createSchoolWithStaff(t.app);
  expert = (await signedIn(t.app, ['expert'])).session;
});
afterAll(async () => t.close());

describe('POST /api/ParticipantTest/RestoreExamWork', () => {
  it('guards: 401, 403 role, 403 csrf; scope 403; unknown 404; bad body 400 — nothing restored', async () => {
    const { workId } = await deletedWork();
    const r = await guardResults(
      t.app,
      { method: 'POST', url: '/api/ParticipantTest/RestoreExamWork', payload: { examWorkId: workId } },
      { allowed: a.coordinator.session, wrongRole: expert },
    );
    expect(r).toEqual({ anonymous: 401, wrongRole: 403, noCsrf: 'csrf' });
    expect((await restore(b.coordinator.session, { examWorkId: workId })).statusCode).toBe(403);
    expect((await restore(b.organizator.session, { examWorkId: workId })).statusCode).toBe(403);
    expect((await restore(a.coordinator.session, { examWorkId: 99_999_999 })).statusCode).toBe(404);
    expect((await restore(a.coordinator.session, { examWorkId: 'x' })).statusCode).toBe(400);
    expect((await restore(a.coordinator.session, { examWorkId: workId, extra: 1 })).statusCode).toBe(400);
    expect(await deletedAt(workId)).not.toBeNull();
  });

  it('round trip: a deleted work comes back live, audited; a live one is 409 not_deleted', async () => {
    const { pt, workId } = await deletedWork();
    const res = await restore(a.organizator.session, { examWorkId: workId, reason: 'Удалили по ошибке' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      examWorkId: workId,
      participantTestId: pt.participantTestId,
      status: 'in_progress',
    });
    expect(await deletedAt(workId)).toBeNull();
    const [event] = await t.database.query<{ reason: string; details: { deletedReason: string } }>(
      `select reason, details from audit_events where action = 'exam_work.restore' and entity_id = $1`,
      [String(workId)],
    );
    expect(event!.reason).toBe('Удалили по ошибке');
    expect(event!.details.deletedReason).toBe('Ошибочный вход');
    const card = await t.app.inject({
      method: 'GET',
      url: `/api/ParticipantTest/info/${pt.participantTestId}`,
      headers: a.coordinator.session.headers,
    });
    expect(card.json()).toMatchObject({ examWork: { id: workId }, deletedExamWorks: [] });
    const again = await restore(a.coordinator.session, { examWorkId: workId });
    expect([again.statusCode, again.json().code]).toEqual([409, 'not_deleted']);
  });

  it('409 live_work_exists when the participant test has another live work', async () => {
    const { pt, variant, workId } = await deletedWork();
    const live = await createExamWork(t.app, pt.participantTestId, variant.variantId);
    const res = await restore(a.coordinator.session, { examWorkId: workId });
    expect([res.statusCode, res.json().code]).toEqual([409, 'live_work_exists']);
    expect(await deletedAt(workId)).not.toBeNull();
    expect(await deletedAt(live)).toBeNull();
  });
});
