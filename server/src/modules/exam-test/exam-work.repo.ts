import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  batchColumns,
  coalesced,
  readByKeys,
  rowsOf,
  runPrepared,
  type Db,
  type DbOrTx,
  type Tx,
} from '../../db/client.js';
import { fromRow } from '../../db/raw.js';
import type { StoredBytes } from '../../lib/file-storage/index.js';
import {
  answerFiles,
  answers,
  classes,
  diagnostics,
  examWorkPauses,
  examWorks,
  files,
  participantTests,
  quizAnswers,
  quizzes,
  schools,
  students,
  subjectExams,
  subjects,
  subjectTests,
  tasks,
  variants,
  variantTasks,
  workers,
} from '../../db/schema/index.js';

/*
 * Typed queries of the exam runner, nothing else: rules live in exam-work.service.ts.
 */

export type WorkRow = typeof examWorks.$inferSelect;

/**
 * An answer value read as JSON text and parsed here: drizzle's jsonb decoder JSON-parses any string
 * the driver hands it, so a stored string answer like "12" would come back as the number 12.
 */
const answerValue = sql<unknown>`${answers.value}::text`.mapWith((v: string | null) =>
  v === null ? null : (JSON.parse(v) as unknown),
);
export type AnswerRow = typeof answers.$inferSelect;

// ------------------------------------------------------------------ participant tests

const ptColumns = {
  id: participantTests.id,
  status: participantTests.status,
  testDate: participantTests.testDate,
  diagnosticId: participantTests.diagnosticId,
  subjectTestId: participantTests.subjectTestId,
  studentId: participantTests.studentId,
  workerId: participantTests.workerId,
  schoolId: participantTests.schoolId,
  classId: participantTests.classId,
  buildingId: participantTests.buildingId,
  activationCode: participantTests.activationCode,
  registrationCode: participantTests.registrationCode,
  startsAt: diagnostics.startsAt,
  endsAt: diagnostics.endsAt,
  diagnosticName: diagnostics.name,
  resultsPublished: diagnostics.resultsPublished,
  firstPublishedAt: diagnostics.firstPublishedAt,
};

export type ParticipantTestRow = Awaited<ReturnType<typeof findParticipantTest>> & {};

/** A live participant test (neither it nor its diagnostic deleted) with its diagnostic window. */
export async function findParticipantTest(
  db: DbOrTx,
  ref: { id: number } | { activationCode: string } | { registrationCode: string },
) {
  const match =
    'id' in ref
      ? eq(participantTests.id, ref.id)
      : 'activationCode' in ref
        ? sql`upper(${participantTests.activationCode}) = ${ref.activationCode}`
        : eq(participantTests.registrationCode, ref.registrationCode);
  const [row] = await db
    .select(ptColumns)
    .from(participantTests)
    .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
    .where(and(match, isNull(participantTests.deletedAt), isNull(diagnostics.deletedAt)))
    .limit(1);
  return row ?? null;
}

/** The person and place of a participant test, for the runner's header. */
export async function findParticipantPerson(
  db: DbOrTx,
  pt: { studentId: number | null; workerId: number | null; schoolId: number | null; classId: number | null },
) {
  const [person] = pt.studentId
    ? await db
        .select({
          surname: students.surname,
          name: students.name,
          patronymic: students.patronymic,
          accommodations: students.accommodations,
        })
        .from(students)
        .where(eq(students.id, pt.studentId))
    : pt.workerId
      ? await db
          .select({
            surname: workers.surname,
            name: workers.name,
            patronymic: workers.patronymic,
            accommodations: workers.accommodations,
          })
          .from(workers)
          .where(eq(workers.id, pt.workerId))
      : [];
  const [place] = await db
    .select({ className: classes.name, schoolName: schools.name })
    .from(schools)
    .leftJoin(classes, pt.classId ? eq(classes.id, pt.classId) : sql`false`)
    .where(eq(schools.id, pt.schoolId ?? 0));
  return {
    person: person ?? null,
    className: place?.className ?? null,
    schoolName: place?.schoolName ?? null,
  };
}

export async function setParticipantTestStatus(
  db: DbOrTx,
  id: number,
  status: string,
  onlyFrom: readonly string[],
): Promise<void> {
  await db
    .update(participantTests)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(participantTests.id, id), inArray(participantTests.status, [...onlyFrom])));
}

// ------------------------------------------------------------------ subject tests, variants

export async function findSubjectTest(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      id: subjectTests.id,
      name: subjectTests.name,
      subjectName: subjects.name,
      parallels: subjectTests.parallels,
      durationMinutes: subjectTests.durationMinutes,
      description: subjectTests.description,
      allowBlank: subjectTests.allowBlank,
      allowCalculator: subjectTests.allowCalculator,
      testGroupId: subjectTests.testGroupId,
      quizId: subjectTests.quizId,
      instructionHtml: subjectTests.instructionHtml,
    })
    .from(subjectTests)
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
    .where(eq(subjectTests.id, id));
  return row ?? null;
}

