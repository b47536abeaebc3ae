import { count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizatorAssignments, participantTests, sessions, users } from '../../db/schema/index.js';
import { verifyPassword } from '../../lib/password.js';
import { sha256 } from '../../lib/tokens.js';
import {
  createOrg,
  createParticipantTest,
  createTestApp,
  createUser,
  login,
  sessionFor,
  signedIn,
  type OrgFixture,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let org: OrgFixture;
let otherOrg: OrgFixture;
beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t.app);
  otherOrg = await createOrg(t.app);
});
afterAll(async () => t.close());

function post(url: string, session: Session | null, payload?: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...(session?.headers ?? {}), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function isLive(session: Session): Promise<boolean> {
  const [row] = await t.app.ctx.db
    .select({ revokedAt: sessions.revokedAt })
    .from(sessions)
    .where(eq(sessions.id, sha256(session.token)));
  return !!row && row.revokedAt === null;
}

const liveSessions = async () =>
  (await t.app.ctx.db.select({ n: count() }).from(sessions).where(isNull(sessions.revokedAt)))[0]!.n;

/** A participant signed in with the code of a fresh participant test of `school`. */
async function participantSession(school: OrgFixture, extra: { userAgent?: string } = {}) {
  const pt = await createParticipantTest(t.app, school, { studentId: school.studentIds[2]! });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/Account/login',
    headers: {
      'x-requested-with': 'XMLHttpRequest',
      ...(extra.userAgent ? { 'user-agent': extra.userAgent } : {}),
    },
    payload: { activationCode: pt.activationCode },
  });
  expect(res.statusCode).toBe(200);
  const token = res.json().token as string;
  const cookie = `attesta_sid=${token}`;
  const session: Session = { cookie, token, headers: { cookie, 'x-requested-with': 'XMLHttpRequest' } };
  return { pt, session, userId: res.json().user.id as number, login: res.json().user.login as string };
}

describe('POST /api/Account/LogOff', () => {
  it('needs a session and the anti-CSRF header', async () => {
    expect((await post('/api/Account/LogOff', null)).statusCode).toBe(401);
    const { session } = await signedIn(t.app, ['expert']);
    const res = await post('/api/Account/LogOff', null, undefined, { cookie: session.cookie });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'csrf' });
    expect(await isLive(session)).toBe(true);
  });

  it('ends the session, clears the cookie and answers a safe redirect', async () => {
    const { session } = await signedIn(t.app, ['expert']);
    const res = await post('/api/Account/LogOff', session, { returnUrl: '/results?x=1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ redirectTo: '/results?x=1' });
    const cleared = res.cookies.find((c) => c.name === 'attesta_sid');
    expect(cleared?.value).toBe('');
    expect(await isLive(session)).toBe(false);
    expect((await post('/api/Account/LogOff', session)).statusCode).toBe(401);
  });

  it.each([
    '//evil.example/x',
    'https://evil.example/',
    '/\\evil.example',
    'javascript:alert(1)',
    'relative',
  ])('never redirects off the site (%s)', async (returnUrl) => {
    const { session } = await signedIn(t.app, ['expert']);
    const res = await post('/api/Account/LogOff', session, { returnUrl });
    expect(res.json()).toEqual({ redirectTo: null });
  });

  it('answers null without a return address', async () => {
    const { session } = await signedIn(t.app, ['expert']);
    expect((await post('/api/Account/LogOff', session)).json()).toEqual({ redirectTo: null });
  });

  it('refuses unknown fields and wrong types, keeping the session', async () => {
    const { session } = await signedIn(t.app, ['expert']);
    for (const payload of [{ returnUrl: 5 }, { returnUrl: '/', other: 1 }]) {
      const res = await post('/api/Account/LogOff', session, payload);
      expect(res.statusCode).toBe(400);
    }
    expect(await isLive(session)).toBe(true);
  });
});

