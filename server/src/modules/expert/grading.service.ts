import type { Actor } from '../../auth/actor.js';
import { randomInt } from 'node:crypto';
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { ExpertMarksBody } from '@attesta/contract';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import {
  classes,
  examWorks,
  expertAssignments,
  expertMarks,
  participantTests,
  subjectExams,
  subjectTests,
  taskScores,
  tasks,
  userRoles,
  users,
  variantTasks,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { schoolDay, schoolInstant } from '../../lib/calendar.js';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.js';
import { publish } from '../../events/domain-events.js';

/*
 * Blind double marking (docs/design.md §3). Each answer awaiting experts gets rounds 1 and 2 with two
 * different experts under one anonymous code; when their totals differ by more than the task's
 * thirdCheckThreshold a third expert (neither of the two) grades it. Final mark:
 *   - rounds 1 and 2 agree (|t1 − t2| ≤ threshold): the mean of the two, whatever the rule;
 *   - after a third check: rule 'third' → the third expert's total; rule 'mean' → mean of all three.
 * Means are rounded to the nearest 0.5, halves up (in the participant's favour), never above max.
 */

/** Serialises expert choice so load counts and max-per-day hold under concurrency. */
const ASSIGN_LOCK = 0x45585041; // 'EXPA'
const ANON_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

export interface ExpertProfileData {
  subjectIds: number[];
  /** Subject tests an admin assigned the expert to: graded whatever the grade. */
  subjectTestIds: number[];
  parallels: number[];
  maxPerDay: number | null;
}

/** The expert part of users.profile (key `expert`), tolerant of anything malformed. */
export function expertProfileOf(profile: Record<string, unknown> | null | undefined): ExpertProfileData {
  const raw = (profile?.expert ?? {}) as Record<string, unknown>;
  const ints = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)) : []);
  return {
    subjectIds: ints(raw.subjectIds),
    subjectTestIds: ints(raw.subjectTestIds),
    parallels: ints(raw.parallels),
    maxPerDay: typeof raw.maxPerDay === 'number' ? raw.maxPerDay : null,
  };
}

/**
 * Whether an expert's profile lets them grade a work (docs/design.md §3): assigned to its subject
 * test (any grade), or grading its subject in one of the work's grades (its class's grade, else the
 * test's grades).
 */
export function canGrade(
  expert: Pick<ExpertProfileData, 'subjectIds' | 'subjectTestIds' | 'parallels'>,
  work: { subjectId: number; subjectTestId: number; grades: readonly number[] },
): boolean {
  return (
    expert.subjectTestIds.includes(work.subjectTestId) ||
    (expert.subjectIds.includes(work.subjectId) && expert.parallels.some((g) => work.grades.includes(g)))
  );
}

export const roundHalf = (x: number) => Math.round(x * 2) / 2;

function newAnonCode(): string {
  const pick = (n: number) =>
    Array.from({ length: n }, () => ANON_ALPHABET[randomInt(ANON_ALPHABET.length)]).join('');
  return `A-${pick(4)}-${pick(2)}`;
}

/** `n` anonymous codes, unused and distinct from each other: one look-up for all of them (a clash is rare). */
async function uniqueAnonCodes(db: DbOrTx, n: number): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < n) {
    const fresh = new Set<string>();
    while (codes.size + fresh.size < n) {
      const code = newAnonCode();
      if (!codes.has(code)) fresh.add(code);
    }
    const taken = await db
      .select({ anonCode: expertAssignments.anonCode })
      .from(expertAssignments)
      .where(inArray(expertAssignments.anonCode, [...fresh]));
    for (const t of taken) fresh.delete(t.anonCode);
    for (const code of fresh) codes.add(code);
  }
  return [...codes];
}