/** The current (not superseded) variants of a subject test, by number. */
export async function currentVariantsOf(db: DbOrTx, subjectTestId: number) {
  return db
    .select({ id: variants.id, number: variants.number })
    .from(variants)
    .where(and(eq(variants.subjectTestId, subjectTestId), isNull(variants.supersededAt)))
    .orderBy(asc(variants.number));
}

/** Tasks in the lowest-numbered variant: what the start screen shows as "N tasks". */
export async function taskCountOf(db: DbOrTx, subjectTestId: number): Promise<number | null> {
  const [first] = await db
    .select({ id: variants.id })
    .from(variants)
    .where(and(eq(variants.subjectTestId, subjectTestId), isNull(variants.supersededAt)))
    .orderBy(asc(variants.number))
    .limit(1);
  if (!first) return null;
  const [row] = await db
    .select({ n: count() })
    .from(variantTasks)
    .where(eq(variantTasks.variantId, first.id));
  return row?.n ?? 0;
}

export async function findVariant(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: variants.id, number: variants.number, subjectTestId: variants.subjectTestId })
    .from(variants)
    .where(eq(variants.id, id));
  return row ?? null;
}

/** Every column of the tasks of a variant, by position. Callers decide what leaves the server. */
export async function variantTasksOf(db: DbOrTx, variantId: number) {
  return db
    .select({
      variantTaskId: variantTasks.id,
      position: variantTasks.position,
      maxScore: variantTasks.maxScore,
      taskId: tasks.id,
      answerType: tasks.answerType,
      html: tasks.html,
      content: tasks.content,
      reference: tasks.reference,
      solutionHtml: tasks.solutionHtml,
      criteria: tasks.criteria,
      htmlContainerId: tasks.htmlContainerId,
    })
    .from(variantTasks)
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(eq(variantTasks.variantId, variantId))
    .orderBy(asc(variantTasks.position));
}

export async function taskFilesOf(db: DbOrTx, taskIds: number[]) {
  if (!taskIds.length) return [];
  return db
    .select({ id: files.id, name: files.name, mime: files.mime, ownerId: files.ownerId })
    .from(files)
    .where(and(eq(files.ownerType, 'task'), inArray(files.ownerId, taskIds), isNull(files.deletedAt)))
    .orderBy(asc(files.id));
}

/** Answer type and participant-visible content of the given tasks, only if they are in the variant. */
export async function answerTasksOf(db: DbOrTx, variantId: number, variantTaskIds: number[]) {
  return db
    .select({ variantTaskId: variantTasks.id, answerType: tasks.answerType, content: tasks.content })
    .from(variantTasks)
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(and(eq(variantTasks.variantId, variantId), inArray(variantTasks.id, variantTaskIds)));
}

/** The room a participant test is spread in: its class, else building, else school, else all. */
export function spreadGroupOf(pt: {
  classId: number | null;
  buildingId: number | null;
  schoolId: number | null;
}) {
  return pt.classId
    ? { by: 'class', id: pt.classId }
    : pt.buildingId
      ? { by: 'building', id: pt.buildingId }
      : pt.schoolId
        ? { by: 'school', id: pt.schoolId }
        : { by: 'all', id: 0 };
}

/**
 * The variants of a subject test, lowest number first, each with how many live works of its room
 * (spreadGroupOf) of this diagnostic use it: what variant-spread.ts starts counting from.
 */
export async function variantUseInRoom(
  db: DbOrTx,
  pt: {
    diagnosticId: number;
    subjectTestId: number;
    classId: number | null;
    buildingId: number | null;
    schoolId: number | null;
  },
): Promise<{ id: number; used: number }[]> {
  const room = spreadGroupOf(pt);
  const group =
    room.by === 'class'
      ? sql`p.class_id = ${room.id}`
      : room.by === 'building'
        ? sql`p.building_id = ${room.id}`
        : room.by === 'school'
          ? sql`p.school_id = ${room.id}`
          : sql`true`;
  const rows = await runPrepared<{ id: number; used: number | string }>(
    db,
    `exam_variant_use_by_${room.by}`,
    sql`
    select v.id, count(w.id) as used
    from variants v
    left join exam_works w on w.variant_id = v.id and w.deleted_at is null and w.participant_test_id in (
      select p.id from participant_tests p
      where p.diagnostic_id = ${pt.diagnosticId} and p.subject_test_id = ${pt.subjectTestId} and ${group})
    where v.subject_test_id = ${pt.subjectTestId} and v.superseded_at is null
    group by v.id, v.number
    order by v.number`,
  );
  return rows.map((r) => ({ id: Number(r.id), used: Number(r.used) }));
}

