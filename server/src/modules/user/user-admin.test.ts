import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserDetails, UserListItem } from '@attesta/contract';
import { verifyPassword } from '../../lib/password.js';
import {
  createOrg,
  createTestApp,
  createUser,
  sessionFor,
  signedIn,
  unique,
  type OrgFixture,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let admin: Session;
let adminId: number;
let org: OrgFixture;

beforeAll(async () => {
  t = await createTestApp();
  const signed = await signedIn(t.app, ['admin']);
  admin = signed.session;
  adminId = signed.user.id;
  org = await createOrg(t.app);
});
afterAll(async () => t.close());

type Method = 'GET' | 'POST' | 'PUT';
const call = (
  method: Method,
  url: string,
  headers: Record<string, string> = admin.headers,
  payload?: unknown,
) => t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

/** Everything about users that a failed call must leave untouched. */
const snapshot = async () => ({
  users: await t.database.query('select * from users order by id'),
  roles: await t.database.query('select * from user_roles order by user_id, role'),
  audit: await t.database.query('select count(*)::int as n from audit_events'),
});

const liveSessions = async (userId: number) =>
  (
    await t.database.query<{ n: number }>(
      'select count(*)::int as n from sessions where user_id = $1 and revoked_at is null',
      [userId],
    )
  )[0]!.n;

const ADMIN_CALLS: [Method, string, unknown?][] = [
  ['GET', '/api/user/roles'],
  ['GET', '/api/user/1'],
  ['POST', '/api/user/list', { page: 1, pageSize: 10 }],
  ['POST', '/api/User', { login: 'nobody' }],
  ['POST', '/api/user/1/changepassword', { password: 'long enough pw' }],
];

describe('admin user calls: access', () => {
  it.each(ADMIN_CALLS)('%s %s answers 401 without a session', async (method, url, body) => {
    const res = await call(method, url, { 'x-requested-with': 'XMLHttpRequest' }, body);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it.each(ADMIN_CALLS)('%s %s answers 403 to a non-admin', async (method, url, body) => {
    const { session } = await signedIn(t.app, ['coordinator', 'expert']);
    const res = await call(method, url, session.headers, body);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'forbidden' });
  });

  it.each(ADMIN_CALLS.filter(([m]) => m !== 'GET'))(
    '%s %s answers 403 csrf to a cookie without X-Requested-With',
    async (method, url, body) => {
      const before = await snapshot();
      const res = await call(method, url, { cookie: admin.cookie }, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'csrf' });
      expect(await snapshot()).toEqual(before);
    },
  );
});

describe('GET /api/user/roles', () => {
  it('lists every role of the catalogue', async () => {
    const res = await call('GET', '/api/user/roles');
    expect(res.statusCode).toBe(200);
    const roles = res.json() as { code: string; nameRu: string; nameEn: string }[];
    expect(roles.map((r) => r.code).sort()).toEqual(
      [
        'admin',
        'coordinator',
        'expert',
        'guest',
        'integration',
        'organizator',
        'participant',
        'ugnik',
      ].sort(),
    );
    expect(roles.find((r) => r.code === 'admin')).toEqual({
      code: 'admin',
      nameRu: expect.any(String),
      nameEn: expect.any(String),
    });
  });
});

