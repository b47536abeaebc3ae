import { once } from 'node:events';
import { and, count, eq, sql } from 'drizzle-orm';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PowChallenge } from '@attesta/contract';
import { POW, ProofOfWork } from '../../auth/proof-of-work.js';
import { DELAYS, LIMITS, Throttle, type Limit } from '../../auth/throttle.js';
import { auditEvents } from '../../db/schema/index.js';
import { CODE_ALPHABET } from '../../lib/tokens.js';
import {
  createOrg,
  createParticipantTest,
  createTestApp,
  createUser,
  sessionFrom,
  unique,
  type OrgFixture,
  type TestApp,
} from '../../../test/helpers.js';

/*
 * Throttling that stops attackers, not classes — over HTTP, on the memory store (PGlite) and on
 * Redis (TEST_REDIS_URL). Evaluations are counted by their audit rows: every code or password
 * that was actually checked and found wrong writes one `login_failed`.
 */
const stores = [
  { name: 'memory', env: {} as Record<string, string>, skip: false },
  {
    name: 'Redis',
    env: {
      REDIS_URL: process.env.TEST_REDIS_URL ?? '',
      REDIS_KEY_PREFIX: `attesta-test-thr-${process.pid}-${Date.now()}:`,
    },
    skip: !process.env.TEST_REDIS_URL,
  },
];

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const small: Limit = { points: 5, durationSeconds: 10 * 60, blockSeconds: 0 };
/** The per-address password limit, smaller than the real 50 so that a spray costs few hashes. */
const loginIp: Limit = { ...LIMITS.loginIp, points: 10 };
let ipSeq = 0;
const freshIp = () => `10.9.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
/** The i-th of many distinct well-formed codes that no participant test has. */
const wrongCode = (prefix: string, i: number) =>
  `${prefix}${CODE_ALPHABET[i % 31]}${CODE_ALPHABET[Math.floor(i / 31) % 31]}-${prefix}ZZZ`.slice(0, 11);

describe.each(stores)('throttling on the $name store', ({ env, skip }) => {
  let t: TestApp;
  let org: OrgFixture;
  /** The throttle's time (ms): the test's clock. */
  let now = Date.now();

  beforeAll(async () => {
    if (skip) return;
    t = await createTestApp(env);
    const redis = t.app.ctx.redis;
    // Until connected, counters fail over to this process's memory: test the store itself.
    if (redis && redis.status !== 'ready') await once(redis, 'ready');
    org = await createOrg(t.app);
    // Small free budgets, and cheap challenges so a test solves one in milliseconds. The waits run
    // on a clock of the test's own: it moves only when a test moves it, so no wait ends while a
    // slow machine runs the checks.
    t.app.ctx.throttle = new Throttle(
      redis,
      { ...LIMITS, codeIp: small, verifyIp: small, loginIp },
      { loginAccount: { ...DELAYS.loginAccount, firstMs: 4000 } },
      () => now,
    );
    t.app.ctx.pow = new ProofOfWork(t.config.sessionSecret, () => t.app.ctx.throttle, {
      ...POW,
      counterMin: 5,
      counterMax: 10,
    });
  });
  afterAll(async () => t?.close());

  const codeLogin = (activationCode: string, ip: string, proof?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/Account/login',
      headers: XHR,
      payload: { activationCode, ...(proof ? { proof } : {}) },
      remoteAddress: ip,
    });
  const passwordLogin = (login: string, password: string, ip: string, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/Account/login',
      headers: { ...XHR, ...(cookie ? { cookie } : {}) },
      payload: { login, password },
      remoteAddress: ip,
    });
  const failures = async (where: ReturnType<typeof sql>) =>
    (
      await t.app.ctx.db
        .select({ n: count() })
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'login_failed'), where))
    )[0]!.n;

  /** What the login form does: get a challenge, solve it, send it as the proof. */
  async function proof(): Promise<string> {
    const res = await t.app.inject({ method: 'GET', url: '/api/Account/LoginChallenge' });
    expect(res.statusCode).toBe(200);
    const challenge = res.json<PowChallenge>();
    const solution = await solveChallenge({
      challenge: challenge as unknown as Parameters<typeof solveChallenge>[0]['challenge'],
      deriveKey,
    });
    return JSON.stringify({ challenge, solution });
  }

  it.skipIf(skip)(
    '200 concurrent wrong codes from one address evaluate at most 5 (the free budget)',
    async () => {
      const ip = freshIp();
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) => codeLogin(wrongCode('ZZZ', i), ip)),
      );
      const evaluated = await failures(sql`${auditEvents.ip} = ${ip}::inet`);
      expect(evaluated).toBeLessThanOrEqual(5);
      expect(evaluated).toBeGreaterThan(0);
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 401)).toHaveLength(evaluated);
      expect(statuses.filter((s) => s === 428)).toHaveLength(200 - evaluated);
      expect(answers.find((a) => a.statusCode === 428)!.json()).toMatchObject({
        status: 428,
        code: 'proof_of_work_required',
      });
    },
  );

  it.skipIf(skip)(
    'a lookup that fails for the server (an overloaded database) gives the address its points back',
    async () => {
      const ip = freshIp();
      const pt = await createParticipantTest(t.app, org);
      const db = t.app.ctx.db;
      // Every query of the lookup fails, as a saturated pool would at 10:00.
      t.app.ctx.db = new Proxy(db, {
        get: (target, key, receiver) =>
          key === 'select' || key === 'execute'
            ? () => {
                throw new Error('database unavailable');
              }
            : Reflect.get(target, key, receiver),
      });
      try {
        // Twice the free budget of 5 per address, one after another (a login in flight holds its
        // point), every one failing on the server's side.
        const failed: number[] = [];
        for (let i = 0; i < 10; i++) failed.push((await codeLogin(wrongCode('OVL', i), ip)).statusCode);
        expect(failed).toEqual(Array(10).fill(500));
      } finally {
        t.app.ctx.db = db;
      }
      // The address is not asked for a proof of work: nothing was guessed.
      const signedIn = await codeLogin(pt.activationCode, ip);
      expect(signedIn.statusCode).toBe(200);
      expect(await failures(sql`${auditEvents.ip} = ${ip}::inet`)).toBe(0);
    },
  );

  it.skipIf(skip)('a valid code from an address under a guessing attack still signs in', async () => {
    const ip = freshIp();
    const pt = await createParticipantTest(t.app, org);
    for (let i = 0; i < 20; i++) await codeLogin(wrongCode('QQQ', i), ip);
    expect(await failures(sql`${auditEvents.ip} = ${ip}::inet`)).toBe(5);

    // Without a proof the address is asked for one; with it, the valid code signs in.
    const asked = await codeLogin(pt.activationCode, ip);
    expect(asked.statusCode).toBe(428);
    const signedIn = await codeLogin(pt.activationCode, ip, await proof());
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user.participantTestId).toBe(pt.participantTestId);

    // The guesser pays a proof per guess: each one is evaluated once, never reused.
    const guess = await proof();
    expect((await codeLogin('QQQQQ-QQQQ2', ip, guess)).statusCode).toBe(401);
    const reused = await codeLogin('QQQQQ-QQQQ3', ip, guess);
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ code: 'proof_of_work_invalid' });
    expect(await failures(sql`${auditEvents.ip} = ${ip}::inet`)).toBe(6);
  });

  it.skipIf(skip)('one proof sent with 50 concurrent guesses is evaluated once', async () => {
    const ip = freshIp();
    const one = await proof();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => codeLogin(wrongCode('WWW', i), ip, one)),
    );
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(49);
  });

  it.skipIf(skip)('refuses forged, tampered and malformed proofs without evaluating the code', async () => {
    const ip = freshIp();
    const good = JSON.parse(await proof()) as {
      challenge: PowChallenge;
      solution: { counter: number; derivedKey: string };
    };
    const tampered = JSON.stringify({
      challenge: { ...good.challenge, parameters: { ...good.challenge.parameters, cost: 1 } },
      solution: good.solution,
    });
    const guessedKey = JSON.stringify({
      ...good,
      solution: { ...good.solution, derivedKey: 'ab'.repeat(32) },
    });
    for (const bad of ['{}', 'not json', '[1]', 'null', tampered, guessedKey]) {
      const res = await codeLogin('XXXXX-XXXXX', ip, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('proof_of_work_invalid');
    }
    expect(await failures(sql`${auditEvents.ip} = ${ip}::inet`)).toBe(0);
  });

  it.skipIf(skip)('the anonymous code check is guarded by the same budget and proof', async () => {
    const ip = freshIp();
    const pt = await createParticipantTest(t.app, org);
    const check = (code: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'GET',
        url: `/api/exam/test/checkActivationCode/${code}`,
        headers,
        remoteAddress: ip,
      });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => check(wrongCode('KKK', i))));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.statusCode === 428)).toHaveLength(35);
    expect((await check(pt.activationCode)).statusCode).toBe(428);
    const ok = await check(pt.activationCode, { 'x-proof-of-work': await proof() });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ valid: true });
  });

  it.skipIf(skip)('200 concurrent result-verification guesses against a limit of 5 evaluate 5', async () => {
    const ip = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        t.app.inject({ method: 'GET', url: `/api/results/verify/R-NONE-${1000 + i}`, remoteAddress: ip }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(195);
  });

  it.skipIf(skip)(
    'wrong passwords from many addresses: 200 at once evaluate a handful; the known device signs in, a forged cookie or a new device waits until the wait is over',
    async () => {
      const user = await createUser(t.app, { roles: ['expert'] });
      const first = await passwordLogin(user.login, user.password, freshIp());
      const device = `attesta_dev=${first.cookies.find((c) => c.name === 'attesta_dev')!.value}`;

      const flood = await Promise.all(
        Array.from({ length: 200 }, (_, i) => passwordLogin(user.login, `spray ${i}`, freshIp())),
      );
      const evaluated = await failures(sql`${auditEvents.userId} = ${user.id}`);
      expect(evaluated).toBeLessThanOrEqual(5); // 4 free, and the one that starts the first wait
      expect(flood.filter((r) => r.statusCode === 401)).toHaveLength(evaluated);
      const refused = flood.filter((r) => r.statusCode === 429);
      expect(refused).toHaveLength(200 - evaluated);
      expect(Math.max(...refused.map((r) => Number(r.headers['retry-after'])))).toBeLessThanOrEqual(60);

      // The real user's own device: straight in, during the attack.
      expect((await passwordLogin(user.login, user.password, freshIp(), device)).statusCode).toBe(200);
      // A forged device cookie is a stranger.
      const forged = await passwordLogin(user.login, user.password, freshIp(), `attesta_dev=${user.id}`);
      expect(forged.statusCode).toBe(429);
      // A new device: a short wait, not an hour.
      const stranger = await passwordLogin(user.login, user.password, freshIp());
      expect(stranger.statusCode).toBe(429);
      const wait = Number(stranger.headers['retry-after']);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(4);
      // Still waiting a moment before the wait is over; then in.
      now += wait * 1000 - 1;
      expect((await passwordLogin(user.login, user.password, freshIp())).statusCode).toBe(429);
      now += 1;
      expect((await passwordLogin(user.login, user.password, freshIp())).statusCode).toBe(200);
    },
  );

  it.skipIf(skip)(
    'a real login and an unknown one answer alike to the same wrong passwords from many addresses',
    async () => {
      const user = await createUser(t.app, { roles: ['expert'], login: unique('Real') });
      const unknown = unique('Nobody');
      /** What the sequence answers for a login: each status and Retry-After, in order. */
      const sequence = async (login: string) => {
        const seen: string[] = [];
        const note = (r: Awaited<ReturnType<typeof passwordLogin>>) =>
          `${r.statusCode}${r.headers['retry-after'] ? `/${r.headers['retry-after']}` : ''}`;
        // One after another from new addresses, the login typed in other cases too.
        for (let i = 0; i < 7; i++)
          seen.push(note(await passwordLogin(i % 2 ? login.toUpperCase() : login, `wrong ${i}`, freshIp())));
        // Then many at once.
        const flood = await Promise.all(
          Array.from({ length: 20 }, (_, i) => passwordLogin(login, `flood ${i}`, freshIp())),
        );
        seen.push(...flood.map(note).sort());
        // Once the wait is over: one more is evaluated, the next waits twice as long.
        now += 4000;
        seen.push(note(await passwordLogin(login, 'after the wait', freshIp())));
        seen.push(note(await passwordLogin(login, 'at once again', freshIp())));
        return seen;
      };
      const real = await sequence(user.login);
      const none = await sequence(unknown);
      expect(none).toEqual(real);
      expect(real).toEqual([
        ...Array(5).fill('401'),
        '429/4',
        '429/4',
        ...Array(20).fill('429/4'),
        '401',
        '429/8',
      ]);
      // Both were evaluated as often: the same number of wrong passwords checked.
      expect(await failures(sql`${auditEvents.userId} = ${user.id}`)).toBe(6);
    },
  );

  it.skipIf(skip)(
    'a spray that spends a shared address’s password budget does not refuse a known device there; other devices are refused',
    async () => {
      // A school behind one NAT: the teacher signed in from it before, so their browser holds a
      // device cookie for their account.
      const school = freshIp();
      const teacher = await createUser(t.app, { roles: ['expert'] });
      const first = await passwordLogin(teacher.login, teacher.password, school);
      expect(first.statusCode).toBe(200);
      const device = `attesta_dev=${first.cookies.find((c) => c.name === 'attesta_dev')!.value}`;
      const colleague = await createUser(t.app, { roles: ['expert'] });

      // Someone at the same address sprays many accounts: the address's failures are spent.
      const spray = await Promise.all(
        Array.from({ length: loginIp.points }, (_, i) =>
          passwordLogin(unique(`nobody${i}-`), `guess ${i}`, school),
        ),
      );
      expect(spray.filter((r) => r.statusCode === 401)).toHaveLength(loginIp.points);
      const refused = await passwordLogin(colleague.login, colleague.password, school);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('too_many_requests');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);

      // The teacher's own browser is not refused by the address's limit, nor counted against it.
      const before = await t.app.ctx.throttle.count('loginIp', school);
      const mistyped = await passwordLogin(teacher.login, 'a typo', school, device);
      expect(mistyped.statusCode).toBe(401);
      const teacherIn = await passwordLogin(teacher.login, teacher.password, school, device);
      expect(teacherIn.statusCode).toBe(200);
      expect(await t.app.ctx.throttle.count('loginIp', school)).toBe(before);
      // A device cookie of another account is a stranger here: the address's limit applies.
      const borrowed = await passwordLogin(colleague.login, colleague.password, school, device);
      expect(borrowed.statusCode).toBe(429);
      // Elsewhere the colleague signs in as usual: only the address is limited, not the account.
      expect((await passwordLogin(colleague.login, colleague.password, freshIp())).statusCode).toBe(200);
    },
  );

  it.skipIf(skip)('wrong old passwords in ChangePassword leave the login counters untouched', async () => {
    const user = await createUser(t.app, { roles: ['expert'], login: unique('changer') });
    const ip = freshIp();
    const session = sessionFrom(await passwordLogin(user.login, user.password, ip));
    const change = (oldPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/Account/ChangePassword',
        headers: session.headers,
        payload: { oldPassword, newPassword: 'a brand new password' },
        remoteAddress: ip,
      });
    const wrong = await Promise.all(Array.from({ length: 20 }, (_, i) => change(`wrong ${i}`)));
    expect(wrong.filter((r) => r.statusCode === 400)).toHaveLength(5);
    expect(wrong.filter((r) => r.statusCode === 429)).toHaveLength(15);

    const pair = `${user.login.toLowerCase()}|${ip}`;
    expect(await t.app.ctx.throttle.count('loginPair', pair)).toBe(0);
    expect(await t.app.ctx.throttle.count('loginIp', ip)).toBe(0);
    // The owner still signs in from the same address, as often as they like.
    for (let i = 0; i < 6; i++)
      expect((await passwordLogin(user.login, user.password, ip)).statusCode).toBe(200);
  });
});