// ------------------------------------------------------------------ exam works

/**
 * The participant test's live work. Every participant call reads it: calls made at the same time
 * share one statement (db/client coalesced), built and planned once (preparedOnce).
 */
export async function findLiveWork(db: DbOrTx, participantTestId: number): Promise<WorkRow | null> {
  return coalesced(db, 'exam_find_live_works', participantTestId, findLiveWorks);
}

function findLiveWorks(db: DbOrTx, participantTestIds: number[]): Promise<(WorkRow | null)[]> {
  return readByKeys(
    db,
    'exam_find_live_work',
    participantTestIds,
    'int[]',
    (d, match, name) =>
      d
        .select()
        .from(examWorks)
        .where(and(match(examWorks.participantTestId), isNull(examWorks.deletedAt)))
        .prepare(name),
    (row) => row.participantTestId,
  );
}

export async function findWork(db: DbOrTx, id: number): Promise<WorkRow | null> {
  const [row] = await db.select().from(examWorks).where(eq(examWorks.id, id));
  return row ?? null;
}

/**
 * The work row locked against a concurrent finish, pause or delete: FOR SHARE lets saves of the
 * same work run side by side, while any UPDATE of the row waits for them (and they for it).
 */
export async function lockWorkShared(tx: Tx, id: number): Promise<WorkRow | null> {
  const [row] = await tx.select().from(examWorks).where(eq(examWorks.id, id)).for('share');
  return row ?? null;
}

export async function lockWorkForUpdate(tx: Tx, id: number): Promise<WorkRow | null> {
  const [row] = await tx.select().from(examWorks).where(eq(examWorks.id, id)).for('update');
  return row ?? null;
}

export async function lockWorksForUpdate(tx: Tx, ids: number[]) {
  return tx
    .select({
      work: examWorks,
      place: {
        schoolId: participantTests.schoolId,
        classId: participantTests.classId,
        buildingId: participantTests.buildingId,
      },
    })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .where(inArray(examWorks.id, ids))
    .orderBy(asc(examWorks.id))
    .for('update', { of: examWorks });
}

/**
 * The hot path's one read: the work locked FOR SHARE together with the answer type and content of
 * one of its variant's tasks (null when the task is not in the work's variant).
 */
export async function lockWorkWithTask(tx: Tx, workId: number, variantTaskId: number) {
  const [row] = await tx
    .select({
      work: examWorks,
      task: { variantTaskId: variantTasks.id, answerType: tasks.answerType, content: tasks.content },
    })
    .from(examWorks)
    .leftJoin(
      variantTasks,
      and(eq(variantTasks.id, variantTaskId), eq(variantTasks.variantId, examWorks.variantId)),
    )
    .leftJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(eq(examWorks.id, workId))
    .for('share', { of: examWorks });
  return row ?? null;
}

export type NewWork = typeof examWorks.$inferInsert;

export interface WorkStart {
  participantTestId: number;
  /** What the start decided on: it starts nothing when the participant test or its diagnostic differ. */
  subjectTestId: number;
  extraTimePercent: number | null;
  variantId: number;
  answerMode: string;
  startedAt: Date;
  timeLimitSeconds: number;
  extraSeconds: number;
  windowEndsAt: Date;
  deadlineAt: Date;
  deviceId: string | null;
}

/**
 * Starts a work in one statement (the 10:00 storm runs it thousands of times a minute): the work
 * inserted unless a live one exists (the partial unique index decides), the participant test
 * marked in progress, the start audited. The starts of one moment share the statement and its
 * commit (db/client coalesced; two starts of one participant test never share one). Null when a
 * live work already existed (a concurrent start won).
 */
export async function startWorkOnce(
  db: DbOrTx,
  start: WorkStart,
  by: { userId: number; ip: string | null },
): Promise<WorkRow | null> {
  return coalesced(db, 'exam_start_works_once', { ...start, ...by }, startWorksOnce, (s) =>
    String(s.participantTestId),
  );
}

