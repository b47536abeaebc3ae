import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  createDiagnosticWith,
  createTestApp,
  createVariantWithTasks,
  signedIn,
  unique,
  type Session,
  type TestApp,
} from '../../../test/helpers.js';
import { createSubjectTest } from '../../../test/diagnostic-fixtures.js';
import {
  auditEvents,
  diagnostics,
  subjectTests,
  tasks,
  variants,
  variantTasks,
} from '../../db/schema/index.js';

/*
 * An open (guest) test never shows an item a secure subject test still uses (docs/open-tests.md):
 * opening it is refused with 409 `open_test_shares_tasks` naming those tests, its page lists them
 * before anyone tries, its variants cannot take such an item, and no new guest attempt starts while
 * one is shared.
 */

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t.app, ['admin'])).session;
});
afterAll(async () => t?.close());

const send = (session: Session | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: session ? session.headers : { 'x-requested-with': 'XMLHttpRequest' },
    ...(payload ? { payload } : {}),
  });

const autoTask = (answer: string) => ({
  answerType: 'short_text',
  html: `<p>${unique('Задание ')}</p>`,
  reference: { accepted: [answer] },
  scoring: { method: 'all_or_nothing' },
});

/** The admin's PUT with the test's current fields and `isOpen`. */
async function setOpen(id: number, isOpen: boolean, as: Session | null = admin) {
  const current = (await send(admin, 'GET', `/api/admin/content/subjectTests/${id}`)).json();
  return send(as, 'PUT', `/api/admin/content/subjectTests/${id}`, {
    subjectExamId: current.subjectExamId,
    name: current.name,
    parallels: current.parallels,
    durationMinutes: current.durationMinutes,
    isOpen,
  });
}

const isOpen = async (id: number) =>
  (await t.app.ctx.db.select().from(subjectTests).where(eq(subjectTests.id, id)))[0]!.isOpen;

/**
 * A secure test (in a live diagnostic) with tasks [shared, secret], and a practice test whose
 * variant holds [shared, own]: the practice test shares one item with the secure one.
 */
async function world(diagnostic: { endsAt?: Date; published?: boolean } = {}) {
  const secureId = await createSubjectTest(t.app, { name: unique('Контрольная '), parallels: [7] });
  const practiceId = await createSubjectTest(t.app, { name: unique('Пробник '), parallels: [7] });
  const secure = await createVariantWithTasks(t.app, secureId, [autoTask('a'), autoTask('b')]);
  const own = await createVariantWithTasks(t.app, practiceId, [autoTask('c')]);
  // The practice variant also holds the secure test's first task.
  await t.app.ctx.db
    .insert(variantTasks)
    .values({ variantId: own.variantId, taskId: secure.taskIds[0]!, position: 2, maxScore: 1 });
  const { diagnosticId } = await createDiagnosticWith(t.app, {
    subjectTestIds: [secureId],
    ...(diagnostic.endsAt
      ? { endsAt: diagnostic.endsAt, startsAt: new Date(Date.now() - 7 * 86_400_000) }
      : {}),
  });
  if (diagnostic.published)
    await t.app.ctx.db
      .update(diagnostics)
      .set({ resultsPublished: true, publishedAt: new Date() })
      .where(eq(diagnostics.id, diagnosticId));
  const [d] = await t.app.ctx.db.select().from(diagnostics).where(eq(diagnostics.id, diagnosticId));
  return { secureId, practiceId, secure, own, diagnosticId, diagnosticName: d!.name };
}

