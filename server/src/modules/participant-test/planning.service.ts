import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { PlanningQueueQuery, PlanningResult, QueueItem } from '@attesta/contract';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { Db, Tx } from '../../db/client.js';
import {
  classes,
  diagnosticSchools,
  diagnosticSubjectTests,
  participantTests,
  schools,
  students,
  subjectTests,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { forbidden } from '../../lib/errors.js';
import {
  assertDateInWindow,
  insertParticipantTests,
  lockDiagnosticRegistrations,
  type NewParticipantTest,
} from '../../lib/participant-tests.js';
import { enqueue } from '../../jobs/queue.js';
import { PermanentJobError, type JobContext, type JobOutcome } from '../../jobs/runner.js';
import { includesSchool, liveDiagnostic } from '../create-diagnostic/index.js';
import { presentQueueItem } from './queue.service.js';

/*
 * Planning (планирование): registers every student of a diagnostic's schools, grades and subject
 * tests for a test date, as a queued job. Idempotent: a (diagnostic, subject test, student) that
 * already has a live participant test is counted as existing, never duplicated — the check and
 * the inserts run under the diagnostic's registration lock, shared with every other call that
 * registers participants.
 */

export const PLANNING_JOB = 'planning';
/** Rows per INSERT: thousands of students plan in a few statements, each well under the parameter limit. */
const BATCH = 500;

const planningPayloadSchema = z.object({
  date: z.iso.date(),
  code: z.string(),
  schoolId: z.number().int().positive().nullable(),
});
type PlanningPayload = z.infer<typeof planningPayloadSchema>;

/**
 * Queues planning of a diagnostic (by code) for a date: a coordinator their own school (which the
 * diagnostic must include), an admin every school of it. Queueing the same plan while it is
 * queued or running returns that item.
 */
export async function createPlanningQueue(
  db: Db,
  actor: { auth: AuthContext; ip: string | null },
  query: PlanningQueueQuery,
): Promise<QueueItem> {
  const { auth } = actor;
  const diagnostic = await liveDiagnostic(db, { code: query.code });
  let schoolId: number | null = null;
  if (!hasRole(auth, 'admin')) {
    if (!(await includesSchool(db, diagnostic.id, auth.schoolId)))
      throw forbidden('This diagnostic does not include your school');
    schoolId = auth.schoolId;
  }
  assertDateInWindow(query.date, diagnostic, 'query.date');
  const payload: PlanningPayload = { date: query.date, code: diagnostic.code, schoolId };
  return db.transaction(async (tx) => {
    const { item, created } = await enqueue(tx, {
      type: PLANNING_JOB,
      diagnosticId: diagnostic.id,
      payload,
      dedupeKey: `planning:${diagnostic.id}:${query.date}:${schoolId ?? 'all'}`,
      createdBy: auth.userId,
    });
    if (created) {
      await audit(tx, {
        userId: auth.userId,
        action: 'queue.planning.create',
        entity: 'queue_item',
        entityId: item.id,
        details: { diagnosticId: diagnostic.id, date: query.date, schoolId },
        ip: actor.ip,
      });
    }
    return presentQueueItem(item, diagnostic);
  });
}

interface Candidate {
  studentId: number;
  classId: number;
  buildingId: number | null;
  parallel: number;
}

/** Plans one school inside one transaction under the diagnostic's lock. */
async function planSchool(
  tx: Tx,
  plan: {
    diagnosticId: number;
    parallels: number[];
    tests: { id: number; parallels: number[] }[];
    date: string;
  },
  schoolId: number,
): Promise<{ created: number; existing: number }> {
  await lockDiagnosticRegistrations(tx, plan.diagnosticId);
  if (!plan.parallels.length || !plan.tests.length) return { created: 0, existing: 0 };
  const candidates: Candidate[] = await tx
    .select({
      studentId: students.id,
      classId: classes.id,
      buildingId: classes.buildingId,
      parallel: classes.parallelId,
    })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(
      and(
        eq(students.schoolId, schoolId),
        eq(classes.schoolId, schoolId),
        isNull(students.deletedAt),
        inArray(classes.parallelId, plan.parallels),
      ),
    )
    .orderBy(asc(classes.parallelId), asc(classes.letter), asc(students.surname), asc(students.id));
  if (!candidates.length) return { created: 0, existing: 0 };

  const live = await tx
    .select({ studentId: participantTests.studentId, subjectTestId: participantTests.subjectTestId })
    .from(participantTests)
    .where(
      and(
        eq(participantTests.diagnosticId, plan.diagnosticId),
        isNull(participantTests.deletedAt),
        sql`${participantTests.studentId} in (
          select s.id from students s where s.school_id = ${schoolId} and s.deleted_at is null)`,
      ),
    );
  const taken = new Set(live.map((r) => `${r.studentId}:${r.subjectTestId}`));

  const rows: NewParticipantTest[] = [];
  let existing = 0;
  for (const c of candidates) {
    for (const test of plan.tests) {
      if (!test.parallels.includes(c.parallel)) continue;
      if (taken.has(`${c.studentId}:${test.id}`)) {
        existing++;
        continue;
      }
      rows.push({
        diagnosticId: plan.diagnosticId,
        subjectTestId: test.id,
        studentId: c.studentId,
        schoolId,
        classId: c.classId,
        buildingId: c.buildingId,
        testDate: plan.date,
        status: 'planned',
      });
    }
  }
  for (let i = 0; i < rows.length; i += BATCH) await insertParticipantTests(tx, rows.slice(i, i + BATCH));
  return { created: rows.length, existing };
}

/** The 'planning' job: every school of the plan in turn, progress after each. */
export async function runPlanning({ db, item, progress }: JobContext): Promise<JobOutcome> {
  const parsed = planningPayloadSchema.safeParse(item.payload);
  if (!parsed.success || item.diagnosticId === null) throw new PermanentJobError('Invalid planning job');
  const payload = parsed.data;
  const diagnostic = await liveDiagnostic(db, { id: item.diagnosticId }).catch(() => {
    throw new PermanentJobError('The diagnostic no longer exists');
  });

  const tests = await db
    .select({ id: subjectTests.id, parallels: subjectTests.parallels })
    .from(diagnosticSubjectTests)
    .innerJoin(subjectTests, eq(subjectTests.id, diagnosticSubjectTests.subjectTestId))
    .where(eq(diagnosticSubjectTests.diagnosticId, diagnostic.id))
    .orderBy(asc(subjectTests.id));
  const planSchools = await db
    .select({ id: schools.id, name: schools.name })
    .from(diagnosticSchools)
    .innerJoin(schools, eq(schools.id, diagnosticSchools.schoolId))
    .where(
      and(
        eq(diagnosticSchools.diagnosticId, diagnostic.id),
        payload.schoolId !== null ? eq(diagnosticSchools.schoolId, payload.schoolId) : undefined,
      ),
    )
    .orderBy(asc(schools.name), asc(schools.id));

  const plan = {
    diagnosticId: diagnostic.id,
    parallels: diagnostic.parallels,
    tests: tests.filter((t) => t.parallels.some((p) => diagnostic.parallels.includes(p))),
    date: payload.date,
  };
  const result: PlanningResult = { created: 0, existing: 0, schools: planSchools.length };
  await progress(0, `Школ к планированию: ${planSchools.length}`);
  for (const [i, school] of planSchools.entries()) {
    const done = await db.transaction((tx) => planSchool(tx, plan, school.id));
    result.created += done.created;
    result.existing += done.existing;
    await progress(
      ((i + 1) / planSchools.length) * 100,
      `${school.name}: создано ${done.created}, уже было ${done.existing} (${i + 1} из ${planSchools.length})`,
    );
  }
  return { result };
}