async function startWorksOnce(
  db: DbOrTx,
  starts: (WorkStart & { userId: number; ip: string | null })[],
): Promise<(WorkRow | null)[]> {
  const column = batchColumns(starts);
  const rows = await runPrepared<Record<string, unknown> & { ord: number | string }>(
    db,
    'exam_start_works_once',
    sql`
    with i as (
      select * from unnest(${column((s) => s.participantTestId, 'int[]')}, ${column((s) => s.variantId, 'int[]')},
                           ${column((s) => s.answerMode, 'text[]')}, ${column((s) => s.startedAt.toISOString(), 'timestamptz[]')},
                           ${column((s) => s.timeLimitSeconds, 'int[]')}, ${column((s) => s.extraSeconds, 'int[]')},
                           ${column((s) => s.windowEndsAt.toISOString(), 'timestamptz[]')},
                           ${column((s) => s.deadlineAt.toISOString(), 'timestamptz[]')},
                           ${column((s) => s.deviceId, 'text[]')}, ${column((s) => s.userId, 'int[]')},
                           ${column((s) => s.ip, 'inet[]')}, ${column((s) => s.subjectTestId, 'int[]')},
                           ${column((s) => s.extraTimePercent, 'int[]')})
        with ordinality as i(pt_id, variant_id, answer_mode, started_at, time_limit_seconds, extra_seconds,
                             window_ends_at, deadline_at, device_id, user_id, ip, subject_test_id,
                             extra_time_percent, ord)
    ), open_diagnostic as (
      -- No work starts once the results have been published (docs/design.md §3). The key-share
      -- lock makes a start and a publication (which locks the row for update) wait for each other:
      -- a start that waited reads the published row and starts nothing; a publication that waited
      -- counts the started work as unfinished. Nor does one start when the participant test or its
      -- diagnostic is no longer as the start read it (the code login's copy, lib/start-prime.ts):
      -- deleted, annulled or finished, another subject test, another window, other extra time.
      select p.id as pt_id
      from i join participant_tests p on p.id = i.pt_id join diagnostics d on d.id = p.diagnostic_id
      left join students s on s.id = p.student_id left join workers k on k.id = p.worker_id
      where d.first_published_at is null and p.deleted_at is null and d.deleted_at is null
        and p.status not in ('annulled', 'finished', 'scored', 'published')
        and p.subject_test_id = i.subject_test_id
        and d.starts_at <= i.started_at
        and d.ends_at > i.window_ends_at - interval '1 millisecond'
        and d.ends_at < i.window_ends_at + interval '1 millisecond'
        and (coalesce(s.accommodations, k.accommodations) ->> 'extraTimePercent')::int
            is not distinct from i.extra_time_percent
      for key share of d
    ), w as (
      insert into exam_works (participant_test_id, variant_id, status, answer_mode, started_at, time_limit_seconds,
                              extra_seconds, paused_seconds, window_ends_at, deadline_at, device_id)
      select pt_id, variant_id, 'in_progress', answer_mode, started_at, time_limit_seconds, extra_seconds, 0,
             window_ends_at, deadline_at, device_id
      from i where pt_id in (select pt_id from open_diagnostic) order by pt_id
      on conflict (participant_test_id) where deleted_at is null do nothing
      returning *
    ), pt as (
      update participant_tests p set status = 'in_progress', updated_at = now()
      from w where p.id = w.participant_test_id and p.status in ('planned', 'active')
    ), log as (
      insert into audit_events (user_id, action, entity, entity_id, details, ip)
      select i.user_id, 'exam_work.start', 'exam_work', w.id::text,
             jsonb_build_object('participantTestId', w.participant_test_id, 'variantId', w.variant_id,
                                'answerMode', w.answer_mode),
             i.ip
      from w join i on i.pt_id = w.participant_test_id
    )
    select i.ord, w.* from w join i on i.pt_id = w.participant_test_id`,
  );
  const started: (WorkRow | null)[] = starts.map(() => null);
  for (const row of rows) started[Number(row.ord) - 1] = fromRow(examWorks, row);
  return started;
}

/**
 * The session's participant test (with its diagnostic window) and its live work, in one read;
 * the starts of one moment share one statement (db/client coalesced).
 */
export async function findTestWithLiveWork(db: DbOrTx, participantTestId: number) {
  return coalesced(db, 'exam_find_tests_with_live_work', participantTestId, findTestsWithLiveWork);
}

function findTestsWithLiveWork(db: DbOrTx, participantTestIds: number[]) {
  return readByKeys(
    db,
    'exam_find_test_with_live_work',
    participantTestIds,
    'int[]',
    (d, match, name) =>
      d
        .select({
          pt: ptColumns,
          work: examWorks,
          // The student's or worker's accommodated extra time (docs/accommodations.md), added when a
          // work starts.
          extraTimePercent: sql<
            number | null
          >`(coalesce(${students.accommodations}, ${workers.accommodations}) ->> 'extraTimePercent')::int`,
        })
        .from(participantTests)
        .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
        .leftJoin(students, eq(students.id, participantTests.studentId))
        .leftJoin(workers, eq(workers.id, participantTests.workerId))
        .leftJoin(
          examWorks,
          and(eq(examWorks.participantTestId, participantTests.id), isNull(examWorks.deletedAt)),
        )
        .where(
          and(match(participantTests.id), isNull(participantTests.deletedAt), isNull(diagnostics.deletedAt)),
        )
        .prepare(name),
    (row) => row.pt.id,
  );
}

