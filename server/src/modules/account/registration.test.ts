import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, sessions, userRoles, users } from '../../db/schema/index.js';
import { sha256 } from '../../lib/tokens.js';
import { createTestApp, createUser, login, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://attesta.example' });
});
afterAll(async () => t.close());

let ipSeq = 0;
const freshIp = () => `10.2.0.${++ipSeq}`;

function post(url: string, payload: unknown, ip = freshIp()) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'x-requested-with': 'XMLHttpRequest' },
    payload: payload as object,
    remoteAddress: ip,
  });
}

const newEmail = () => `new.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@Example.test`;
const registration = (email: string) => ({
  email,
  password: 'long enough secret',
  surname: 'Смирнова',
  name: 'Анна',
  parallel: 7,
});

/** The token of the link in the last message sent to `to`. */
function tokenFromMail(to: string, path: string): string {
  const message = [...t.mail].reverse().find((m) => m.to === to.toLowerCase());
  const match =
    message && new RegExp(`https://attesta\\.example${path}\\?token=([\\w%-]+)`).exec(message.text);
  if (!match) throw new Error(`no ${path} link mailed to ${to}`);
  return decodeURIComponent(match[1]!);
}

const countUsers = async () => (await t.app.ctx.db.select({ n: count() }).from(users))[0]!.n;

