import { AUDIT_ACTIONS } from '@attesta/contract';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countRows,
  createOrg,
  createParticipantTest,
  createTestApp,
  createUser,
  guardResults,
  signedIn,
  type OrgFixture,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';

let t: TestApp;
let org: OrgFixture;
let admin: { id: number; session: Session };
let coordinator: Session;
let ugnik: Session;

const list = (session: Session, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/audit/list',
    headers: session.headers,
    payload: payload as object,
  });

interface Row {
  id: number;
  at: string;
  userId: number | null;
  userLogin: string | null;
  userName: string | null;
  action: string;
  entity: string | null;
  entityId: string | null;
  reason: string | null;
  details: Record<string, unknown> | null;
  ip: string | null;
}
const items = async (session: Session, payload: unknown) => {
  const res = await list(session, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: Row[]; total: number };
};

/** An audit row written directly, at a chosen time (older days for the date filters). */
const insertEvent = (e: {
  userId: number | null;
  action: string;
  at: string;
  entityId?: string;
  reason?: string;
}) =>
  t.database.query(
    `insert into audit_events (user_id, action, entity, entity_id, reason, details, ip, at)
     values ($1, $2, 'exam_work', $3, $4, '{"minutes": 10}', '10.1.2.3', $5)`,
    [e.userId, e.action, e.entityId ?? null, e.reason ?? null, e.at],
  );

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t.app, 'Лицей аудита');
  const a = await signedIn(t.app, ['admin']);
  admin = { id: a.user.id, session: a.session };
  coordinator = (await signedIn(t.app, ['coordinator'], { schoolId: org.schoolId })).session;
  ugnik = (await signedIn(t.app, ['ugnik'])).session;
  await t.database.query('delete from audit_events');
});
afterAll(async () => t.close());

describe('access', () => {
  it('401 without a session, 403 for other roles, the CSRF header on the list (a POST)', async () => {
    const before = await countRows(t.database, 'audit_events');
    const listed = await guardResults(
      t.app,
      { method: 'POST', url: '/api/admin/audit/list', payload: { page: 1 } },
      { allowed: admin.session, wrongRole: coordinator },
    );
    expect(listed).toEqual({ anonymous: 401, wrongRole: 403, noCsrf: 'csrf' });
    const actions = await guardResults(
      t.app,
      { method: 'GET', url: '/api/admin/audit/actions' },
      { allowed: admin.session, wrongRole: ugnik },
    );
    expect([actions.anonymous, actions.wrongRole]).toEqual([401, 403]);
    expect(await countRows(t.database, 'audit_events')).toBe(before);
  });

  it('bad filters are 400 validation_failed', async () => {
    for (const filter of [
      { from: '2026-13-01' },
      { area: 'exam work' },
      { userId: -1 },
      { unknown: 1 },
      { search: '' },
    ]) {
      const res = await list(admin.session, { page: 1, filter });
      expect([JSON.stringify(filter), res.statusCode, res.json().code]).toEqual([
        JSON.stringify(filter),
        400,
        'validation_failed',
      ]);
    }
    const sorted = await list(admin.session, { page: 1, sort: { field: 'details', dir: 'asc' } });
    expect(sorted.statusCode).toBe(400);
  });
});