/**
 * A finished work created from a paper form (no online sitting); null when the participant test got
 * a live work meanwhile (the partial unique index decides, as for a start).
 */
export async function insertPaperWork(tx: Tx, values: NewWork): Promise<WorkRow | null> {
  const [row] = await tx.insert(examWorks).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

/** Locks a live participant test row: one paper-only keying of it at a time. */
export async function lockParticipantTest(tx: Tx, id: number): Promise<boolean> {
  const rows = await tx
    .select({ id: participantTests.id })
    .from(participantTests)
    .where(and(eq(participantTests.id, id), isNull(participantTests.deletedAt)))
    .for('update');
  return rows.length > 0;
}

export async function updateWork(db: DbOrTx, id: number, values: Partial<NewWork>): Promise<WorkRow> {
  const [row] = await db
    .update(examWorks)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(examWorks.id, id))
    .returning();
  return row!;
}

// ------------------------------------------------------------------ pauses

export async function openPauseOf(db: DbOrTx, workId: number) {
  const [row] = await db
    .select({
      id: examWorkPauses.id,
      pausedBy: examWorkPauses.pausedBy,
      reason: examWorkPauses.reason,
      // A pause made by staff (examWorkIds): only staff may lift it.
      byStaff: examWorkPauses.byStaff,
      restBreak: examWorkPauses.restBreak,
    })
    .from(examWorkPauses)
    .where(and(eq(examWorkPauses.examWorkId, workId), isNull(examWorkPauses.endedAt)))
    .orderBy(asc(examWorkPauses.id))
    .limit(1);
  return row ?? null;
}

export async function insertPause(
  db: DbOrTx,
  values: {
    examWorkId: number;
    startedAt: Date;
    pausedBy: number;
    byStaff: boolean;
    reason: string | null;
    restBreak?: boolean;
  },
): Promise<void> {
  await db.insert(examWorkPauses).values(values);
}

export async function closePauses(db: DbOrTx, workId: number, endedAt: Date, resumedBy: number | null) {
  await db
    .update(examWorkPauses)
    .set({ endedAt, resumedBy })
    .where(and(eq(examWorkPauses.examWorkId, workId), isNull(examWorkPauses.endedAt)));
}

/**
 * How much of an allowance a work's own pauses used: their number and seconds (an open one up to
 * `now`). Rest breaks and plain pauses are counted apart: each has an allowance of its own.
 */
export async function ownPauseUsage(db: DbOrTx, workId: number, now: Date, restBreak = false) {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      seconds: sql<number>`coalesce(sum(greatest(0, floor(extract(epoch from (coalesce(${examWorkPauses.endedAt}, ${now.toISOString()}::timestamptz) - ${examWorkPauses.startedAt}))))), 0)::int`,
    })
    .from(examWorkPauses)
    .where(
      and(
        eq(examWorkPauses.examWorkId, workId),
        eq(examWorkPauses.byStaff, false),
        eq(examWorkPauses.restBreak, restBreak),
      ),
    );
  return { count: Number(row?.count ?? 0), seconds: Number(row?.seconds ?? 0) };
}

/**
 * Rest break minutes of the student or worker sitting a participant test (docs/accommodations.md);
 * 0: none.
 */
export async function restBreakMinutesOf(db: DbOrTx, participantTestId: number): Promise<number> {
  const [row] = await db
    .select({
      minutes: sql<
        number | null
      >`(coalesce(${students.accommodations}, ${workers.accommodations}) ->> 'restBreakMinutes')::int`,
    })
    .from(participantTests)
    .leftJoin(students, eq(students.id, participantTests.studentId))
    .leftJoin(workers, eq(workers.id, participantTests.workerId))
    .where(eq(participantTests.id, participantTestId));
  return Number(row?.minutes ?? 0);
}

/** The participant pause policy of the subject test of a participant test (read fresh: admins edit it). */
export async function pausePolicyOf(db: DbOrTx, participantTestId: number) {
  const [row] = await db
    .select({
      allowed: subjectTests.participantPauseAllowed,
      maxCount: subjectTests.participantPauseMaxCount,
      maxMinutes: subjectTests.participantPauseMaxMinutes,
    })
    .from(participantTests)
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .where(eq(participantTests.id, participantTestId));
  return row ?? null;
}

// ------------------------------------------------------------------ answers

/** A work's answers (by task) and their attached files (by file id). */
export async function answersOf(db: DbOrTx, workId: number) {
  return (await answersOfWorks(db, [workId])).get(workId)!;
}

