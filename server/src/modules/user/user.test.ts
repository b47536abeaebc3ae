import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentUser, ParticipantCard } from '@attesta/contract';
import {
  createOrg,
  createParticipantTest,
  createUser,
  createTestApp,
  sessionFor,
  signedIn,
  signedInParticipant,
  type OrgFixture,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let org: OrgFixture;
beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t.app);
});
afterAll(async () => t.close());

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });
const put = (url: string, headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: 'PUT', url, headers, payload: payload as object });

const snapshot = async () => ({
  users: await t.database.query('select * from users order by id'),
  students: await t.database.query('select * from students order by id'),
  participantTests: await t.database.query('select * from participant_tests order by id'),
  audit: await t.database.query('select count(*)::int as n from audit_events'),
});

describe('GET /api/user', () => {
  it('answers 401 without a session', async () => {
    const res = await get('/api/user');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('answers the current user with the school name, nothing secret', async () => {
    const { user, session } = await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId });
    const res = await get('/api/user', { cookie: session.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: user.id,
      login: user.login,
      displayName: 'Тестов Тест',
      roles: ['coordinator'],
      email: `${user.login}@example.test`,
      schoolId: org.schoolId,
      schoolName: expect.stringContaining('Школа'),
      participantTestId: null,
    });
  });

  it('works with a bearer token too', async () => {
    const { user, session } = await signedIn(t.app, ['expert']);
    const res = await get('/api/user', { authorization: `Bearer ${session.token}` });
    expect(res.json()).toMatchObject({ id: user.id, schoolName: null });
  });
});

describe('GET /api/user/hasSession', () => {
  it('is false without a session and with a dead one, never 401', async () => {
    for (const headers of [{}, { cookie: 'attesta_sid=nonsense' }] as Record<string, string>[]) {
      const res = await get('/api/user/hasSession', headers);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toBe(false);
    }
  });

  it('is true with a live cookie or bearer session', async () => {
    const { session } = await signedIn(t.app, ['guest']);
    expect((await get('/api/user/hasSession', { cookie: session.cookie })).json()).toBe(true);
    expect((await get('/api/user/hasSession', { authorization: `Bearer ${session.token}` })).json()).toBe(
      true,
    );
  });
});