describe('the trail', () => {
  it('lists what a real change wrote: who (login and name), what, on which record, from where', async () => {
    // A real audited write through the API: the admin creates a school.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/schools',
      headers: admin.session.headers,
      payload: { ooId: org.ooId, name: 'Школа из аудита' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const schoolId = created.json().id as number;

    const page = await items(admin.session, { page: 1, filter: { action: 'school.create' } });
    expect(page.total).toBe(1);
    const [row] = page.items;
    expect(row).toMatchObject({
      userId: admin.id,
      userName: 'Тестов Тест',
      action: 'school.create',
      entity: 'school',
      entityId: String(schoolId),
    });
    expect(row!.userLogin).toMatch(/^user/);
    expect(row!.details).toMatchObject({ name: 'Школа из аудита' });
    expect(Date.parse(row!.at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('filters by person, action, area, record and days (Moscow, both inclusive), newest first, paged', async () => {
    const organizer = await createUser(t.app, { roles: ['organizator'], login: 'org_audit_1' });
    // 2026-03-10 00:30 Moscow is 2026-03-09 21:30 UTC: a day of the school calendar, not of UTC.
    await insertEvent({
      userId: organizer.id,
      action: 'exam_work.pause',
      at: '2026-03-09T21:30:00Z',
      entityId: '77',
      reason: 'пожарная тревога',
    });
    await insertEvent({
      userId: organizer.id,
      action: 'exam_work.resume',
      at: '2026-03-10T08:00:00Z',
      entityId: '77',
    });
    await insertEvent({
      userId: organizer.id,
      action: 'exam_work.change_time',
      at: '2026-03-11T08:00:00Z',
      entityId: '78',
    });
    await insertEvent({
      userId: null,
      action: 'exam_work.timeout',
      at: '2026-03-12T08:00:00Z',
      entityId: '78',
    });

    const mine = await items(admin.session, { page: 1, filter: { search: 'org_audit' } });
    expect(mine.items.map((r) => r.action)).toEqual([
      'exam_work.change_time',
      'exam_work.resume',
      'exam_work.pause',
    ]);
    expect(mine.items[2]).toMatchObject({
      reason: 'пожарная тревога',
      ip: '10.1.2.3',
      details: { minutes: 10 },
    });

    const byUser = await items(admin.session, { page: 1, filter: { userId: organizer.id } });
    expect(byUser.total).toBe(3);

    const area = await items(admin.session, { page: 1, filter: { area: 'exam_work' } });
    expect(area.total).toBe(4);
    expect(area.items[0]).toMatchObject({
      action: 'exam_work.timeout',
      userId: null,
      userLogin: null,
      userName: null,
    });

    const record = await items(admin.session, { page: 1, filter: { entity: 'exam_work', entityId: '78' } });
    expect(record.items.map((r) => r.action)).toEqual(['exam_work.timeout', 'exam_work.change_time']);

    const day = await items(admin.session, {
      page: 1,
      filter: { area: 'exam_work', from: '2026-03-10', to: '2026-03-10' },
    });
    expect(day.items.map((r) => r.action)).toEqual(['exam_work.resume', 'exam_work.pause']);
    const upTo = await items(admin.session, { page: 1, filter: { area: 'exam_work', to: '2026-03-11' } });
    expect(upTo.total).toBe(3);

    const paged = await items(admin.session, { page: 2, pageSize: 1, filter: { area: 'exam_work' } });
    expect([paged.total, paged.items.map((r) => r.action)]).toEqual([4, ['exam_work.change_time']]);
    const oldestFirst = await items(admin.session, {
      page: 1,
      filter: { area: 'exam_work' },
      sort: { field: 'at', dir: 'asc' },
    });
    expect(oldestFirst.items[0]!.action).toBe('exam_work.pause');
  });

  it('an area without a dot is its own action; the actions call counts each action', async () => {
    await insertEvent({ userId: admin.id, action: 'login', at: '2026-03-01T08:00:00Z' });
    await insertEvent({ userId: admin.id, action: 'login_failed', at: '2026-03-01T08:01:00Z' });
    const logins = await items(admin.session, { page: 1, filter: { area: 'login' } });
    expect(logins.items.map((r) => r.action)).toEqual(['login']);

    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit/actions',
      headers: admin.session.headers,
    });
    expect(res.statusCode).toBe(200);
    const counts = Object.fromEntries(
      (res.json().actions as { action: string; count: number }[]).map((a) => [a.action, a.count]),
    );
    expect(counts).toMatchObject({ 'exam_work.pause': 1, login: 1, login_failed: 1, 'school.create': 1 });
  });
});

describe('the names of the records a row points at', () => {
  it('names the record acted on and every id of the details (nested, in lists, in changes), never only ids', async () => {
    const pt = await createParticipantTest(t.app, org);
    const other = await createOrg(t.app, 'Гимназия переименованная');
    await t.database.query(
      `insert into audit_events (user_id, action, entity, entity_id, details, at)
       values ($1, 'results.publish', 'diagnostic', $2, $3, now())`,
      [
        admin.id,
        String(pt.diagnosticId),
        JSON.stringify({
          diagnosticId: pt.diagnosticId,
          status: 'published',
          subjectTestIds: [pt.subjectTestId],
          scope: { schoolId: org.schoolId },
          changes: { classId: { from: org.classId, to: other.classId } },
          participantTestId: pt.participantTestId,
          variantTaskId: 5,
          minutes: 10,
          studentIds: [999_999],
        }),
      ],
    );
    const page = await items(admin.session, { page: 1, filter: { action: 'results.publish' } });
    const refs = (page.items[0] as Row & { refs: Record<string, string> }).refs;
    expect(refs).toEqual({
      [`diagnostic:${pt.diagnosticId}`]: 'Независимая диагностика',
      [`subject_test:${pt.subjectTestId}`]: 'Математика, 7 класс',
      [`school:${org.schoolId}`]: 'Лицей аудита',
      [`class:${org.classId}`]: '7 «А»',
      [`class:${other.classId}`]: '7 «А»',
      // A registration is named by who sits it and which test.
      [`participant_test:${pt.participantTestId}`]: 'Иванов Иван — Математика, 7 класс',
    });
    // A record that no longer exists has no name; numbers that are not ids of ours are not looked up.
    expect(Object.keys(refs).some((k) => k.startsWith('student:') || k.startsWith('variant'))).toBe(false);
  });

  it('names the school a real change (the admin creating it) acted on', async () => {
    const page = await items(admin.session, { page: 1, filter: { action: 'school.create' } });
    const row = page.items[0] as Row & { refs: Record<string, string> };
    expect(row.refs[`school:${row.entityId}`]).toBe('Школа из аудита');
  });
});

describe('the actions the screen names', () => {
  // Every action literal the server writes to the trail has a label in the web client, which is
  // typed by AUDIT_ACTIONS: a new audited action without one fails here, not on the screen.
  const src = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return files(path);
      return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
    });
  const written = new Set<string>();
  for (const file of files(src)) {
    const text = readFileSync(file, 'utf8');
    if (!/audit\(|auditLogin|audit_events|record\(tx/.test(text)) continue;
    const found = [
      ...text.matchAll(/action: *(?:[^'`\n]*\? *)?'([a-z_.]+)'(?: *: *'([a-z_.]+)')?/g),
      ...text.matchAll(/auditLogin\('([a-z_]+)'/g),
      ...text.matchAll(/record\((?:tx|db), *\w+, *'([a-z_.]+)'/g),
      // A raw insert's action (the statement's `select <actor>, '<action>', '<entity>'`), only in a
      // file that inserts audit events (a reader of the trail selects literals of its own); on one
      // line, so a list of statuses in another statement of the file is not read as an action.
      ...(/insert into audit_events/.test(text)
        ? text.matchAll(/select [^,\n]+, '([a-z_]+(?:\.[a-z_]+)*)', '[a-z_]+'/g)
        : []),
    ];
    for (const m of found) for (const a of m.slice(1)) if (a) written.add(a);
  }
  const entities = ['oo', 'school', 'building', 'class', 'student'];

  it('finds the audited actions in the source', () => {
    expect(written.size).toBeGreaterThan(60);
    expect(written).toContain('exam_work.pause');
    expect(written).toContain('content.task.create');
    expect(written).toContain('login_failed');
    // A raw insert's action (exam-work.repo.ts).
    expect(written).toContain('exam_work.start');
  });

  it('each is in AUDIT_ACTIONS', () => {
    const known = new Set<string>(AUDIT_ACTIONS);
    for (const e of entities)
      for (const verb of ['create', 'update']) expect(known).toContain(`${e}.${verb}`);
    expect([...written].filter((a) => !known.has(a))).toEqual([]);
  });
});