/** answersOf for many works at once (batch scoring): two statements, whatever the number of works. */
export async function answersOfWorks(db: DbOrTx, workIds: readonly number[]) {
  const ids = [...workIds];
  const rows = ids.length
    ? await db
        .select({
          examWorkId: answers.examWorkId,
          variantTaskId: answers.variantTaskId,
          value: answerValue,
          seq: answers.seq,
          savedAt: answers.savedAt,
          answerMode: answers.answerMode,
        })
        .from(answers)
        .where(inArray(answers.examWorkId, ids))
        .orderBy(asc(answers.examWorkId), asc(answers.variantTaskId))
    : [];
  const attached = ids.length
    ? await db
        .select({
          examWorkId: answerFiles.examWorkId,
          variantTaskId: answerFiles.variantTaskId,
          fileId: answerFiles.fileId,
        })
        .from(answerFiles)
        .where(inArray(answerFiles.examWorkId, ids))
        .orderBy(asc(answerFiles.examWorkId), asc(answerFiles.fileId))
    : [];
  type Row = Omit<(typeof rows)[number], 'examWorkId'>;
  type File = Omit<(typeof attached)[number], 'examWorkId'>;
  const out = new Map(ids.map((id) => [id, { rows: [] as Row[], attached: [] as File[] }]));
  for (const { examWorkId, ...row } of rows) out.get(examWorkId)?.rows.push(row);
  for (const { examWorkId, ...file } of attached) out.get(examWorkId)?.attached.push(file);
  return out;
}

export interface AnswerWrite {
  variantTaskId: number;
  value: unknown;
  seq: number;
}

export interface WriteMeta {
  examWorkId: number;
  answerMode: string;
  source: 'participant' | 'staff';
  savedBy: number;
  /** Staff keying a paper form set the mode of the rows they write to blank. */
  forceMode: boolean;
}

/**
 * One statement for any number of answers: a row applies only when its seq is newer than the
 * stored one, so a retry or a late, older delivery never overwrites newer data. Returns the rows
 * that applied; the caller reads back the others.
 */