describe('opening a test that shares items with a secure test', () => {
  it('the page lists the secure tests first; 401 without a session, 403 for another role', async () => {
    const w = await world();
    const url = `/api/admin/content/subjectTests/${w.practiceId}`;
    const res = await send(admin, 'GET', url);
    expect(res.statusCode).toBe(200);
    const [secure] = await t.app.ctx.db.select().from(subjectTests).where(eq(subjectTests.id, w.secureId));
    expect(res.json().openConflicts).toEqual([
      { subjectTestId: w.secureId, name: secure!.name, diagnostics: [w.diagnosticName], sharedTasks: 1 },
    ]);
    expect((await send(null, 'GET', url)).statusCode).toBe(401);
    expect((await send((await signedIn(t.app, ['coordinator'])).session, 'GET', url)).statusCode).toBe(403);
  });

  it('409 open_test_shares_tasks naming them, nothing changed, nothing audited', async () => {
    const w = await world();
    const res = await setOpen(w.practiceId, true);
    expect([res.statusCode, res.json().code]).toEqual([409, 'open_test_shares_tasks']);
    const [secure] = await t.app.ctx.db.select().from(subjectTests).where(eq(subjectTests.id, w.secureId));
    expect(res.json().errors).toEqual([
      {
        path: 'body.isOpen',
        code: 'open_test_shares_tasks',
        message: expect.any(String),
        params: {
          subjectTestId: w.secureId,
          name: secure!.name,
          diagnostics: w.diagnosticName,
          sharedTasks: 1,
        },
      },
    ]);
    expect(await isOpen(w.practiceId)).toBe(false);
    const audited = await t.app.ctx.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'content.subject_test.update'),
          eq(auditEvents.entityId, String(w.practiceId)),
        ),
      );
    expect(audited).toEqual([]);
    // Without a session: 401 before any rule.
    expect((await setOpen(w.practiceId, true, null)).statusCode).toBe(401);
  });

  it('another version of a shared task is the same item', async () => {
    const secureId = await createSubjectTest(t.app, { name: unique('Контрольная '), parallels: [7] });
    const practiceId = await createSubjectTest(t.app, { name: unique('Пробник '), parallels: [7] });
    const secure = await createVariantWithTasks(t.app, secureId, [autoTask('a')]);
    await t.app.ctx.db
      .update(tasks)
      .set({ supersededAt: new Date() })
      .where(eq(tasks.id, secure.taskIds[0]!));
    const [v2] = await t.app.ctx.db
      .insert(tasks)
      .values({ ...autoTask('a'), version: 2, previousVersionId: secure.taskIds[0]! })
      .returning();
    const [variant] = await t.app.ctx.db
      .insert(variants)
      .values({ subjectTestId: practiceId, number: 1 })
      .returning();
    await t.app.ctx.db
      .insert(variantTasks)
      .values({ variantId: variant!.id, taskId: v2!.id, position: 1, maxScore: 1 });
    await createDiagnosticWith(t.app, { subjectTestIds: [secureId] });
    const res = await setOpen(practiceId, true);
    expect([res.statusCode, res.json().code]).toEqual([409, 'open_test_shares_tasks']);
    expect(res.json().errors[0].params.subjectTestId).toBe(secureId);
  });

  it('a test a live diagnostic uses cannot be opened itself', async () => {
    const id = await createSubjectTest(t.app, { name: unique('Диагностическая '), parallels: [7] });
    await createVariantWithTasks(t.app, id, [autoTask('a')]);
    await createDiagnosticWith(t.app, { subjectTestIds: [id] });
    const res = await setOpen(id, true);
    expect([res.statusCode, res.json().code]).toEqual([409, 'open_test_shares_tasks']);
    expect(res.json().errors[0].params.subjectTestId).toBe(id);
  });

  it('only a diagnostic both finished and published frees its items', async () => {
    const finishedOnly = await world({ endsAt: new Date(Date.now() - 60_000) });
    expect((await setOpen(finishedOnly.practiceId, true)).statusCode).toBe(409);
    const publishedOnly = await world({ published: true });
    expect((await setOpen(publishedOnly.practiceId, true)).statusCode).toBe(409);
    const over = await world({ endsAt: new Date(Date.now() - 60_000), published: true });
    expect(
      (await send(admin, 'GET', `/api/admin/content/subjectTests/${over.practiceId}`)).json().openConflicts,
    ).toEqual([]);
    const res = await setOpen(over.practiceId, true);
    expect(res.statusCode, res.body).toBe(200);
    expect(await isOpen(over.practiceId)).toBe(true);
  });
});

describe('an open test later', () => {
  it('its variants cannot take an item a secure test uses; no new guest attempt starts while one is shared', async () => {
    const practiceId = await createSubjectTest(t.app, { name: unique('Пробник '), parallels: [7] });
    await createVariantWithTasks(t.app, practiceId, [autoTask('own')]);
    expect((await setOpen(practiceId, true)).statusCode).toBe(200);
    await t.app.ctx.db
      .update(subjectTests)
      .set({ status: 'published' })
      .where(eq(subjectTests.id, practiceId));

    const secureId = await createSubjectTest(t.app, { name: unique('Контрольная '), parallels: [7] });
    const secure = await createVariantWithTasks(t.app, secureId, [autoTask('a')]);
    await createDiagnosticWith(t.app, { subjectTestIds: [secureId] });
    const count = async () =>
      (await t.app.ctx.db.select().from(variants).where(eq(variants.subjectTestId, practiceId))).length;
    const before = await count();
    const add = await send(admin, 'POST', `/api/admin/content/subjectTests/${practiceId}/variants`, {
      tasks: [{ taskId: secure.taskIds[0]! }],
    });
    expect([add.statusCode, add.json().code]).toEqual([409, 'open_test_shares_tasks']);
    expect(add.json().errors[0].path).toBe('body.tasks');
    expect(await count()).toBe(before);

    // The secure test takes an item of the open test afterwards (written straight in the tables):
    // a guest's new attempt is refused, none is created.
    const [ownTask] = await t.app.ctx.db
      .select({ id: variantTasks.taskId })
      .from(variantTasks)
      .innerJoin(variants, eq(variants.id, variantTasks.variantId))
      .where(eq(variants.subjectTestId, practiceId));
    await t.app.ctx.db
      .insert(variantTasks)
      .values({ variantId: secure.variantId, taskId: ownTask!.id, position: 2, maxScore: 1 });
    const guest = await signedIn(t.app, ['guest']);
    const start = await send(guest.session, 'POST', `/api/openTests/${practiceId}/attempt`);
    expect([start.statusCode, start.json().code]).toEqual([409, 'open_test_shares_tasks']);
    const attempts = await t.database.query<{ n: number }>(
      'select count(*)::int n from participant_tests where guest_user_id = $1',
      [guest.user.id],
    );
    expect(attempts[0]!.n).toBe(0);
  });
});