describe('POST /api/Account/ChangePassword', () => {
  const url = '/api/Account/ChangePassword';

  it('needs a session and the anti-CSRF header', async () => {
    expect((await post(url, null, { oldPassword: 'a', newPassword: 'bbbbbbbb' })).statusCode).toBe(401);
    const { session } = await signedIn(t.app, ['expert']);
    const res = await post(
      url,
      null,
      { oldPassword: 'a', newPassword: 'bbbbbbbb' },
      { cookie: session.cookie },
    );
    expect(res.json()).toMatchObject({ status: 403, code: 'csrf' });
  });

  it('changes the password and ends every other session of the user', async () => {
    const user = await createUser(t.app, { roles: ['coordinator'] });
    const current = await login(t.app, user);
    const other = await login(t.app, user);
    const res = await post(url, current, { oldPassword: user.password, newPassword: 'a brand new secret' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await isLive(current)).toBe(true);
    expect(await isLive(other)).toBe(false);
    const [row] = await t.app.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(await verifyPassword('a brand new secret', row!.passwordHash)).toBe(true);
  });

  it('refuses a wrong old password with a field error, changing nothing', async () => {
    const user = await createUser(t.app, { roles: ['expert'] });
    const session = await login(t.app, user);
    const other = await login(t.app, user);
    const [before] = await t.app.ctx.db.select().from(users).where(eq(users.id, user.id));
    const res = await post(url, session, { oldPassword: 'wrong one', newPassword: 'a brand new secret' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'wrong_password', errors: [{ path: 'body.oldPassword' }] });
    const [after] = await t.app.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.passwordHash).toBe(before!.passwordHash);
    expect(await isLive(other)).toBe(true);
  });

  it('refuses the same password again and a too short one', async () => {
    const user = await createUser(t.app, { roles: ['expert'] });
    const session = await login(t.app, user);
    const same = await post(url, session, { oldPassword: user.password, newPassword: user.password });
    expect(same.json()).toMatchObject({ status: 400, code: 'password_unchanged' });
    const short = await post(url, session, { oldPassword: user.password, newPassword: 'short' });
    expect(short.json()).toMatchObject({ status: 400, code: 'validation_failed' });
    const extra = await post(url, session, { oldPassword: user.password, newPassword: 'long enough', x: 1 });
    expect(extra.statusCode).toBe(400);
  });

  it('is refused to participants, who have no password', async () => {
    const { session } = await participantSession(org);
    const res = await post(url, session, { oldPassword: 'anything', newPassword: 'whatever long' });
    expect(res.statusCode).toBe(403);
  });
});

