import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type Session, type TestApp } from '../../../test/helpers.js';
import { createRoom } from './test-support.js';

// A subject test allows the runner's calculator or not (docs/accommodations.md): off unless the
// admin turns it on; the participant's summary of the test says which.

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, ['admin'])).session;
});
afterAll(async () => t.close());

const subjectTestUrl = (id: number) => `/api/admin/content/subjectTests/${id}`;

describe('allowCalculator of a subject test', () => {
  it('is off by default, set by the admin and seen by the participant', async () => {
    const room = await createRoom(t.app);
    const summary = async () => (await room.api.get('examwork/participantTest/subjecttest')).json();
    expect(await summary()).toMatchObject({ allowCalculator: false });

    const current = (
      await t.app.inject({ method: 'GET', url: subjectTestUrl(room.subjectTestId), headers: admin.headers })
    ).json();
    expect(current.allowCalculator).toBe(false);
    const put = (payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: subjectTestUrl(room.subjectTestId),
        headers: admin.headers,
        payload,
      });
    const base = {
      subjectExamId: current.subjectExamId,
      name: current.name,
      parallels: current.parallels,
      durationMinutes: current.durationMinutes,
    };
    expect((await put({ ...base, allowCalculator: 'yes' })).statusCode).toBe(400);
    const res = await put({ ...base, allowCalculator: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().allowCalculator).toBe(true);
    expect(await summary()).toMatchObject({ allowCalculator: true });
    // Absent: unchanged.
    expect((await put(base)).json().allowCalculator).toBe(true);
  });
});
