/*
 * Who grades what (docs/design.md §3): an admin assigns an expert to subjects (in grades) and to
 * subject tests (any grade), from the user's page or from the subject test's; and whether a subject
 * test's expert-graded tasks have experts enough — two for blind double marking in every grade —
 * which the check before publication and the diagnostic pages show as a warning.
 */
import type { Actor } from '../../auth/actor.js';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  MANUAL_ANSWER_TYPES,
  type AdminExpertProfileBody,
  type ExpertCoverage,
  type ExpertProfile,
  type SubjectTestExperts,
} from '@attesta/contract';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import {
  diagnostics,
  diagnosticSubjectTests,
  examWorks,
  expertAssignments,
  participantTests,
  subjectExams,
  subjects,
  subjectTests,
  taskScores,
  tasks,
  userRoles,
  users,
  variants,
  variantTasks,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { badRequest, notFound } from '../../lib/errors.js';
import {
  answerLacksExpert,
  assignPending,
  canGrade,
  expertProfileOf,
  profileNames,
} from './grading.service.js';

const displayName = (u: { login: string; surname: string | null; name: string | null }) =>
  [u.surname, u.name].filter(Boolean).join(' ') || u.login;

// ---------------------------------------------------------------- coverage

interface TestFacts {
  id: number;
  name: string;
  parallels: number[];
  subjectId: number;
  subjectName: string;
}

async function testFacts(db: DbOrTx, ids: readonly number[]): Promise<TestFacts[]> {
  if (!ids.length) return [];
  return db
    .select({
      id: subjectTests.id,
      name: subjectTests.name,
      parallels: subjectTests.parallels,
      subjectId: subjectExams.subjectId,
      subjectName: subjects.name,
    })
    .from(subjectTests)
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
    .where(inArray(subjectTests.id, [...ids]))
    .orderBy(asc(subjectTests.name), asc(subjectTests.id));
}

/** Every unblocked expert whose profile names one of these subjects or subject tests. */
async function expertsOf(db: DbOrTx, tests: readonly TestFacts[]) {
  const subjectIds = [...new Set(tests.map((t) => t.subjectId))];
  const testIds = tests.map((t) => t.id);
  if (!subjectIds.length && !testIds.length) return [];
  const rows = await db
    .select({
      id: users.id,
      login: users.login,
      surname: users.surname,
      name: users.name,
      profile: users.profile,
    })
    .from(users)
    .innerJoin(userRoles, and(eq(userRoles.userId, users.id), eq(userRoles.role, 'expert')))
    .where(and(eq(users.isBlocked, false), profileNames(subjectIds, testIds)))
    .orderBy(asc(users.surname), asc(users.name), asc(users.id));
  return rows.map((r) => ({ ...r, expert: expertProfileOf(r.profile) }));
}

/**
 * Whether experts can grade the expert-graded tasks of these subject tests (extended text and file
 * answers: what scoring sends to experts). Per grade of a test — within `grades` when given (a
 * diagnostic's) — the experts who can grade it; `experts` is the least of them. Tests without
 * expert-graded tasks are left out. `diagnosticId` narrows the waiting answers to its works.
 */
export async function expertCoverage(
  db: DbOrTx,
  subjectTestIds: readonly number[],
  scope: { grades?: readonly number[]; diagnosticId?: number } = {},
): Promise<ExpertCoverage[]> {
  const tests = await testFacts(db, subjectTestIds);
  if (!tests.length) return [];
  const manual = await db
    .selectDistinct({ subjectTestId: variants.subjectTestId, position: variantTasks.position })
    .from(variants)
    .innerJoin(variantTasks, eq(variantTasks.variantId, variants.id))
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(
      and(
        inArray(
          variants.subjectTestId,
          tests.map((t) => t.id),
        ),
        isNull(variants.supersededAt),
        inArray(tasks.answerType, [...MANUAL_ANSWER_TYPES]),
      ),
    );
  const graded = tests.filter((t) => manual.some((m) => m.subjectTestId === t.id));
  if (!graded.length) return [];
  const experts = await expertsOf(db, graded);
  const waiting = await db
    .select({ subjectTestId: participantTests.subjectTestId, n: sql<number>`count(*)::int` })
    .from(taskScores)
    .innerJoin(examWorks, eq(examWorks.id, taskScores.examWorkId))
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .where(
      and(
        answerLacksExpert,
        inArray(
          participantTests.subjectTestId,
          graded.map((t) => t.id),
        ),
        scope.diagnosticId !== undefined ? eq(participantTests.diagnosticId, scope.diagnosticId) : undefined,
      ),
    )
    .groupBy(participantTests.subjectTestId);
  return graded.map((t) => {
    const within = scope.grades?.length ? t.parallels.filter((g) => scope.grades!.includes(g)) : [];
    const grades = within.length ? within : t.parallels;
    const perGrade = grades.map((grade) => ({
      grade,
      experts: experts.filter((e) =>
        canGrade(e.expert, { subjectId: t.subjectId, subjectTestId: t.id, grades: [grade] }),
      ).length,
    }));
    // A test of no grade: those assigned to it, or grading its subject at all.
    const anyGrade = experts.filter(
      (e) =>
        e.expert.subjectTestIds.includes(t.id) ||
        (e.expert.subjectIds.includes(t.subjectId) && e.expert.parallels.length > 0),
    ).length;
    return {
      subjectTestId: t.id,
      subjectTestName: t.name,
      subjectName: t.subjectName,
      expertTaskPositions: manual
        .filter((m) => m.subjectTestId === t.id)
        .map((m) => m.position)
        .sort((a, b) => a - b),
      experts: perGrade.length ? Math.min(...perGrade.map((g) => g.experts)) : anyGrade,
      grades: perGrade,
      waitingAnswers: Number(waiting.find((w) => w.subjectTestId === t.id)?.n ?? 0),
    };
  });
}

/** The coverage of one subject test (null: it has no expert-graded task). */
export async function subjectTestCoverage(db: DbOrTx, subjectTestId: number): Promise<ExpertCoverage | null> {
  return (await expertCoverage(db, [subjectTestId]))[0] ?? null;
}

/** A diagnostic's subject tests (named by it or by its participant tests), within its grades. */
export async function diagnosticCoverage(db: Db, diagnosticId: number): Promise<{ items: ExpertCoverage[] }> {
  const [d] = await db
    .select({ parallels: diagnostics.parallels })
    .from(diagnostics)
    .where(and(eq(diagnostics.id, diagnosticId), isNull(diagnostics.deletedAt)));
  if (!d) throw notFound('No such diagnostic');
  const named = await db
    .select({ id: diagnosticSubjectTests.subjectTestId })
    .from(diagnosticSubjectTests)
    .where(eq(diagnosticSubjectTests.diagnosticId, diagnosticId));
  const registered = await db
    .selectDistinct({ id: participantTests.subjectTestId })
    .from(participantTests)
    .where(and(eq(participantTests.diagnosticId, diagnosticId), isNull(participantTests.deletedAt)));
  const ids = [...new Set([...named, ...registered].map((r) => r.id))];
  return { items: await expertCoverage(db, ids, { grades: d.parallels, diagnosticId }) };
}

// ---------------------------------------------------------------- an expert's profile (admin)

async function expertRow(db: DbOrTx, id: number, lock = false) {
  const query = db
    .select({ id: users.id, login: users.login, profile: users.profile })
    .from(users)
    .innerJoin(userRoles, and(eq(userRoles.userId, users.id), eq(userRoles.role, 'expert')))
    .where(eq(users.id, id));
  const [row] = lock ? await query.for('update', { of: users }) : await query;
  if (!row) throw notFound('No such expert');
  return row;
}

/** An expert profile as the calls answer it: names beside the ids, the open assignments counted. */
export async function expertProfileView(
  db: DbOrTx,
  userId: number,
  profile: Record<string, unknown> | null,
): Promise<ExpertProfile> {
  const p = expertProfileOf(profile);
  const subjectNames = p.subjectIds.length
    ? await db
        .select({ id: subjects.id, name: subjects.name })
        .from(subjects)
        .where(inArray(subjects.id, p.subjectIds))
    : [];
  const tests = await testFacts(db, p.subjectTestIds);
  const [open] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(expertAssignments)
    .where(and(eq(expertAssignments.expertId, userId), eq(expertAssignments.status, 'assigned')));
  return {
    subjectIds: p.subjectIds,
    subjects: p.subjectIds.flatMap((id) => subjectNames.filter((s) => s.id === id)),
    subjectTestIds: p.subjectTestIds,
    subjectTests: p.subjectTestIds.flatMap((id) =>
      tests.filter((t) => t.id === id).map((t) => ({ id: t.id, name: t.name, subjectName: t.subjectName })),
    ),
    parallels: [...p.parallels].sort((a, b) => a - b),
    maxPerDay: p.maxPerDay,
    openAssignments: Number(open?.n ?? 0),
  };
}

export async function adminExpertProfile(db: Db, id: number): Promise<ExpertProfile> {
  const row = await expertRow(db, id);
  return expertProfileView(db, id, row.profile);
}

/** 400 for ids that are no subject (unknown_subject) or no subject test (validation_failed). */
async function checkNames(tx: DbOrTx, subjectIds: readonly number[], subjectTestIds: readonly number[]) {
  if (subjectIds.length) {
    const known = await tx
      .select({ id: subjects.id })
      .from(subjects)
      .where(inArray(subjects.id, [...subjectIds]));
    const missing = subjectIds.filter((id) => !known.some((k) => k.id === id));
    if (missing.length)
      throw badRequest('unknown_subject', `No such subject: ${missing.join(', ')}`, [
        { path: 'body.subjectIds', message: `unknown: ${missing.join(', ')}` },
      ]);
  }
  if (subjectTestIds.length) {
    const known = await tx
      .select({ id: subjectTests.id })
      .from(subjectTests)
      .where(inArray(subjectTests.id, [...subjectTestIds]));
    const missing = subjectTestIds.filter((id) => !known.some((k) => k.id === id));
    if (missing.length)
      throw badRequest('validation_failed', `No such subject test: ${missing.join(', ')}`, [
        { path: 'body.subjectTestIds', message: `unknown: ${missing.join(', ')}` },
      ]);
  }
}

/** Writes an expert's profile (other keys of users.profile kept) and audits the change. */
async function writeProfile(
  tx: Tx,
  actor: Actor,
  row: { id: number; profile: Record<string, unknown> | null },
  expert: { subjectIds: number[]; subjectTestIds: number[]; parallels: number[]; maxPerDay: number | null },
  how: string,
) {
  const before = row.profile ?? {};
  await tx
    .update(users)
    .set({ profile: { ...before, expert }, updatedAt: new Date() })
    .where(eq(users.id, row.id));
  await audit(tx, {
    userId: actor.auth.userId,
    action: 'expert.profile.assign',
    entity: 'user',
    entityId: row.id,
    ip: actor.ip,
    details: { how, before: expertProfileOf(before), after: expert },
  });
}

/** PUT /api/admin/experts/{id}: the whole profile, audited; then answers waiting for it are assigned. */
export async function saveAdminExpertProfile(
  db: Db,
  actor: Actor,
  id: number,
  body: AdminExpertProfileBody,
): Promise<ExpertProfile> {
  await db.transaction(async (tx) => {
    const row = await expertRow(tx, id, true);
    await checkNames(tx, body.subjectIds, body.subjectTestIds);
    await writeProfile(
      tx,
      actor,
      row,
      {
        subjectIds: body.subjectIds,
        subjectTestIds: body.subjectTestIds,
        parallels: [...body.parallels].sort((a, b) => a - b),
        maxPerDay: body.maxPerDay ?? null,
      },
      'profile',
    );
  });
  await assignPending(db);
  return adminExpertProfile(db, id);
}

// ---------------------------------------------------------------- a subject test's experts (admin)

export async function subjectTestExperts(db: DbOrTx, subjectTestId: number): Promise<SubjectTestExperts> {
  const [test] = await testFacts(db, [subjectTestId]);
  if (!test) throw notFound('No such subject test');
  const experts = await expertsOf(db, [test]);
  const coverage = (await subjectTestCoverage(db, subjectTestId)) ?? {
    subjectTestId: test.id,
    subjectTestName: test.name,
    subjectName: test.subjectName,
    expertTaskPositions: [],
    experts: 0,
    grades: [],
    waitingAnswers: 0,
  };
  return {
    coverage,
    experts: experts
      .filter(
        (e) =>
          e.expert.subjectTestIds.includes(test.id) ||
          (e.expert.subjectIds.includes(test.subjectId) &&
            e.expert.parallels.some((g) => test.parallels.includes(g))),
      )
      .map((e) => ({
        id: e.id,
        displayName: displayName(e),
        login: e.login,
        via: e.expert.subjectTestIds.includes(test.id) ? ('subject_test' as const) : ('subject' as const),
        parallels: [...e.expert.parallels].sort((a, b) => a - b),
      })),
  };
}

/** POST …/subjectTests/{id}/experts: the test joins each expert's profile (kept once), audited. */
export async function addSubjectTestExperts(
  db: Db,
  actor: Actor,
  subjectTestId: number,
  expertIds: readonly number[],
): Promise<SubjectTestExperts> {
  await db.transaction(async (tx) => {
    const [test] = await testFacts(tx, [subjectTestId]);
    if (!test) throw notFound('No such subject test');
    const rows = await tx
      .select({ id: users.id, profile: users.profile })
      .from(users)
      .innerJoin(userRoles, and(eq(userRoles.userId, users.id), eq(userRoles.role, 'expert')))
      .where(inArray(users.id, [...expertIds]))
      .for('update', { of: users });
    const missing = expertIds.map((id, i) => ({ id, i })).filter((x) => !rows.some((r) => r.id === x.id));
    if (missing.length)
      throw badRequest(
        'validation_failed',
        `Not an expert: ${missing.map((m) => m.id).join(', ')}`,
        missing.map((m) => ({ path: `body.expertIds.${m.i}`, message: 'not a user with the expert role' })),
      );
    for (const row of rows) {
      const p = expertProfileOf(row.profile);
      if (p.subjectTestIds.includes(subjectTestId)) continue;
      await writeProfile(
        tx,
        actor,
        row,
        { ...p, subjectTestIds: [...p.subjectTestIds, subjectTestId] },
        'subject_test',
      );
    }
  });
  await assignPending(db);
  return subjectTestExperts(db, subjectTestId);
}

/** DELETE …/subjectTests/{id}/experts/{expertId}: off the test (their open assignments stay), audited. */
export async function removeSubjectTestExpert(
  db: Db,
  actor: Actor,
  subjectTestId: number,
  expertId: number,
): Promise<SubjectTestExperts> {
  await db.transaction(async (tx) => {
    const [test] = await testFacts(tx, [subjectTestId]);
    if (!test) throw notFound('No such subject test');
    const row = await expertRow(tx, expertId, true);
    const p = expertProfileOf(row.profile);
    if (!p.subjectTestIds.includes(subjectTestId))
      throw notFound('This expert is not assigned to this subject test');
    await writeProfile(
      tx,
      actor,
      row,
      { ...p, subjectTestIds: p.subjectTestIds.filter((id) => id !== subjectTestId) },
      'subject_test_removed',
    );
  });
  return subjectTestExperts(db, subjectTestId);
}