/** Who wrote each work and what it is about: what expert matching needs. */
async function worksFacts(db: DbOrTx, examWorkIds: number[]) {
  return db
    .select({
      examWorkId: examWorks.id,
      studentId: participantTests.studentId,
      workerId: participantTests.workerId,
      subjectId: subjectExams.subjectId,
      subjectTestId: subjectTests.id,
      testParallels: subjectTests.parallels,
      classParallel: classes.parallelId,
    })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .leftJoin(classes, eq(classes.id, participantTests.classId))
    .where(inArray(examWorks.id, examWorkIds));
}

type WorkFacts = Awaited<ReturnType<typeof worksFacts>>[number];

/** An expert who may grade, with their load as this transaction sees it (kept up to date in memory). */
interface Candidate {
  id: number;
  open: number;
  today: number;
  maxPerDay: number | null;
  subjectIds: number[];
  subjectTestIds: number[];
  parallels: number[];
  studentId: number | null;
  workerId: number | null;
}

/** SQL: the user's expert profile names one of these subjects or subject tests. */
export function profileNames(subjectIds: readonly number[], subjectTestIds: readonly number[]) {
  const has = (key: string, id: number) =>
    sql`${users.profile} -> 'expert' -> ${key} @> ${JSON.stringify([id])}::jsonb`;
  const parts = [
    ...subjectIds.map((id) => has('subjectIds', id)),
    ...subjectTestIds.map((id) => has('subjectTestIds', id)),
  ];
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
}

/**
 * The experts of the given subjects or subject tests (or the one expert `onlyId`) with their load —
 * open assignments and today's — counted once for the whole call (under the assignment lock, so no
 * one else changes them meanwhile): a batch of works costs one count, not one per work, and each
 * pick updates the counts in memory.
 */
async function expertsWithLoad(
  db: DbOrTx,
  of: { subjectIds: readonly number[]; subjectTestIds: readonly number[] } | { onlyId: number },
): Promise<Map<number, Candidate>> {
  const out = new Map<number, Candidate>();
  if ('subjectIds' in of && !of.subjectIds.length && !of.subjectTestIds.length) return out;
  const rows = await db
    .select({ id: users.id, profile: users.profile, studentId: users.studentId, workerId: users.workerId })
    .from(users)
    .innerJoin(userRoles, and(eq(userRoles.userId, users.id), eq(userRoles.role, 'expert')))
    .where(
      and(
        eq(users.isBlocked, false),
        'onlyId' in of ? eq(users.id, of.onlyId) : profileNames(of.subjectIds, of.subjectTestIds),
      ),
    );
  if (!rows.length) return out;
  const day = schoolDay();
  const dayStart = schoolInstant(day).toISOString();
  const dayEnd = new Date(schoolInstant(day).getTime() + 86_400_000).toISOString();
  const loads = await db
    .select({
      expertId: expertAssignments.expertId,
      open: sql<number>`count(*) filter (where ${expertAssignments.status} = 'assigned')::int`,
      today: sql<number>`count(*) filter (where ${expertAssignments.assignedAt} >= ${dayStart}::timestamptz and ${expertAssignments.assignedAt} < ${dayEnd}::timestamptz)::int`,
    })
    .from(expertAssignments)
    .where(
      inArray(
        expertAssignments.expertId,
        rows.map((r) => r.id),
      ),
    )
    .groupBy(expertAssignments.expertId);
  const loadOf = new Map(loads.map((l) => [l.expertId, l]));
  for (const r of rows) {
    const p = expertProfileOf(r.profile);
    out.set(r.id, {
      id: r.id,
      open: Number(loadOf.get(r.id)?.open ?? 0),
      today: Number(loadOf.get(r.id)?.today ?? 0),
      maxPerDay: p.maxPerDay,
      subjectIds: p.subjectIds,
      subjectTestIds: p.subjectTestIds,
      parallels: p.parallels,
      studentId: r.studentId,
      workerId: r.workerId,
    });
  }
  return out;
}

