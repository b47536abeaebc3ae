import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, guardResults, signedIn, type Session, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
let guest: { user: { id: number; login: string }; session: Session };
let expert: Session;

const get = (session: Session) =>
  t.app.inject({ method: 'GET', url: '/api/Profile/guest/get', headers: session.headers });
const save = (session: Session, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/api/Profile/guest/saveProfile', headers: session.headers, payload });

beforeAll(async () => {
  t = await createTestApp();
  guest = await signedIn(t.app, ['guest']);
  expert = (await signedIn(t.app, ['expert'])).session;
  await t.database.query(`update users set profile = '{"parallel": 7, "other": "kept"}' where id = $1`, [
    guest.user.id,
  ]);
});
afterAll(async () => t.close());

describe('/api/Profile/guest', () => {
  it('guards: 401, 403 role, 403 csrf on save', async () => {
    expect(
      await guardResults(
        t.app,
        { method: 'GET', url: '/api/Profile/guest/get' },
        { allowed: guest.session, wrongRole: expert },
      ),
    ).toEqual({
      anonymous: 401,
      wrongRole: 403,
      noCsrf: 200,
    });
    expect(
      await guardResults(
        t.app,
        { method: 'PUT', url: '/api/Profile/guest/saveProfile', payload: { surname: 'А', name: 'Б' } },
        { allowed: guest.session, wrongRole: expert },
      ),
    ).toEqual({ anonymous: 401, wrongRole: 403, noCsrf: 'csrf' });
    expect((await get(guest.session)).json().surname).toBe('Тестов');
  });

  it('answers and saves the own profile, keeping other profile keys', async () => {
    expect((await get(guest.session)).json()).toEqual({
      login: guest.user.login,
      email: `${guest.user.login}@example.test`,
      surname: 'Тестов',
      name: 'Тест',
      patronymic: null,
      parallel: 7,
      schoolName: null,
      city: null,
    });
    const res = await save(guest.session, {
      surname: ' Орлова ',
      name: 'Вера',
      patronymic: 'Павловна',
      parallel: 9,
      schoolName: 'Лицей № 2',
      city: 'Казань',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      surname: 'Орлова',
      parallel: 9,
      schoolName: 'Лицей № 2',
      city: 'Казань',
    });
    expect((await get(guest.session)).json()).toEqual(res.json());
    const [row] = await t.database.query<{ profile: Record<string, unknown>; surname: string }>(
      'select profile, surname from users where id = $1',
      [guest.user.id],
    );
    expect(row).toEqual({
      surname: 'Орлова',
      profile: { parallel: 9, schoolName: 'Лицей № 2', city: 'Казань', other: 'kept' },
    });
    const cleared = await save(guest.session, { surname: 'Орлова', name: 'Вера', city: '' });
    expect(cleared.json()).toMatchObject({ patronymic: null, parallel: null, schoolName: null, city: null });
    const [audits] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from audit_events where action = 'profile.guest.save' and user_id = $1`,
      [guest.user.id],
    );
    expect(audits!.n).toBe(2);
    // The new name reaches the session at once.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user', headers: guest.session.headers })).json()
        .displayName,
    ).toContain('Орлова');
  });

  it('bad input changes nothing', async () => {
    const before = (await get(guest.session)).json();
    for (const payload of [
      { name: 'Вера' },
      { surname: 'А', name: 'Б', parallel: 12 },
      { surname: 'А', name: 'Б', email: 'x@y.z' },
      { surname: 'А', name: 'Б', city: 'x'.repeat(101) },
      { surname: '  ', name: 'Б' },
    ])
      expect((await save(guest.session, payload)).statusCode).toBe(400);
    expect((await get(guest.session)).json()).toEqual(before);
  });
});