export async function upsertAnswers(tx: Tx, meta: WriteMeta, list: AnswerWrite[]) {
  const now = new Date();
  return tx
    .insert(answers)
    .values(
      list.map((a) => ({
        examWorkId: meta.examWorkId,
        variantTaskId: a.variantTaskId,
        value: a.value,
        seq: a.seq,
        answerMode: meta.answerMode,
        source: meta.source,
        savedBy: meta.savedBy,
        savedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: [answers.examWorkId, answers.variantTaskId],
      set: {
        value: sql`excluded.value`,
        seq: sql`excluded.seq`,
        source: sql`excluded.source`,
        savedBy: sql`excluded.saved_by`,
        savedAt: sql`excluded.saved_at`,
        ...(meta.forceMode ? { answerMode: sql`excluded.answer_mode` } : {}),
      },
      setWhere: sql`${answers.seq} < excluded.seq`,
    })
    .returning({ variantTaskId: answers.variantTaskId, seq: answers.seq, savedAt: answers.savedAt });
}

/** The stored rows of answers that did not apply, with whether their value equals the one sent. */
export async function storedAnswers(tx: Tx, workId: number, list: AnswerWrite[]) {
  if (!list.length) return [];
  const sent = new Map(list.map((a) => [a.variantTaskId, a]));
  const rows = await tx
    .select({
      variantTaskId: answers.variantTaskId,
      seq: answers.seq,
      savedAt: answers.savedAt,
      value: answerValue,
    })
    .from(answers)
    .where(and(eq(answers.examWorkId, workId), inArray(answers.variantTaskId, [...sent.keys()])));
  // jsonb equality ignores key order and spacing, as the database stores it.
  return rows.map((r) => ({ ...r, sent: sent.get(r.variantTaskId)! }));
}

export async function setAnswerMode(db: DbOrTx, workId: number, variantTaskId: number, mode: string) {
  await db
    .insert(answers)
    .values({ examWorkId: workId, variantTaskId, value: null, seq: 0, answerMode: mode })
    .onConflictDoUpdate({ target: [answers.examWorkId, answers.variantTaskId], set: { answerMode: mode } });
}

export async function setAllAnswerModes(db: DbOrTx, workId: number, mode: string) {
  await db.update(answers).set({ answerMode: mode }).where(eq(answers.examWorkId, workId));
}

// ------------------------------------------------------------------ answer files

export async function attachedFileIds(tx: Tx, workId: number, variantTaskIds: number[]) {
  if (!variantTaskIds.length) return [];
  return tx
    .select({ variantTaskId: answerFiles.variantTaskId, fileId: answerFiles.fileId })
    .from(answerFiles)
    .where(and(eq(answerFiles.examWorkId, workId), inArray(answerFiles.variantTaskId, variantTaskIds)));
}

export async function insertAnswerFile(
  tx: Tx,
  workId: number,
  variantTaskId: number,
  {
    bytes,
    ...file
  }: { name: string; mime: string; size: number; sha256: string; bytes: StoredBytes; createdBy: number },
): Promise<number> {
  const [row] = await tx
    .insert(files)
    .values({ ownerType: 'answer', ownerId: workId, ...file, ...bytes })
    .returning({ id: files.id });
  await tx.insert(answerFiles).values({ examWorkId: workId, variantTaskId, fileId: row!.id });
  return row!.id;
}

// ------------------------------------------------------------------ quiz

export async function findQuiz(db: DbOrTx, id: number) {
  const [row] = await db.select().from(quizzes).where(eq(quizzes.id, id));
  return row ?? null;
}

export async function findQuizAnswers(db: DbOrTx, participantTestId: number) {
  const [row] = await db
    .select()
    .from(quizAnswers)
    .where(eq(quizAnswers.participantTestId, participantTestId));
  return row ?? null;
}

export async function upsertQuizAnswers(
  db: DbOrTx,
  values: { participantTestId: number; quizId: number; answers: Record<string, string | string[]> },
) {
  const savedAt = new Date();
  await db
    .insert(quizAnswers)
    .values({ ...values, savedAt })
    .onConflictDoUpdate({
      target: quizAnswers.participantTestId,
      set: { quizId: values.quizId, answers: values.answers, savedAt },
    });
  return savedAt;
}

// ------------------------------------------------------------------ sweeper

/**
 * Finishes every expired work in one statement, so several instances can sweep at once: each row
 * is updated (and returned) by exactly one of them. Running works end at their deadline; paused
 * ones whose window closed end at the window's end. Their participant tests and open pauses follow.
 */
export async function finishExpired(db: Db, now: Date) {
  const at = sql`${now.toISOString()}::timestamptz`;
  const result = await db.execute(sql`
    with done as (
      update exam_works w
      set status = 'finished',
          finish_reason = 'timeout',
          finished_at = case when w.status = 'paused' then w.window_ends_at else w.deadline_at end,
          paused_at = null,
          updated_at = ${at}
      where w.deleted_at is null
        and ((w.status = 'in_progress' and w.deadline_at <= ${at})
          or (w.status = 'paused' and w.window_ends_at <= ${at}))
      returning w.id, w.participant_test_id, w.finished_at
    ), tests as (
      update participant_tests p set status = 'finished', updated_at = ${at}
      from done where p.id = done.participant_test_id and p.status in ('planned', 'active', 'in_progress')
      returning p.id
    ), pauses as (
      update exam_work_pauses q set ended_at = done.finished_at
      from done where q.exam_work_id = done.id and q.ended_at is null
      returning q.id
    )
    select id, participant_test_id as "participantTestId" from done`);
  return rowsOf<{ id: number; participantTestId: number }>(result).map((r) => ({
    id: Number(r.id),
    participantTestId: Number(r.participantTestId),
  }));
}

/**
 * Ends every participant's own pause that reached its end (`paused_until`): the clock runs again as
 * from that instant, crediting exactly the allowance. One statement, safe from several instances.
 */
export async function resumeOverduePauses(db: Db, now: Date) {
  const at = sql`${now.toISOString()}::timestamptz`;
  const result = await db.execute(sql`
    with due as (
      select id, paused_until,
             paused_seconds + greatest(0, floor(extract(epoch from (paused_until - paused_at))))::int as paused
      from exam_works
      where status = 'paused' and paused_until is not null and paused_until <= ${at}
        and finished_at is null and deleted_at is null
      for update skip locked
    ), up as (
      update exam_works w
      set status = 'in_progress', paused_at = null, paused_until = null, paused_seconds = due.paused,
          deadline_at = least(w.started_at + (w.time_limit_seconds + w.extra_seconds + due.paused) * interval '1 second',
                              w.window_ends_at),
          updated_at = ${at}
      from due where w.id = due.id
      returning w.id, w.participant_test_id, due.paused_until
    ), pauses as (
      update exam_work_pauses q set ended_at = up.paused_until
      from up where q.exam_work_id = up.id and q.ended_at is null
      returning q.id
    )
    select id, participant_test_id as "participantTestId" from up`);
  return rowsOf<{ id: number; participantTestId: number }>(result).map((r) => ({
    id: Number(r.id),
    participantTestId: Number(r.participantTestId),
  }));
}

// ------------------------------------------------------------------ the save fast path

export interface FastSave {
  workId: number;
  participantTestId: number;
  variantTaskId: number;
  value: unknown;
  seq: number;
  userId: number;
  deviceId: string | null;
  now: Date;
}

/**
 * Participants' saves in ONE statement (the hot path at 10:00; see save-batcher.ts): each work is
 * locked FOR SHARE (in id order), each save checked — the participant's own work, running,
 * unpaused, before its deadline, on its device, the task in its variant — and upserted only over
 * an older seq. The row lock makes a concurrent finish wait (or the save see it finished).
 * Answers, per input index, the applied seq and time, or null: the caller then explains why.
 * No two saves of one batch may name the same (work, task).
 */
export async function saveAnswersFast(db: Db, saves: FastSave[]) {
  const column = batchColumns(saves);
  const rows = await runPrepared<{ ord: number | string; seq: number; saved_at: string | Date }>(
    db,
    'exam_save_answers_fast',
    sql`
    with i as (
      select * from unnest(${column((s) => s.workId, 'int[]')}, ${column((s) => s.participantTestId, 'int[]')},
                           ${column((s) => s.variantTaskId, 'int[]')}, ${column((s) => JSON.stringify(s.value), 'text[]')},
                           ${column((s) => s.seq, 'int[]')}, ${column((s) => s.userId, 'int[]')},
                           ${column((s) => s.deviceId, 'text[]')}, ${column((s) => s.now.toISOString(), 'timestamptz[]')})
        with ordinality as i(work_id, pt_id, vt_id, value, seq, user_id, device_id, at, ord)
    ), w as (
      select id, participant_test_id, variant_id, status, answer_mode, paused_at, finished_at, deleted_at, device_id,
             -- the deadline from its parts, exactly as lib/work-clock.ts computeDeadline
             least(started_at + (time_limit_seconds + extra_seconds + paused_seconds) * interval '1 second',
                   window_ends_at) as deadline
      from exam_works where id in (select work_id from i) order by id for share
    ), ok as (
      select i.work_id, i.vt_id, i.value, i.seq, i.user_id, i.at, w.answer_mode from i join w on w.id = i.work_id
      where w.participant_test_id = i.pt_id
        and w.deleted_at is null and w.finished_at is null and w.status = 'in_progress' and w.paused_at is null
        and w.deadline > i.at
        and (w.device_id is null or i.device_id is null or w.device_id = i.device_id)
        and exists (select 1 from variant_tasks vt where vt.id = i.vt_id and vt.variant_id = w.variant_id)
    ), up as (
      insert into answers (exam_work_id, variant_task_id, value, seq, answer_mode, source, saved_by, saved_at)
      select work_id, vt_id, value::jsonb, seq, answer_mode, 'participant', user_id, at from ok
      on conflict (exam_work_id, variant_task_id) do update
        set value = excluded.value, seq = excluded.seq, source = excluded.source,
            saved_by = excluded.saved_by, saved_at = excluded.saved_at
        where answers.seq < excluded.seq
      returning exam_work_id, variant_task_id, seq, saved_at
    )
    select i.ord, up.seq, up.saved_at from i join up on up.exam_work_id = i.work_id and up.variant_task_id = i.vt_id
  `,
  );
  const applied: ({ seq: number; savedAt: Date } | null)[] = saves.map(() => null);
  for (const r of rows) applied[Number(r.ord) - 1] = { seq: Number(r.seq), savedAt: new Date(r.saved_at) };
  return applied;
}

/** The answer type and participant-visible content of a variant task (immutable during a test). */
export async function variantTaskDef(db: Db, variantTaskId: number) {
  const [row] = await db
    .select({ variantId: variantTasks.variantId, answerType: tasks.answerType, content: tasks.content })
    .from(variantTasks)
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(eq(variantTasks.id, variantTaskId));
  return row ?? null;
}

/** Attempts of a second device one work event stands for: one a minute at most (a start page rechecks). */
export const SECOND_DEVICE_NOTE_GAP_SECONDS = 60;

/**
 * A second device was refused the work (its start page, or its start call): a `second_device`
 * work event for the room's log and the protocol — unless one was noted in the last minute, so a
 * page that rechecks does not flood the log. The device's id is not kept.
 */
export async function noteSecondDevice(db: DbOrTx, workId: number, now: Date): Promise<void> {
  const since = new Date(now.getTime() - SECOND_DEVICE_NOTE_GAP_SECONDS * 1000);
  await db.execute(sql`insert into exam_work_events (exam_work_id, at, kind, details)
    select ${workId}, ${now.toISOString()}::timestamptz, 'second_device', '{"source":"server"}'::jsonb
    where not exists (select 1 from exam_work_events e
      where e.exam_work_id = ${workId} and e.kind = 'second_device'
        and e.at > ${since.toISOString()}::timestamptz)`);
}