/** Experts whose profile matches the work (canGrade); never its author. */
function candidatesFor(experts: Map<number, Candidate>, facts: WorkFacts): Candidate[] {
  const work = {
    subjectId: facts.subjectId,
    subjectTestId: facts.subjectTestId,
    grades: facts.classParallel !== null ? [facts.classParallel] : facts.testParallels,
  };
  return [...experts.values()].filter(
    (c) =>
      canGrade(c, work) &&
      !(facts.studentId !== null && c.studentId === facts.studentId) &&
      !(facts.workerId !== null && c.workerId === facts.workerId),
  );
}

/** Whether an expert has reached their daily limit. */
const atLimit = (c: Candidate) => c.maxPerDay !== null && c.today >= c.maxPerDay;

/** The least loaded candidate not excluded and under their daily limit (ties: fewer today, lower id). */
function pickExpert(candidates: Candidate[], exclude: Set<number>): Candidate | null {
  const free = candidates.filter((c) => !exclude.has(c.id) && !atLimit(c));
  free.sort((a, b) => a.open - b.open || a.today - b.today || a.id - b.id);
  return free[0] ?? null;
}

/** The difference of round totals beyond which a third expert grades (the task's scoring, default 1). */
export function thresholdOf(scoring: Record<string, unknown> | null | undefined): number {
  const t = scoring?.thirdCheckThreshold;
  return typeof t === 'number' && t >= 0 ? t : 1;
}

export interface AssignOutcome {
  created: number;
  /** Rounds that could not get an expert (no match, all at their limit): assignPending retries. */
  queued: number;
}

interface ManyOutcome extends AssignOutcome {
  /** With `onlyId`: rounds the expert may not take, grading another round of the same answer. */
  otherExpert: number;
  /** With `onlyId`: rounds the expert could take once their daily limit allows. */
  dailyLimit: number;
}

export interface AssignOptions {
  /** Give rounds to this expert only (an expert taking answers that wait): no one else is told. */
  onlyId?: number;
  /** Stop after this many rounds. */
  limit?: number;
  /** Count what would be given, write nothing. */
  dryRun?: boolean;
}

/** Rows inserted at once at most (a statement's parameters are limited). */
const INSERT_CHUNK = 2000;

/**
 * Assigns experts to every task of the work awaiting them (task_scores.status 'awaiting_experts'):
 * rounds 1 and 2 to two different matching experts under one anonymous code, and round 3 where
 * the two disagree beyond the threshold. Idempotent: rounds that exist are kept. Call inside the
 * transaction that scored the work; rounds without a free expert stay queued for assignPending.
 */
export async function assignExperts(tx: DbOrTx, examWorkId: number): Promise<AssignOutcome> {
  const { created, queued } = await assignExpertsMany(tx, [examWorkId]);
  return { created, queued };
}

/**
 * assignExperts for many works in one transaction (batch scoring), with the same choices as
 * assigning them one after another in id order: the experts' load is read once and kept in
 * memory as answers are given out, and every read and insert covers all the works at once.
 */