describe('POST /api/Account/LogoutParticipant', () => {
  const url = '/api/Account/LogoutParticipant';

  it('needs a participant session', async () => {
    expect((await post(url, null)).statusCode).toBe(401);
    const { session } = await signedIn(t.app, ['coordinator']);
    expect((await post(url, session)).json()).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('ends only the participant session; the participant test is untouched', async () => {
    const { pt, session } = await participantSession(org);
    const [before] = await t.app.ctx.db
      .select()
      .from(participantTests)
      .where(eq(participantTests.id, pt.participantTestId));
    const res = await post(url, session);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await isLive(session)).toBe(false);
    const [after] = await t.app.ctx.db
      .select()
      .from(participantTests)
      .where(eq(participantTests.id, pt.participantTestId));
    expect(after).toEqual(before);
  });

  it('refuses a body it does not expect', async () => {
    const { session } = await participantSession(org);
    expect((await post(url, session, '{"x":', { 'content-type': 'application/json' })).statusCode).toBe(400);
    expect(await isLive(session)).toBe(true);
  });
});

describe('POST /api/Account/LogoutByActivationCode', () => {
  const url = '/api/Account/LogoutByActivationCode';

  it('needs a staff session', async () => {
    expect((await post(url, null, { activationCode: 'AAAAA-AAAAA' })).statusCode).toBe(401);
    const { session } = await signedIn(t.app, ['expert']);
    expect((await post(url, session, { activationCode: 'AAAAA-AAAAA' })).statusCode).toBe(403);
  });

  it('lets a coordinator end every session of a code of their own school', async () => {
    const { pt, session: participant } = await participantSession(org);
    const second = await sessionFor(t.app, (await participantSession(org)).userId, {
      participantTestId: pt.participantTestId,
      activationCode: pt.activationCode,
    });
    const { session } = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    const res = await post(url, session, { activationCode: pt.activationCode.toLowerCase() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ended: 2 });
    expect(await isLive(participant)).toBe(false);
    expect(await isLive(second)).toBe(false);
  });

  it('refuses a coordinator of another school, changing nothing', async () => {
    const { pt, session: participant } = await participantSession(org);
    const { session } = await signedIn(t.app, ['coordinator'], { schoolId: otherOrg.schoolId });
    const res = await post(url, session, { activationCode: pt.activationCode });
    expect(res.statusCode).toBe(403);
    expect(await isLive(participant)).toBe(true);
  });

  it('lets an organizator act only in assigned classes or buildings', async () => {
    const { pt, session: participant } = await participantSession(org);
    const { user, session } = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    expect((await post(url, session, { activationCode: pt.activationCode })).statusCode).toBe(403);
    expect(await isLive(participant)).toBe(true);

    await t.app.ctx.db.insert(organizatorAssignments).values({ userId: user.id, buildingId: org.buildingId });
    const res = await post(url, session, { activationCode: pt.activationCode });
    expect(res.json()).toEqual({ ended: 1 });
  });

  it('lets an admin act anywhere, and answers 404 for an unknown code', async () => {
    const { pt } = await participantSession(otherOrg);
    const { session } = await signedIn(t.app, ['admin']);
    expect((await post(url, session, { activationCode: pt.activationCode })).json()).toEqual({ ended: 1 });
    const unknown = await post(url, session, { activationCode: 'ZZZZZ-ZZZZZ' });
    expect(unknown.json()).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('refuses bad input and a missing anti-CSRF header, changing nothing', async () => {
    const { pt } = await participantSession(org);
    const { session } = await signedIn(t.app, ['admin']);
    const before = await liveSessions();
    for (const payload of [{}, { activationCode: 12 }, { activationCode: pt.activationCode, more: 1 }]) {
      expect((await post(url, session, payload)).statusCode).toBe(400);
    }
    const csrf = await post(url, null, { activationCode: pt.activationCode }, { cookie: session.cookie });
    expect(csrf.json()).toMatchObject({ code: 'csrf' });
    expect(await liveSessions()).toBe(before);
  });
});

describe('POST /api/Account/LogoutByAppLogin', () => {
  const url = '/api/Account/LogoutByAppLogin';

  it('needs a staff session', async () => {
    expect((await post(url, null, { login: 'x' })).statusCode).toBe(401);
    const { session } = await signedIn(t.app, ['guest']);
    expect((await post(url, session, { login: 'x' })).statusCode).toBe(403);
  });

  it('ends the app-shell sessions of a login, not its browser sessions', async () => {
    const { session: app, login: participantLogin } = await participantSession(org, {
      userAgent: 'AttestaApp/3.0 (iOS)',
    });
    const browser = await sessionFor(t.app, (await participantSession(org)).userId);
    const { session } = await signedIn(t.app, ['organizator'], { schoolId: org.schoolId });
    const res = await post(url, session, { login: participantLogin.toUpperCase() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ended: 1 });
    expect(await isLive(app)).toBe(false);
    expect(await isLive(browser)).toBe(true);
  });

  it('refuses staff of another school and answers 404 for an unknown login', async () => {
    const { session: app, login: participantLogin } = await participantSession(org, {
      userAgent: 'AttestaApp/3.0',
    });
    const { session } = await signedIn(t.app, ['coordinator'], { schoolId: otherOrg.schoolId });
    expect((await post(url, session, { login: participantLogin })).statusCode).toBe(403);
    expect(await isLive(app)).toBe(true);
    expect((await post(url, session, { login: 'no-such-login' })).statusCode).toBe(404);
    const { session: admin } = await signedIn(t.app, ['admin']);
    expect((await post(url, admin, { login: participantLogin })).json()).toEqual({ ended: 1 });
  });

  it('refuses bad input', async () => {
    const { session } = await signedIn(t.app, ['admin']);
    for (const payload of [{}, { login: '' }, { login: ['a'] }, { login: 'a', b: 1 }]) {
      expect((await post(url, session, payload)).statusCode).toBe(400);
    }
  });
});

describe('GET /api/Account/hashpassword', () => {
  const get = (query: string, session: Session | null) =>
    t.app.inject({
      method: 'GET',
      url: `/api/Account/hashpassword${query}`,
      headers: session?.headers ?? {},
    });

  it('is for admins only', async () => {
    expect((await get('?pass=secret', null)).statusCode).toBe(401);
    const { session } = await signedIn(t.app, ['coordinator']);
    expect((await get('?pass=secret', session)).statusCode).toBe(403);
  });

  it('hashes with the server hasher, refusing a missing or empty pass', async () => {
    const { session } = await signedIn(t.app, ['admin']);
    const res = await get('?pass=s%C3%A9cret%20one', session);
    expect(res.statusCode).toBe(200);
    expect(await verifyPassword('sécret one', res.json().hash)).toBe(true);
    for (const q of ['', '?pass=', '?pass=a&other=b']) {
      expect((await get(q, session)).json()).toMatchObject({ status: 400, code: 'validation_failed' });
    }
  });
});

describe('GET /api/Account/Parallels', () => {
  it('lists the parallels by id, to anybody', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/account/parallels' });
    expect(res.statusCode).toBe(200);
    const list = res.json() as { id: number; name: string }[];
    expect(list.length).toBeGreaterThanOrEqual(12);
    expect(list.map((p) => p.id)).toEqual([...list.map((p) => p.id)].sort((a, b) => a - b));
    expect(list[0]).toEqual({ id: 0, name: expect.any(String) });
  });
});