describe('POST /api/Account/Register', () => {
  it('registers a guest, mails a confirmation link, confirms, then lets them in', async () => {
    const email = newEmail();
    const res = await post('/api/Account/Register', registration(email));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'confirmation_sent' });
    const [user] = await t.app.ctx.db
      .select()
      .from(users)
      .where(sql`${users.login} = ${email.toLowerCase()}`);
    expect(user).toMatchObject({
      email: email.toLowerCase(),
      emailConfirmedAt: null,
      profile: { parallel: 7 },
    });
    const roles = await t.app.ctx.db.select().from(userRoles).where(eq(userRoles.userId, user!.id));
    expect(roles.map((r) => r.role)).toEqual(['guest']);

    const early = await post('/api/Account/login', { login: email, password: 'long enough secret' });
    expect(early.json()).toMatchObject({ status: 403, code: 'email_not_confirmed' });

    const token = tokenFromMail(email, '/account/confirm');
    const [stored] = await t.app.ctx.db.select().from(emailTokens).where(eq(emailTokens.userId, user!.id));
    expect(stored!.tokenHash).toBe(sha256(token)); // only the hash is kept
    expect(stored!.expiresAt.getTime() - Date.now()).toBeGreaterThan(47 * 3_600_000);

    const confirm = await post('/api/Account/Register', { confirmationToken: token });
    expect(confirm.json()).toEqual({ status: 'confirmed' });
    const again = await post('/api/Account/Register', { confirmationToken: token });
    expect(again.json()).toMatchObject({ status: 400, code: 'invalid_token' });

    const ok = await post('/api/Account/login', { login: email, password: 'long enough secret' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ roles: ['guest'], displayName: 'Смирнова Анна' });
  });

  it('answers a taken address exactly the same, mailing its owner a reminder instead', async () => {
    const owner = await createUser(t.app, { roles: ['expert'] });
    const email = `${owner.login}@example.test`;
    const before = await countUsers();
    const mails = t.mail.length;
    const res = await post('/api/Account/Register', registration(email.toUpperCase()));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'confirmation_sent' });
    expect(await countUsers()).toBe(before);
    expect(t.mail.length).toBe(mails + 1);
    expect(t.mail.at(-1)!.text).toContain('already have an account');
    expect(t.mail.at(-1)!.text).not.toContain('token=');
  });

  it('refuses an unknown, expired or malformed confirmation token', async () => {
    expect((await post('/api/Account/Register', { confirmationToken: 'x'.repeat(43) })).json()).toMatchObject(
      {
        code: 'invalid_token',
      },
    );
    const email = newEmail();
    await post('/api/Account/Register', registration(email));
    const token = tokenFromMail(email, '/account/confirm');
    await t.app.ctx.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailTokens.tokenHash, sha256(token)));
    expect((await post('/api/Account/Register', { confirmationToken: token })).statusCode).toBe(400);
    expect((await post('/api/Account/Register', { confirmationToken: 'short' })).statusCode).toBe(400);
  });

  it.each([
    ['a bad e-mail', { ...registration('not-an-email') }],
    ['a short password', { ...registration('a@b.test'), password: 'short' }],
    ['wrong types', { ...registration('a@b.test'), parallel: '7' }],
    ['a parallel out of range', { ...registration('a@b.test'), parallel: 12 }],
    ['unknown fields', { ...registration('a@b.test'), roles: ['admin'] }],
    ['a missing name', { email: 'a@b.test', password: 'long enough secret', surname: 'X' }],
  ])('refuses %s and creates nothing', async (_name, payload) => {
    const before = [await countUsers(), t.mail.length];
    const res = await post('/api/Account/Register', payload);
    expect(res.json()).toMatchObject({ status: 400, code: 'validation_failed' });
    expect([await countUsers(), t.mail.length]).toEqual(before);
  });

  it('limits registrations per address with 429 and Retry-After', async () => {
    const ip = freshIp();
    for (let i = 0; i < 30; i++) {
      const res = await post('/api/Account/Register', { confirmationToken: `nonsense-token-${i}` }, ip);
      expect(res.statusCode).toBe(400);
    }
    const res = await post('/api/Account/Register', registration(newEmail()), ip);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('POST /api/Account/SendRegistrationEMail', () => {
  const url = '/api/Account/SendRegistrationEMail';

  it('re-sends a confirmation to an unconfirmed account only', async () => {
    const email = newEmail();
    await post('/api/Account/Register', registration(email));
    const first = tokenFromMail(email, '/account/confirm');
    const res = await post(url, { email, kind: 'confirm' });
    expect(res.json()).toEqual({ ok: true });
    const second = tokenFromMail(email, '/account/confirm');
    expect(second).not.toBe(first);
    expect((await post('/api/Account/Register', { confirmationToken: second })).json()).toEqual({
      status: 'confirmed',
    });
    const mails = t.mail.length;
    expect((await post(url, { email, kind: 'confirm' })).json()).toEqual({ ok: true });
    expect(t.mail.length).toBe(mails); // already confirmed: nothing to send
  });

  it('answers the same for an unknown address, sending nothing', async () => {
    const mails = t.mail.length;
    const res = await post(url, { email: newEmail(), kind: 'reset' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(t.mail.length).toBe(mails);
  });

  it('refuses bad input', async () => {
    for (const payload of [
      { email: 'x' },
      { email: 'a@b.test', kind: 'other' },
      { email: 'a@b.test', x: 1 },
    ]) {
      expect((await post(url, payload)).json()).toMatchObject({ status: 400, code: 'validation_failed' });
    }
  });

  it('limits mails per address', async () => {
    const email = newEmail();
    for (let i = 0; i < 5; i++) expect((await post(url, { email, kind: 'reset' })).statusCode).toBe(200);
    const res = await post(url, { email, kind: 'reset' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('POST /api/Account/ResetPassword', () => {
  const url = '/api/Account/ResetPassword';

  it('sets a new password from the mailed link and ends every session of the user', async () => {
    const user = await createUser(t.app, { roles: ['coordinator'] });
    const email = `${user.login}@example.test`;
    const session = await login(t.app, user);
    await post('/api/Account/SendRegistrationEMail', { email, kind: 'reset' });
    const token = tokenFromMail(email, '/account/reset');
    const [stored] = await t.app.ctx.db
      .select()
      .from(emailTokens)
      .where(eq(emailTokens.tokenHash, sha256(token)));
    expect(stored!.purpose).toBe('reset');
    expect(stored!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(2 * 3_600_000);

    const res = await post(url, { token, newPassword: 'another long secret' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const [row] = await t.app.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256(session.token)));
    expect(row!.revokedAt).not.toBeNull();
    expect(
      (await post('/api/Account/login', { login: user.login, password: user.password })).statusCode,
    ).toBe(401);
    expect(
      (await post('/api/Account/login', { login: user.login, password: 'another long secret' })).statusCode,
    ).toBe(200);
    expect((await post(url, { token, newPassword: 'third long secret' })).json()).toMatchObject({
      status: 400,
      code: 'invalid_token',
    });
  });

  it('confirms the address of an unconfirmed guest (the link proves it)', async () => {
    const email = newEmail();
    await post('/api/Account/Register', registration(email));
    await post('/api/Account/SendRegistrationEMail', { email, kind: 'reset' });
    await post(url, { token: tokenFromMail(email, '/account/reset'), newPassword: 'reset long secret' });
    const res = await post('/api/Account/login', { login: email, password: 'reset long secret' });
    expect(res.statusCode).toBe(200);
  });

  it('refuses bad input and unknown tokens, changing nothing', async () => {
    const user = await createUser(t.app, { roles: ['expert'] });
    const [before] = await t.app.ctx.db.select().from(users).where(eq(users.id, user.id));
    for (const payload of [
      { token: 'x'.repeat(43), newPassword: 'long enough secret' },
      { token: 'x'.repeat(43), newPassword: 'short' },
      { token: 5, newPassword: 'long enough secret' },
      { token: 'x'.repeat(43), newPassword: 'long enough secret', userId: user.id },
    ]) {
      expect((await post(url, payload)).statusCode).toBe(400);
    }
    const [after] = await t.app.ctx.db.select().from(users).where(eq(users.id, user.id));
    expect(after).toEqual(before);
  });
});