export async function assignExpertsMany(
  tx: DbOrTx,
  examWorkIds: readonly number[],
  options: AssignOptions = {},
): Promise<ManyOutcome> {
  const outcome: ManyOutcome = { created: 0, queued: 0, otherExpert: 0, dailyLimit: 0 };
  const ids = [...new Set(examWorkIds)].sort((a, b) => a - b);
  if (!ids.length) return outcome;
  if (!options.dryRun) await tx.execute(sql`select pg_advisory_xact_lock(${ASSIGN_LOCK})`);
  const awaiting = await tx
    .select({
      examWorkId: taskScores.examWorkId,
      variantTaskId: taskScores.variantTaskId,
      scoring: tasks.scoring,
    })
    .from(taskScores)
    .innerJoin(variantTasks, eq(variantTasks.id, taskScores.variantTaskId))
    .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
    .where(and(inArray(taskScores.examWorkId, ids), eq(taskScores.status, 'awaiting_experts')))
    .orderBy(asc(taskScores.examWorkId), asc(variantTasks.position));
  if (!awaiting.length) return outcome;
  const workIds = [...new Set(awaiting.map((a) => a.examWorkId))];
  const factsOf = new Map((await worksFacts(tx, workIds)).map((f) => [f.examWorkId, f]));
  const experts = await expertsWithLoad(
    tx,
    options.onlyId !== undefined
      ? { onlyId: options.onlyId }
      : {
          subjectIds: [...new Set([...factsOf.values()].map((f) => f.subjectId))],
          subjectTestIds: [...new Set([...factsOf.values()].map((f) => f.subjectTestId))],
        },
  );
  const limit = options.limit ?? Infinity;
  // Every round of these works, in one query (a work's code is reused: the zip's folders are `<anonCode>-<position>`).
  const existingRows = await tx
    .select({
      examWorkId: expertAssignments.examWorkId,
      variantTaskId: expertAssignments.variantTaskId,
      round: expertAssignments.round,
      expertId: expertAssignments.expertId,
      anonCode: expertAssignments.anonCode,
      status: expertAssignments.status,
      total: expertAssignments.total,
    })
    .from(expertAssignments)
    .where(inArray(expertAssignments.examWorkId, workIds))
    .orderBy(asc(expertAssignments.id));
  // Answers given to each expert (by user id) in this call: they are told so once, with the count.
  const assigned = new Map<number, number>();
  const inserts: (typeof expertAssignments.$inferInsert)[] = [];
  const needCode: (typeof expertAssignments.$inferInsert)[][] = [];

  for (const examWorkId of workIds) {
    const facts = factsOf.get(examWorkId);
    if (!facts) continue;
    const candidates = candidatesFor(experts, facts);
    const ofWork = existingRows.filter((a) => a.examWorkId === examWorkId);
    const workCode = ofWork[0]?.anonCode ?? null;
    const workInserts: (typeof expertAssignments.$inferInsert)[] = [];
    for (const item of awaiting.filter((a) => a.examWorkId === examWorkId)) {
      const existing = ofWork.filter((a) => a.variantTaskId === item.variantTaskId);
      const byRound = new Map(existing.map((a) => [a.round, a]));
      const needed: number[] = [1, 2].filter((r) => !byRound.has(r));
      const [r1, r2] = [byRound.get(1), byRound.get(2)];
      if (
        !byRound.has(3) &&
        r1?.status === 'graded' &&
        r2?.status === 'graded' &&
        Math.abs((r1.total ?? 0) - (r2.total ?? 0)) > thresholdOf(item.scoring)
      )
        needed.push(3);
      const exclude = new Set(existing.map((a) => a.expertId));
      for (const round of needed) {
        const expert = outcome.created < limit ? pickExpert(candidates, exclude) : null;
        if (!expert) {
          outcome.queued++;
          // The one expert asked about: why this round is not theirs.
          const only = options.onlyId !== undefined ? candidates[0] : undefined;
          if (only && exclude.has(only.id)) outcome.otherExpert++;
          else if (only && atLimit(only)) {
            outcome.dailyLimit++;
            exclude.add(only.id); // one round of an answer at most: the next needs another expert
          }
          continue;
        }
        workInserts.push({
          examWorkId,
          variantTaskId: item.variantTaskId,
          expertId: expert.id,
          round,
          anonCode: workCode ?? '',
        });
        exclude.add(expert.id);
        expert.open++;
        expert.today++;
        outcome.created++;
        assigned.set(expert.id, (assigned.get(expert.id) ?? 0) + 1);
      }
    }
    if (workInserts.length && workCode === null) needCode.push(workInserts);
    inserts.push(...workInserts);
  }
  if (options.dryRun) return outcome;
  // One new code per work that had none, looked up together.
  const codes = await uniqueAnonCodes(tx, needCode.length);
  needCode.forEach((rows, i) => rows.forEach((r) => (r.anonCode = codes[i]!)));
  for (let i = 0; i < inserts.length; i += INSERT_CHUNK)
    await tx.insert(expertAssignments).values(inserts.slice(i, i + INSERT_CHUNK));
  // An expert who took waiting answers themselves needs no notification of it.
  if (assigned.size && options.onlyId === undefined) await publish('expertsAssigned', { db: tx, assigned });
  return outcome;
}