describe('GET /api/user/sessionTime', () => {
  it('answers 401 without a session', async () => {
    expect((await get('/api/user/sessionTime')).statusCode).toBe(401);
  });

  it('answers the session end as an ISO string in JSON', async () => {
    const { session } = await signedIn(t.app, ['guest']);
    const res = await get('/api/user/sessionTime', { cookie: session.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const iso = res.json() as string;
    expect(new Date(iso).toISOString()).toBe(iso);
    const ms = new Date(iso).getTime() - Date.now();
    // The earlier of the idle and the absolute end, both in the future.
    expect(ms).toBeGreaterThan(0);
    expect(ms).toBeLessThanOrEqual(Math.min(t.config.sessionIdleMs, t.config.sessionAbsoluteMs) + 1000);
  });
});

describe('PUT /api/user/save', () => {
  it('answers 401 without a session and 403 csrf without the header', async () => {
    expect((await put('/api/user/save', XHR, { name: 'Х' })).statusCode).toBe(401);
    const { session } = await signedIn(t.app, ['guest']);
    const before = await snapshot();
    const res = await put('/api/user/save', { cookie: session.cookie }, { name: 'Х' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'csrf' });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['roles', { roles: ['admin'] }],
    ['login', { login: 'root' }],
    ['isBlocked', { isBlocked: false }],
    ['a wrong type', { surname: 42 }],
    ['an empty surname', { surname: '  ' }],
    ['a bad e-mail', { email: 'nope' }],
  ])('answers 400 for %s and changes nothing', async (_name, body) => {
    const { session } = await signedIn(t.app, ['guest']);
    const before = await snapshot();
    const res = await put('/api/user/save', session.headers, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
    expect(await snapshot()).toEqual(before);
  });

  it('updates own names; the display name follows at once', async () => {
    const { user, session } = await signedIn(t.app, ['expert']);
    await get('/api/user', session.headers); // cache the session with the old name
    const res = await put('/api/user/save', session.headers, {
      surname: 'Смирнова',
      name: 'Ольга',
      patronymic: 'Игоревна',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: user.id,
      displayName: 'Смирнова Ольга Игоревна',
      roles: ['expert'],
    });
    expect((await get('/api/user', session.headers)).json()).toMatchObject({
      displayName: 'Смирнова Ольга Игоревна',
    });
  });

  it('an e-mail change unsets the confirmation; a case change does not', async () => {
    const { user, session } = await signedIn(t.app, ['expert']);
    const confirmed = async () =>
      (
        await t.database.query<{ c: boolean }>(
          'select email_confirmed_at is not null as c from users where id = $1',
          [user.id],
        )
      )[0]!.c;
    await put('/api/user/save', session.headers, { email: `${user.login}@EXAMPLE.test` });
    expect(await confirmed()).toBe(true);
    const res = await put('/api/user/save', session.headers, { email: `${user.login}.new@example.test` });
    expect((res.json() as CurrentUser).email).toBe(`${user.login}.new@example.test`);
    expect(await confirmed()).toBe(false);
  });

  it('answers 409 email_taken for another account’s address', async () => {
    const other = await createUser(t.app, { roles: [] });
    const { session } = await signedIn(t.app, ['guest']);
    const before = await snapshot();
    const res = await put('/api/user/save', session.headers, { email: `${other.login}@Example.Test` });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'email_taken' });
    expect(await snapshot()).toEqual(before);
  });
});

describe('PUT /api/user/saveParticipant', () => {
  const card = { surname: 'Кузнецова', name: 'Дарья', patronymic: 'Сергеевна', birthDate: '2011-04-09' };
  const save = (headers: Record<string, string>, body: unknown) =>
    put('/api/user/saveParticipant', headers, body);

  it('answers 401 without a session, 403 to staff, to a participant without a test, and csrf', async () => {
    expect((await save(XHR, card)).statusCode).toBe(401);
    const { session: staff } = await signedIn(t.app, ['coordinator']);
    expect((await save(staff.headers, card)).statusCode).toBe(403);
    const unbound = await createUser(t.app, { roles: ['participant'] });
    const res = await save((await sessionFor(t.app, unbound.id)).headers, card);
    expect(res.statusCode).toBe(403);
    const pt = await createParticipantTest(t.app, org);
    const { session } = await signedInParticipant(t.app, pt);
    const csrf = await save({ cookie: session.cookie }, card);
    expect(csrf.json()).toMatchObject({ code: 'csrf' });
  });

  it('writes the card to the student of the session’s participant test', async () => {
    const pt = await createParticipantTest(t.app, org, { studentId: org.studentIds[1]! });
    const { session } = await signedInParticipant(t.app, pt);
    const res = await save(session.headers, { ...card, classId: org.classId });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      participantTestId: pt.participantTestId,
      studentId: org.studentIds[1]!,
      schoolId: org.schoolId,
      ...card,
      classId: org.classId,
      className: '7 «А»',
    } satisfies ParticipantCard);
    const [student] = await t.database.query(
      'select surname, birth_date::text as b from students where id = $1',
      [org.studentIds[1]],
    );
    expect(student).toEqual({ surname: 'Кузнецова', b: '2011-04-09' });
    const events = await t.database.query(
      "select 1 from audit_events where action = 'participant.card_save'",
    );
    expect(events.length).toBeGreaterThan(0);
  });

  it('creates and links a student for an impersonal test, once', async () => {
    const pt = await createParticipantTest(t.app, org, { impersonal: true });
    await t.database.query('update participant_tests set class_id = null where id = $1', [
      pt.participantTestId,
    ]);
    const { session } = await signedInParticipant(t.app, pt);
    const first = await save(session.headers, { ...card, classId: org.classId });
    expect(first.statusCode).toBe(200);
    const { studentId } = first.json() as ParticipantCard;
    const [row] = await t.database.query<{ student_id: number; class_id: number }>(
      'select student_id, class_id from participant_tests where id = $1',
      [pt.participantTestId],
    );
    expect(row).toEqual({ student_id: studentId, class_id: org.classId });
    const [student] = await t.database.query('select school_id from students where id = $1', [studentId]);
    expect(student).toEqual({ school_id: org.schoolId });
    // A second save edits the same student rather than creating another.
    const second = await save(session.headers, { ...card, name: 'Дария' });
    expect((second.json() as ParticipantCard).studentId).toBe(studentId);
  });

  it('answers 400 for a class of another school and changes nothing', async () => {
    const other = await createOrg(t.app);
    const pt = await createParticipantTest(t.app, org);
    const { session } = await signedInParticipant(t.app, pt);
    const before = await snapshot();
    const res = await save(session.headers, { ...card, classId: other.classId });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body.classId' }] });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['an impossible date', { ...card, birthDate: '2011-02-30' }],
    ['a date in another format', { ...card, birthDate: '09.04.2011' }],
    ['a missing name', { surname: 'Кузнецова', birthDate: '2011-04-09' }],
    ['an unknown field', { ...card, studentId: 1 }],
    ['a wrong type', { ...card, classId: 'А' }],
  ])('answers 400 for %s and changes nothing', async (_name, body) => {
    const pt = await createParticipantTest(t.app, org);
    const { session } = await signedInParticipant(t.app, pt);
    const before = await snapshot();
    const res = await save(session.headers, body);
    expect(res.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 409 card_locked once the work has started', async () => {
    const pt = await createParticipantTest(t.app, org, { status: 'in_progress' });
    const { session } = await signedInParticipant(t.app, pt);
    const before = await snapshot();
    const res = await save(session.headers, card);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'card_locked' });
    expect(await snapshot()).toEqual(before);
  });
});
