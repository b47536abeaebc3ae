import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { NO_ACCOMMODATIONS } from '@attesta/contract';
import { students } from '../../db/schema/index.js';
import { createSchoolWithStaff, createTestApp, type TestApp } from '../../../test/helpers.js';
import { createRoom } from '../exam-test/test-support.js';

/* The room view's rows carry each student's accommodations profile, so the organizer sees who has which. */

describe("the room's accommodations column", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('a row has the profile of its student; none, or a profile that gives nothing, is null', async () => {
    const school = await createSchoolWithStaff(t.app);
    const first = await createRoom(t.app, school, 0);
    const second = await createRoom(t.app, school, 1);
    const profile = {
      ...NO_ACCOMMODATIONS,
      extraTimePercent: 50,
      largeText: true,
      theme: 'high_contrast' as const,
    };
    await t.app.ctx.db
      .update(students)
      .set({ accommodations: profile })
      .where(eq(students.id, school.studentIds[0]!));
    await t.app.ctx.db
      .update(students)
      .set({ accommodations: NO_ACCOMMODATIONS })
      .where(eq(students.id, school.studentIds[1]!));

    const rowsOf = async (diagnosticId: number) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/monitoring/room?diagnosticId=${diagnosticId}&classId=${school.classId}`,
        headers: school.organizator.session.headers,
      });
      expect(res.statusCode).toBe(200);
      const rows = res.json<{ participants: { participantTestId: number; accommodations: unknown }[] }>();
      return new Map(rows.participants.map((r) => [r.participantTestId, r.accommodations]));
    };
    expect((await rowsOf(first.diagnosticId)).get(first.participantTestId)).toEqual(profile);
    expect((await rowsOf(second.diagnosticId)).get(second.participantTestId)).toBeNull();
  });
});