/** SQL on task_scores: an answer awaiting experts that lacks a round someone works on (assignPending's). */
const lacksExpert = sql`${taskScores.status} = 'awaiting_experts' and (
  (select count(*) from ${expertAssignments} a where a.exam_work_id = ${taskScores.examWorkId} and a.variant_task_id = ${taskScores.variantTaskId}) < 2
  or not exists (select 1 from ${expertAssignments} a where a.exam_work_id = ${taskScores.examWorkId} and a.variant_task_id = ${taskScores.variantTaskId} and (a.round = 3 or a.status = 'assigned')))`;
export { lacksExpert as answerLacksExpert };

/** Works whose answers wait for an expert, of the expert's subjects and subject tests, oldest first. */
async function waitingWorksFor(
  db: DbOrTx,
  expert: Pick<ExpertProfileData, 'subjectIds' | 'subjectTestIds'>,
  filter: { subjectTestId?: number | undefined; date?: string | undefined },
  workDay: SQL,
): Promise<number[]> {
  if (!expert.subjectIds.length && !expert.subjectTestIds.length) return [];
  const rows = await db
    .selectDistinct({ examWorkId: taskScores.examWorkId, finishedAt: examWorks.finishedAt })
    .from(taskScores)
    .innerJoin(examWorks, eq(examWorks.id, taskScores.examWorkId))
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .where(
      and(
        lacksExpert,
        or(
          expert.subjectIds.length ? inArray(subjectExams.subjectId, expert.subjectIds) : undefined,
          expert.subjectTestIds.length ? inArray(subjectTests.id, expert.subjectTestIds) : undefined,
        ),
        filter.subjectTestId ? eq(subjectTests.id, filter.subjectTestId) : undefined,
        filter.date ? sql`${workDay} = ${filter.date}` : undefined,
      ),
    )
    .orderBy(asc(examWorks.finishedAt), asc(taskScores.examWorkId))
    .limit(WAITING_WORKS);
  return rows.map((r) => r.examWorkId);
}

/** Works looked at when an expert takes waiting answers (the oldest first). */
const WAITING_WORKS = 2000;
/** Rounds an expert with an empty queue takes at once: a day's share, not the whole pile. */
export const PULL_BATCH = 20;

/**
 * An expert with nothing open takes answers of their subjects that wait for an expert (no match at
 * the time, other experts at their daily limits, a third check without a free expert): up to
 * PULL_BATCH rounds, by the same rules as automatic assignment (never their own work, never two
 * rounds of one answer, their daily limit). Then counts what still waits that they cannot take.
 */
export async function takeWaiting(
  db: Db,
  expertId: number,
  filter: { subjectTestId?: number | undefined; date?: string | undefined },
  workDay: SQL,
): Promise<{ taken: number; otherExpert: number; dailyLimit: number }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ profile: users.profile }).from(users).where(eq(users.id, expertId));
    const profile = expertProfileOf(row?.profile);
    const works = await waitingWorksFor(tx, profile, filter, workDay);
    if (!works.length) return { taken: 0, otherExpert: 0, dailyLimit: 0 };
    const taken = await assignExpertsMany(tx, works, { onlyId: expertId, limit: PULL_BATCH });
    const left = taken.created
      ? await assignExpertsMany(tx, works, { onlyId: expertId, dryRun: true })
      : taken;
    return { taken: taken.created, otherExpert: left.otherExpert, dailyLimit: left.dailyLimit };
  });
}

/**
 * Retries every answer awaiting experts that lacks a round (too few matching experts at the time,
 * daily limits reached, a third check without a free expert). One transaction per work.
 */
export async function assignPending(db: Db): Promise<AssignOutcome> {
  const works = await db
    .selectDistinct({ examWorkId: taskScores.examWorkId })
    .from(taskScores)
    .where(lacksExpert);
  const total: AssignOutcome = { created: 0, queued: 0 };
  for (const { examWorkId } of works) {
    const r = await db.transaction((tx) => assignExperts(tx, examWorkId));
    total.created += r.created;
    total.queued += r.queued;
  }
  return total;
}