describe('GET /api/user/{id}', () => {
  it('answers one user with roles and school, without the password hash', async () => {
    const u = await createUser(t.app, { roles: ['organizator', 'coordinator'], schoolId: org.schoolId });
    const res = await call('GET', `/api/user/${u.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as UserDetails;
    expect(body).toMatchObject({
      id: u.id,
      login: u.login,
      email: `${u.login}@example.test`,
      displayName: 'Тестов Тест',
      roles: ['coordinator', 'organizator'],
      schoolId: org.schoolId,
      schoolName: expect.stringContaining('Школа'),
      isBlocked: false,
      emailConfirmed: true,
      hasPassword: true,
    });
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
    expect(res.body).not.toMatch(/passwordHash|scrypt/);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await call('GET', '/api/user/999999');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });

  it.each(['0', '-1', '1.5', 'abc', '99999999999'])('answers 400 for the id %s', async (id) => {
    const res = await call('GET', `/api/user/${id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('routes the fixed paths before the id, whatever their case', async () => {
    const res = await call('GET', '/api/USER/Roles');
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json())).toBe(true);
  });
});

describe('POST /api/user/list', () => {
  let listOrg: OrgFixture;
  const tag = unique('lst');
  beforeAll(async () => {
    listOrg = await createOrg(t.app);
    for (const [i, roles] of [['expert'], ['expert', 'organizator'], ['coordinator']].entries()) {
      await createUser(t.app, {
        roles: roles as ('expert' | 'organizator' | 'coordinator')[],
        login: `${tag}_${i}`,
        schoolId: listOrg.schoolId,
        blocked: i === 2,
      });
    }
  });
  const list = (body: unknown) => call('POST', '/api/user/list', admin.headers, body);

  it('filters by school and pages with a total', async () => {
    const res = await list({
      page: 1,
      pageSize: 2,
      filter: { schoolId: listOrg.schoolId },
      sort: { field: 'login' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { items: UserListItem[]; total: number };
    expect(body.total).toBe(3);
    expect(body.items.map((u) => u.login)).toEqual([`${tag}_0`, `${tag}_1`]);
    expect(body.items[1]!.roles).toEqual(['expert', 'organizator']);
    expect(body.items[0]!.schoolName).toEqual(expect.any(String));
    const page2 = (
      await list({ page: 2, pageSize: 2, filter: { schoolId: listOrg.schoolId }, sort: { field: 'login' } })
    ).json();
    expect(page2.items.map((u: UserListItem) => u.login)).toEqual([`${tag}_2`]);
    expect(res.body).not.toMatch(/passwordHash|scrypt/);
  });

  it('filters by role, blocked and text (login or e-mail, case-insensitive)', async () => {
    const byRole = (
      await list({ page: 1, pageSize: 50, filter: { schoolId: listOrg.schoolId, role: 'expert' } })
    ).json();
    expect(byRole.items.map((u: UserListItem) => u.login).sort()).toEqual([`${tag}_0`, `${tag}_1`]);
    const blocked = (
      await list({ page: 1, pageSize: 50, filter: { schoolId: listOrg.schoolId, blocked: true } })
    ).json();
    expect(blocked.items.map((u: UserListItem) => u.login)).toEqual([`${tag}_2`]);
    const text = (await list({ page: 1, pageSize: 50, filter: { search: `${tag}_1@EXAMPLE` } })).json();
    expect(text.total).toBe(1);
    expect(text.items[0].login).toBe(`${tag}_1`);
  });

  it('treats LIKE wildcards in the search as plain text', async () => {
    const res = (await list({ page: 1, pageSize: 50, filter: { search: '%' } })).json();
    expect(res.total).toBe(0);
  });

  it('sorts descending by a whitelisted field', async () => {
    const res = (
      await list({
        page: 1,
        pageSize: 50,
        filter: { schoolId: listOrg.schoolId },
        sort: [{ field: 'id', dir: 'desc' }],
      })
    ).json();
    const ids = res.items.map((u: UserListItem) => u.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it.each([
    ['an unknown sort field', { page: 1, pageSize: 10, sort: { field: 'passwordHash' } }],
    ['an unknown filter', { page: 1, pageSize: 10, filter: { password: 'x' } }],
    ['an unknown field', { page: 1, pageSize: 10, extra: 1 }],
    ['a wrong type', { page: 'one', pageSize: 10 }],
    ['a page size over the limit', { page: 1, pageSize: 100000 }],
  ])('answers 400 for %s', async (_name, body) => {
    const res = await list(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('answers 400 malformed_json for a broken body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/list',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      payload: '{"page":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'malformed_json' });
  });
});

describe('POST /api/User', () => {
  const save = (body: unknown, query = '') => call('POST', `/api/User${query}`, admin.headers, body);

  it('creates a user with roles, school and a password, and audits it without the password', async () => {
    const login = unique('new');
    const res = await save(
      {
        login,
        email: `${login}@Example.test`,
        surname: 'Новикова',
        name: 'Анна',
        roles: ['coordinator'],
        schoolId: org.schoolId,
      },
      '?pwd=secret-password-1',
    );
    expect(res.statusCode).toBe(200);
    const user = res.json() as UserDetails;
    expect(user).toMatchObject({
      login,
      displayName: 'Новикова Анна',
      roles: ['coordinator'],
      schoolId: org.schoolId,
      isBlocked: false,
      hasPassword: true,
    });
    expect(res.body).not.toContain('secret-password-1');
    const [row] = await t.database.query<{ password_hash: string }>(
      'select password_hash from users where id = $1',
      [user.id],
    );
    expect(await verifyPassword('secret-password-1', row!.password_hash)).toBe(true);
    const [event] = await t.database.query<{ action: string; details: unknown; user_id: number }>(
      "select action, details, user_id from audit_events where entity = 'user' and entity_id = $1",
      [String(user.id)],
    );
    expect(event).toMatchObject({ action: 'user.create', user_id: adminId });
    expect(JSON.stringify(event!.details)).not.toMatch(/secret-password|scrypt/);
  });

  it('answers 409 login_taken / email_taken, case-insensitively, and creates nothing', async () => {
    const existing = await createUser(t.app, { roles: [] });
    const before = await snapshot();
    const byLogin = await save({ login: existing.login.toUpperCase() });
    expect(byLogin.statusCode).toBe(409);
    expect(byLogin.json()).toMatchObject({ code: 'login_taken' });
    const byEmail = await save({ login: unique('other'), email: `${existing.login}@EXAMPLE.test` });
    expect(byEmail.statusCode).toBe(409);
    expect(byEmail.json()).toMatchObject({ code: 'email_taken' });
    expect(await snapshot()).toEqual(before);
  });

  it('two concurrent creates of one login: one wins, the other answers 409', async () => {
    const login = unique('race');
    const statuses = (await Promise.all([save({ login }), save({ login: login.toUpperCase() })])).map(
      (r) => r.statusCode,
    );
    expect(statuses.sort()).toEqual([200, 409]);
  });

  it.each([
    ['an unknown role', { login: 'x1', roles: ['superuser'] }],
    ['an unknown school', { login: 'x2', schoolId: 999999 }],
    ['an unknown oo', { login: 'x3', ooId: 999999 }],
    ['a missing login on create', { surname: 'Без логина' }],
    ['an unknown field', { login: 'x4', passwordHash: 'scrypt$...' }],
    ['a wrong type', { login: 'x5', isBlocked: 'yes' }],
    ['a bad e-mail', { login: 'x6', email: 'not-an-email' }],
  ])('answers 400 for %s and changes nothing', async (_name, body) => {
    const before = await snapshot();
    const res = await save(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(await snapshot()).toEqual(before);
  });

  it('answers 400 for a too short pwd and changes nothing', async () => {
    const u = await createUser(t.app, { roles: [] });
    const before = await snapshot();
    const res = await save({ id: u.id, surname: 'Изменён' }, '?pwd=short');
    expect(res.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 404 when updating an unknown user', async () => {
    const res = await save({ id: 999999, surname: 'Никто' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });

  it('updates only the fields sent, and live sessions see the new roles at once', async () => {
    const u = await createUser(t.app, { roles: ['guest'], schoolId: org.schoolId });
    const session = await sessionFor(t.app, u.id);
    // Warm the session cache with the old roles.
    expect((await call('GET', '/api/user', session.headers)).json().roles).toEqual(['guest']);

    const res = await save({ id: u.id, name: 'Пётр', roles: ['expert', 'organizator', 'expert'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: u.id,
      login: u.login,
      surname: 'Тестов',
      name: 'Пётр',
      roles: ['expert', 'organizator'],
      schoolId: org.schoolId,
    });
    const me = (await call('GET', '/api/user', session.headers)).json();
    expect(me).toMatchObject({ roles: ['expert', 'organizator'], displayName: 'Тестов Пётр' });
    const [event] = await t.database.query<{ details: { changes: Record<string, unknown> } }>(
      "select details from audit_events where action = 'user.update' and entity_id = $1",
      [String(u.id)],
    );
    expect(event!.details.changes).toEqual({
      name: { from: 'Тест', to: 'Пётр' },
      roles: { from: ['guest'], to: ['expert', 'organizator'] },
    });
  });

  it('blocking a user ends their sessions', async () => {
    const u = await createUser(t.app, { roles: ['expert'] });
    const session = await sessionFor(t.app, u.id);
    expect((await call('GET', '/api/user', session.headers)).statusCode).toBe(200);
    const res = await save({ id: u.id, isBlocked: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ isBlocked: true });
    expect(await liveSessions(u.id)).toBe(0);
    expect((await call('GET', '/api/user', session.headers)).statusCode).toBe(401);
  });

  it('pwd on update sets the password and ends the user’s sessions', async () => {
    const u = await createUser(t.app, { roles: ['expert'] });
    await sessionFor(t.app, u.id);
    const res = await save({ id: u.id }, '?pwd=brand-new-password');
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.query<{ password_hash: string }>(
      'select password_hash from users where id = $1',
      [u.id],
    );
    expect(await verifyPassword('brand-new-password', row!.password_hash)).toBe(true);
    expect(await liveSessions(u.id)).toBe(0);
  });

  it('an e-mail change of another user is checked for uniqueness too', async () => {
    const a = await createUser(t.app, { roles: [] });
    const b = await createUser(t.app, { roles: [] });
    const res = await save({ id: b.id, email: `${a.login}@example.test` });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'email_taken' });
  });

  it('refuses to let an admin block themselves or drop their own admin role', async () => {
    const before = await snapshot();
    const block = await save({ id: adminId, isBlocked: true });
    expect(block.statusCode).toBe(409);
    expect(block.json()).toMatchObject({ code: 'self_lockout' });
    const demote = await save({ id: adminId, roles: ['expert'] });
    expect(demote.statusCode).toBe(409);
    expect(await snapshot()).toEqual(before);
  });
});

describe('POST /api/user/{id}/changepassword', () => {
  const change = (id: number | string, body: unknown, headers = admin.headers) =>
    call('POST', `/api/user/${id}/changepassword`, headers, body);

  it('sets the password, ends the user’s sessions and audits', async () => {
    const u = await createUser(t.app, { roles: ['coordinator'] });
    const session = await sessionFor(t.app, u.id);
    const res = await change(u.id, { password: 'another long password' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const [row] = await t.database.query<{ password_hash: string }>(
      'select password_hash from users where id = $1',
      [u.id],
    );
    expect(await verifyPassword('another long password', row!.password_hash)).toBe(true);
    expect((await call('GET', '/api/user', session.headers)).statusCode).toBe(401);
    const events = await t.database.query(
      "select 1 from audit_events where action = 'user.password_set' and entity_id = $1",
      [String(u.id)],
    );
    expect(events).toHaveLength(1);
  });

  it('does not end the admin’s own session when they set their own password', async () => {
    const res = await change(adminId, { password: 'admins own new pw' });
    expect(res.statusCode).toBe(200);
    expect((await call('GET', '/api/user')).statusCode).toBe(200);
  });

  it('answers 404 for an unknown user', async () => {
    const res = await change(999999, { password: 'long enough pw' });
    expect(res.statusCode).toBe(404);
  });

  it.each([
    ['a short password', { password: 'short' }],
    ['a missing password', {}],
    ['an unknown field', { password: 'long enough pw', userId: 1 }],
    ['a wrong type', { password: 12345678 }],
  ])('answers 400 for %s and changes nothing', async (_name, body) => {
    const u = await createUser(t.app, { roles: [] });
    const before = await snapshot();
    const res = await change(u.id, body);
    expect(res.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});
