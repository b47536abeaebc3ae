import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { areas, auditEvents, diagnosticSchools, schools, users } from '../../db/schema/index.js';
import {
  createOrg,
  createParticipantTest,
  createTestApp,
  signedIn,
  type OrgFixture,
  type TestApp,
} from '../../../test/helpers.js';

/* Areas: the admin's list and form fields, and the ugnik's read-only view of its area's school diagnostics. */

describe('areas and the ugnik view of its area', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  let ugnik: Awaited<ReturnType<typeof signedIn>>;
  let north: number;
  let south: number;
  let inNorth: OrgFixture;
  let inSouth: OrgFixture;
  let northDiagnostic: number;
  let southDiagnostic: number;

  const get = (url: string, headers?: Record<string, string>) =>
    t.app.inject({ method: 'GET', url, ...(headers ? { headers } : {}) });

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.app.ctx.db;
    admin = await signedIn(t.app, ['admin']);
    [{ id: north }, { id: south }] = (await db
      .insert(areas)
      .values([{ name: 'Северный округ' }, { name: 'Южный округ' }])
      .returning({ id: areas.id })) as [{ id: number }, { id: number }];
    inNorth = await createOrg(t.app, 'Школа № 1 Северная');
    inSouth = await createOrg(t.app, 'Школа № 2 Южная');
    await db.update(schools).set({ areaId: north }).where(eq(schools.id, inNorth.schoolId));
    await db.update(schools).set({ areaId: south }).where(eq(schools.id, inSouth.schoolId));
    const a = await createParticipantTest(t.app, inNorth);
    const b = await createParticipantTest(t.app, inSouth);
    northDiagnostic = a.diagnosticId;
    southDiagnostic = b.diagnosticId;
    await db.insert(diagnosticSchools).values([
      { diagnosticId: a.diagnosticId, schoolId: inNorth.schoolId },
      { diagnosticId: b.diagnosticId, schoolId: inSouth.schoolId },
    ]);
    ugnik = await signedIn(t.app, ['ugnik']);
    await db.update(users).set({ areaId: north }).where(eq(users.id, ugnik.user.id));
  });
  afterAll(async () => t?.close());

  it('the ugnik lists the school diagnostics of its area only, with state, school and counts', async () => {
    const res = await get('/api/ugnik/area/diagnostics', ugnik.session.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ area: { id: number; name: string }; items: Record<string, unknown>[] }>();
    expect(body.area).toEqual({ id: north, name: 'Северный округ' });
    expect(body.items).toEqual([
      expect.objectContaining({
        diagnosticId: northDiagnostic,
        status: 'active',
        schoolId: inNorth.schoolId,
        participantCount: 1,
        finishedCount: 0,
      }),
    ]);
    const found = await get('/api/ugnik/area/diagnostics?search=Северная', ugnik.session.headers);
    expect(found.json<{ items: unknown[] }>().items).toHaveLength(1);
    const none = await get('/api/ugnik/area/diagnostics?search=Южная', ugnik.session.headers);
    expect(none.json<{ items: unknown[] }>().items).toHaveLength(0);
  });

  it("one diagnostic: its area's schools; 403 out_of_area for another area's, 404 for none, 400 for a bad id", async () => {
    const mine = await get(`/api/ugnik/area/diagnostic/${northDiagnostic}`, ugnik.session.headers);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      diagnosticId: northDiagnostic,
      schools: [{ schoolId: inNorth.schoolId, participantCount: 1 }],
    });
    const other = await get(`/api/ugnik/area/diagnostic/${southDiagnostic}`, ugnik.session.headers);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ code: 'out_of_area' });
    expect((await get('/api/ugnik/area/diagnostic/99999999', ugnik.session.headers)).statusCode).toBe(404);
    const bad = await get('/api/ugnik/area/diagnostic/abc', ugnik.session.headers);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('the ugnik reads its own area with the number of schools in it; one bound to none reads null', async () => {
    const res = await get('/api/ugnik/area', ugnik.session.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ area: { id: north, name: 'Северный округ', schoolCount: 1 } });
    const lone = await signedIn(t.app, ['ugnik']);
    expect((await get('/api/ugnik/area', lone.session.headers)).json()).toEqual({ area: null });
    expect((await get('/api/ugnik/area')).statusCode).toBe(401);
    const coordinator = await signedIn(t.app, ['coordinator'], { schoolId: inNorth.schoolId });
    for (const other of [admin, coordinator])
      expect((await get('/api/ugnik/area', other.session.headers)).statusCode).toBe(403);
  });

  it('an ugnik bound to no area sees nothing and may open no diagnostic', async () => {
    const lone = await signedIn(t.app, ['ugnik']);
    const res = await get('/api/ugnik/area/diagnostics', lone.session.headers);
    expect(res.json()).toEqual({ area: null, items: [] });
    expect(
      (await get(`/api/ugnik/area/diagnostic/${northDiagnostic}`, lone.session.headers)).statusCode,
    ).toBe(403);
  });

  it('401 without a session, 403 for other roles', async () => {
    expect((await get('/api/ugnik/area/diagnostics')).statusCode).toBe(401);
    expect((await get(`/api/ugnik/area/diagnostic/${northDiagnostic}`)).statusCode).toBe(401);
    expect((await get('/api/admin/areas')).statusCode).toBe(401);
    const coordinator = await signedIn(t.app, ['coordinator'], { schoolId: inNorth.schoolId });
    expect((await get('/api/ugnik/area/diagnostics', coordinator.session.headers)).statusCode).toBe(403);
    expect((await get('/api/ugnik/area/diagnostics', admin.session.headers)).statusCode).toBe(403);
    expect((await get('/api/admin/areas', ugnik.session.headers)).statusCode).toBe(403);
    const create = await t.app.inject({
      method: 'POST',
      url: '/api/admin/areas',
      headers: ugnik.session.headers,
      payload: { name: 'Западный' },
    });
    expect(create.statusCode).toBe(403);
  });

  it('the admin lists and creates areas (audited, 409 for a taken name, 400 for an empty one)', async () => {
    const list = await get('/api/admin/areas', admin.session.headers);
    expect(list.statusCode).toBe(200);
    expect(list.json<{ items: { name: string; schoolCount: number }[] }>().items).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Северный округ', schoolCount: 1 })]),
    );
    const post = (name: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/areas',
        headers: admin.session.headers,
        payload: { name },
      });
    const created = await post('  Западный округ ');
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ name: 'Западный округ', schoolCount: 0 });
    const [row] = await t.app.ctx.db.select().from(auditEvents).where(eq(auditEvents.action, 'area.create'));
    expect(row).toMatchObject({ userId: admin.user.id, entity: 'area' });
    expect((await post('западный округ')).json()).toMatchObject({ code: 'area_name_taken' });
    expect((await post('   ')).statusCode).toBe(400);
  });

  it("the admin sets a school's area and an ugnik's area; an unknown area is refused", async () => {
    const school = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/schools/${inSouth.schoolId}`,
      headers: admin.session.headers,
      payload: { ooId: inSouth.ooId, name: 'Школа № 2 Южная', areaId: north },
    });
    expect(school.statusCode).toBe(200);
    expect(school.json()).toMatchObject({ areaId: north, areaName: 'Северный округ' });
    const unknown = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/schools/${inSouth.schoolId}`,
      headers: admin.session.headers,
      payload: { ooId: inSouth.ooId, name: 'Школа № 2 Южная', areaId: 99999999 },
    });
    expect(unknown.statusCode).toBe(400);
    // Now in the north, the southern school's diagnostic is the ugnik's to see.
    expect(
      (await get(`/api/ugnik/area/diagnostic/${southDiagnostic}`, ugnik.session.headers)).statusCode,
    ).toBe(200);

    const user = await t.app.inject({
      method: 'POST',
      url: '/api/User',
      headers: admin.session.headers,
      payload: { id: ugnik.user.id, areaId: south },
    });
    expect(user.statusCode).toBe(200);
    const details = await get(`/api/user/${ugnik.user.id}`, admin.session.headers);
    expect(details.json()).toMatchObject({ areaId: south });
    const badUser = await t.app.inject({
      method: 'POST',
      url: '/api/User',
      headers: admin.session.headers,
      payload: { id: ugnik.user.id, areaId: 99999999 },
    });
    expect(badUser.statusCode).toBe(400);
  });
});