// ---------------------------------------------------------------- marks and the final mark

export interface Criterion {
  code: string;
  text: string;
  maxScore: number;
  /** The grain of a score: 1 (whole points) unless the criterion says 0.5. */
  step: number;
}

/** The rubric of a variant task; a task without criteria is graded as one criterion «Балл». */
export function rubricOf(
  criteria: (Omit<Criterion, 'step'> & { step?: number })[] | null | undefined,
  maxScore: number,
): Criterion[] {
  return criteria?.length
    ? criteria.map((c) => ({ ...c, step: c.step && c.step > 0 ? c.step : 1 }))
    : [{ code: 'Б', text: 'Балл за задание', maxScore, step: 1 }];
}

/**
 * The graded rounds a final mark is made of: after a third check, round 3 alone under the rule
 * 'third' and all three under 'mean'; else rounds 1 and 2 (their mean). [] while incomplete.
 */
export function finalRounds(graded: readonly number[], rule: string): number[] {
  if (graded.includes(3)) return rule === 'mean' ? [1, 2, 3].filter((r) => graded.includes(r)) : [3];
  return graded.includes(1) && graded.includes(2) ? [1, 2] : [];
}

/** Whether `score` is a whole number of `step`s (0.5 on a whole-point criterion is not). */
const onStep = (score: number, step: number) => Math.abs(score / step - Math.round(score / step)) < 1e-9;

/** Whether a graded assignment may still be corrected: no final mark yet and, for rounds 1–2, no third check. */
export const isEditable = (taskStatus: string | null, round: number, hasThird: boolean) =>
  taskStatus === 'awaiting_experts' && (round === 3 || !hasThird);

/**
 * Stores an expert's marks for their own assignment (a correction replaces them) and settles the
 * answer: waits for the other round, starts a third check, or computes the final mark. Audited.
 */
export async function saveMarks(
  db: Db,
  actor: Actor,
  assignmentId: number,
  body: ExpertMarksBody,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [a] = await tx
      .select({
        id: expertAssignments.id,
        examWorkId: expertAssignments.examWorkId,
        variantTaskId: expertAssignments.variantTaskId,
        expertId: expertAssignments.expertId,
        round: expertAssignments.round,
        status: expertAssignments.status,
      })
      .from(expertAssignments)
      .where(eq(expertAssignments.id, assignmentId))
      .limit(1);
    if (!a) throw notFound('No such assignment');
    if (a.expertId !== actor.auth.userId) throw forbidden('This assignment is not yours');

    // The answer's task score row is the lock of the answer: one settlement at a time.
    const [score] = await tx
      .select({ status: taskScores.status, maxScore: taskScores.maxScore })
      .from(taskScores)
      .where(and(eq(taskScores.examWorkId, a.examWorkId), eq(taskScores.variantTaskId, a.variantTaskId)))
      .for('update');
    const [third] = await tx
      .select({ id: expertAssignments.id })
      .from(expertAssignments)
      .where(
        and(
          eq(expertAssignments.examWorkId, a.examWorkId),
          eq(expertAssignments.variantTaskId, a.variantTaskId),
          eq(expertAssignments.round, 3),
        ),
      );
    if (!isEditable(score?.status ?? null, a.round, !!third))
      throw conflict(
        'grading_closed',
        third && a.round !== 3
          ? 'A third check has started: these marks can no longer be changed'
          : 'The final mark of this answer is set: marks can no longer be changed',
      );

    const [task] = await tx
      .select({ criteria: tasks.criteria, scoring: tasks.scoring, maxScore: variantTasks.maxScore })
      .from(variantTasks)
      .innerJoin(tasks, eq(tasks.id, variantTasks.taskId))
      .where(eq(variantTasks.id, a.variantTaskId));
    const rubric = rubricOf(task!.criteria, task!.maxScore);
    validateMarks(rubric, body);

    const total = body.marks.reduce((s, m) => s + m.score, 0);
    await tx.delete(expertMarks).where(eq(expertMarks.assignmentId, a.id));
    await tx.insert(expertMarks).values(body.marks.map((m) => ({ assignmentId: a.id, ...m })));
    await tx
      .update(expertAssignments)
      .set({ status: 'graded', total, comment: body.comment ?? null, gradedAt: new Date() })
      .where(eq(expertAssignments.id, a.id));
    await audit(tx, {
      userId: actor.auth.userId,
      action: a.status === 'graded' ? 'expert.marks.correct' : 'expert.marks.save',
      entity: 'expert_assignment',
      entityId: a.id,
      ip: actor.ip,
      details: { round: a.round, total },
    });
    await settle(
      tx,
      a.examWorkId,
      a.variantTaskId,
      thresholdOf(task!.scoring),
      score?.maxScore ?? task!.maxScore,
    );
  });
}

function validateMarks(rubric: Criterion[], body: ExpertMarksBody): void {
  const errors: { path: string; message: string }[] = [];
  const seen = new Set<string>();
  body.marks.forEach((m, i) => {
    const c = rubric.find((r) => r.code === m.criterionCode);
    if (!c)
      errors.push({ path: `body.marks.${i}.criterionCode`, message: `no criterion ${m.criterionCode}` });
    else if (m.score > c.maxScore)
      errors.push({ path: `body.marks.${i}.score`, message: `at most ${c.maxScore} for ${c.code}` });
    else if (!onStep(m.score, c.step))
      errors.push({ path: `body.marks.${i}.score`, message: `${c.code} is scored in steps of ${c.step}` });
    if (seen.has(m.criterionCode))
      errors.push({ path: `body.marks.${i}.criterionCode`, message: `${m.criterionCode} given twice` });
    seen.add(m.criterionCode);
  });
  for (const c of rubric)
    if (!seen.has(c.code)) errors.push({ path: 'body.marks', message: `criterion ${c.code} is missing` });
  if (errors.length)
    throw new AppError(
      400,
      'invalid_marks',
      'Give a score for every criterion, within its maximum and on its step',
      errors,
    );
}

/** After a grading: nothing (waiting), a third check, or the final mark by the subject test's rule. */
async function settle(
  tx: Tx,
  examWorkId: number,
  variantTaskId: number,
  threshold: number,
  maxScore: number,
): Promise<void> {
  const rounds = await tx
    .select({
      round: expertAssignments.round,
      status: expertAssignments.status,
      total: expertAssignments.total,
    })
    .from(expertAssignments)
    .where(
      and(eq(expertAssignments.examWorkId, examWorkId), eq(expertAssignments.variantTaskId, variantTaskId)),
    );
  const graded = new Map(rounds.filter((r) => r.status === 'graded').map((r) => [r.round, r.total ?? 0]));
  const [t1, t2, t3] = [graded.get(1), graded.get(2), graded.get(3)];
  if (t1 === undefined || t2 === undefined) return;
  const [{ rule } = { rule: 'third' }] = await tx
    .select({ rule: subjectTests.expertRule })
    .from(examWorks)
    .innerJoin(participantTests, eq(participantTests.id, examWorks.participantTestId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .where(eq(examWorks.id, examWorkId));
  if (t3 === undefined && Math.abs(t1 - t2) > threshold) {
    if (!rounds.some((r) => r.round === 3)) await assignExperts(tx, examWorkId);
    return;
  }
  // One rule for the mark and for what the result page shows of it (final-grading.ts).
  const counted = finalRounds([...graded.keys()], rule).map((r) => graded.get(r)!);
  const final =
    counted.length === 1 ? counted[0]! : roundHalf(counted.reduce((s, x) => s + x, 0) / counted.length);
  // The results module stores the final mark and recomputes the work's result in this transaction.
  await publish('expertFinal', { tx, examWorkId, variantTaskId, finalScore: Math.min(final, maxScore) });
}
