import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import {
  answers,
  diagnostics,
  examWorkEvents,
  examWorks,
  participantTests,
  results,
  specificationElements,
  specifications,
  students,
  subjectTests,
  taskElements,
  taskScores,
  users,
} from '../../db/schema/index.js';
import { schoolInstant } from '../../lib/calendar.js';
import { activationCode, registrationCode } from '../../lib/tokens.js';
import {
  createOrg,
  createVariantWithTasks,
  isoDate,
  signedIn,
  unique,
  type OrgFixture,
  type Session,
} from '../../../test/helpers.js';
import {
  assignOrganizator,
  createClassWithStudents,
  createDiagnosticFixture,
  createSubjectTest,
} from '../../../test/diagnostic-fixtures.js';

/*
 * The reports' world, small enough to compute every figure by hand (docs/reports.md):
 *
 * Diagnostic D (schools A and B), "Математика" (4 tasks, max 1+1+2+2 = 6; marks 5 ≥ 5 высокий,
 * 4 ≥ 4 повышенный, 3 ≥ 2 базовый, 2 ≥ 0 низкий), test day yesterday unless said:
 *   A 7 «А»: p1 Иванов V1 [1,1,2,1] = 5 «5»; p2 Петрова V2 [1,0,1,2] = 4 «4»; p3 Сидоров absent;
 *            p10 Будущев registered for tomorrow (pending)
 *   A 7 «Б»: p4 Андреев V1 [0,1,1,0] = 2 «3» finished within 2 minutes; p5 Борисова unfinished
 *   B 7 «А»: p6 Иванов V1 [1,1,2,2] = 6 «5»; p7 Петрова (surname a formula) V2 [0,0,1,0] = 1 «2»;
 *            p8 Сидоров finished, awaiting experts; p9 Аннулова annulled with a full score
 * Specification S: Алгебра → (Уравнения ← t3, u3; Неравенства ← t3, t4), Геометрия ← t1, u1.
 * "Физика" (4 tasks of 1) in A 7 «Б»: q1 Андреев and q2 Борисова answer tasks 1–3 with the same
 * wrong option (similar answers); q1 was offline 7 minutes and has a proctoring verdict, q2 left
 * the page three times.
 */

export const FORMULA_SURNAME = '=HYPERLINK("http://evil.example","x")';

export interface Registration {
  id: number;
  code: string;
  workId: number | null;
}

export interface ReportWorld {
  a: OrgFixture & { class7b: number; studentsB: number[]; futureStudent: number };
  b: OrgFixture & { annulledStudent: number };
  diagnosticId: number;
  math: number;
  physics: number;
  specId: number;
  elements: { algebra: number; equations: number; inequalities: number; geometry: number };
  v1: { variantId: number; taskIds: number[]; variantTaskIds: number[] };
  v2: { variantId: number; taskIds: number[]; variantTaskIds: number[] };
  p: Record<'p1' | 'p2' | 'p3' | 'p4' | 'p5' | 'p6' | 'p7' | 'p8' | 'p9' | 'p10' | 'q1' | 'q2', Registration>;
  yesterday: string;
  tomorrow: string;
  admin: Session;
  coordA: Session;
  coordB: Session;
  organizatorA: { id: number; session: Session };
  ugnik: { id: number; session: Session };
}

const MARK_SCALE = [
  { mark: '5', minScore: 5, level: 'высокий' },
  { mark: '4', minScore: 4, level: 'повышенный' },
  { mark: '3', minScore: 2, level: 'базовый' },
  { mark: '2', minScore: 0, level: 'низкий' },
];

let verification = 0;

export async function register(
  app: FastifyInstance,
  o: {
    diagnosticId: number;
    subjectTestId: number;
    org: OrgFixture;
    classId: number;
    studentId: number;
    testDate: string;
    status?: string;
  },
): Promise<Registration> {
  const [pt] = await app.ctx.db
    .insert(participantTests)
    .values({
      diagnosticId: o.diagnosticId,
      subjectTestId: o.subjectTestId,
      studentId: o.studentId,
      schoolId: o.org.schoolId,
      classId: o.classId,
      buildingId: o.org.buildingId,
      testDate: o.testDate,
      activationCode: activationCode(),
      registrationCode: registrationCode(),
      status: o.status ?? 'planned',
    })
    .returning();
  return { id: pt!.id, code: pt!.registrationCode, workId: null };
}

/**
 * A work of a registration on a variant started at 10:00 of the test day; finished `minutes` later
 * (45 allowed) when `scores` are given, with task scores and its result. `awaiting` leaves the
 * last task to experts (no final score, no mark).
 */
export async function sit(
  app: FastifyInstance,
  reg: Registration,
  o: {
    testDate: string;
    variant: { variantId: number; variantTaskIds: number[] };
    maxScores: number[];
    scores?: number[];
    minutes?: number;
    awaiting?: boolean;
    values?: unknown[];
    diagnosticId: number;
    subjectTestId: number;
    status?: string;
  },
): Promise<Registration> {
  const db = app.ctx.db;
  const startedAt = schoolInstant(o.testDate, '10:00');
  const finishedAt = o.scores ? new Date(startedAt.getTime() + (o.minutes ?? 30) * 60_000) : null;
  const [work] = await db
    .insert(examWorks)
    .values({
      participantTestId: reg.id,
      variantId: o.variant.variantId,
      status: o.scores ? (o.awaiting ? 'finished' : 'scored') : 'in_progress',
      startedAt,
      timeLimitSeconds: 45 * 60,
      deadlineAt: new Date(startedAt.getTime() + 45 * 60_000),
      windowEndsAt: new Date(startedAt.getTime() + 7 * 86_400_000),
      finishedAt,
      finishReason: finishedAt ? 'manual' : null,
    })
    .returning({ id: examWorks.id });
  const workId = work!.id;
  if (o.values)
    await db.insert(answers).values(
      o.values.map((value, i) => ({
        examWorkId: workId,
        variantTaskId: o.variant.variantTaskIds[i]!,
        value,
        seq: 1,
        savedAt: new Date(startedAt.getTime() + (i + 1) * 60_000),
      })),
    );
  if (o.scores) {
    const last = o.scores.length - 1;
    await db.insert(taskScores).values(
      o.scores.map((score, i) => {
        const waits = o.awaiting && i === last;
        return {
          examWorkId: workId,
          variantTaskId: o.variant.variantTaskIds[i]!,
          autoStatus: waits ? 'manual' : 'scored',
          autoScore: waits ? null : score,
          finalScore: waits ? null : score,
          maxScore: o.maxScores[i]!,
          status: waits ? 'awaiting_experts' : 'auto',
        };
      }),
    );
    const primary = o.scores.reduce((s, x, i) => s + (o.awaiting && i === last ? 0 : x), 0);
    const max = o.maxScores.reduce((s, x) => s + x, 0);
    const step = MARK_SCALE.find((m) => primary >= m.minScore)!;
    await db.insert(results).values({
      examWorkId: workId,
      participantTestId: reg.id,
      diagnosticId: o.diagnosticId,
      subjectTestId: o.subjectTestId,
      status: o.awaiting ? 'awaiting_experts' : 'scored',
      primaryScore: primary,
      maxScore: max,
      percent: Math.round((primary * 1000) / max) / 10,
      mark: o.awaiting ? null : step.mark,
      level: o.awaiting ? null : step.level,
      verificationCode: `R-TEST-${process.pid}-${++verification}`,
    });
  }
  await db
    .update(participantTests)
    .set({ status: o.status ?? (o.scores ? (o.awaiting ? 'finished' : 'scored') : 'in_progress') })
    .where(eq(participantTests.id, reg.id));
  return { ...reg, workId };
}

export async function createReportWorld(app: FastifyInstance): Promise<ReportWorld> {
  const db = app.ctx.db;
  const yesterday = isoDate(-1);
  const tomorrow = isoDate(1);
  const orgA = await createOrg(app, unique('Школа А '));
  const orgB = await createOrg(app, unique('Школа Б '));
  const a7b = await createClassWithStudents(app, orgA, {
    parallel: 7,
    letter: 'Б',
    surnames: ['Андреев', 'Борисова'],
  });
  const [future] = await db
    .insert(students)
    .values({ schoolId: orgA.schoolId, classId: orgA.classId, surname: 'Будущев', name: 'Павел' })
    .returning();
  const [annulled] = await db
    .insert(students)
    .values({ schoolId: orgB.schoolId, classId: orgB.classId, surname: 'Аннулова', name: 'Анна' })
    .returning();
  await db.update(students).set({ surname: FORMULA_SURNAME }).where(eq(students.id, orgB.studentIds[1]!));

  const math = await createSubjectTest(app, { name: 'Математика', parallels: [7] });
  const physics = await createSubjectTest(app, { name: 'Физика', parallels: [7] });
  await db.update(subjectTests).set({ markScale: MARK_SCALE }).where(eq(subjectTests.id, math));
  await db
    .update(subjectTests)
    .set({
      markScale: [
        { mark: '5', minScore: 4 },
        { mark: '4', minScore: 3 },
        { mark: '3', minScore: 2 },
        { mark: '2', minScore: 0 },
      ],
    })
    .where(eq(subjectTests.id, physics));
  const mathTasks = [1, 1, 2, 2].map((maxScore) => ({ answerType: 'short_text', maxScore }));
  const v1 = await createVariantWithTasks(app, math, mathTasks, 1);
  const v2 = await createVariantWithTasks(app, math, mathTasks, 2);
  const phys = await createVariantWithTasks(
    app,
    physics,
    [1, 1, 1, 1].map(() => ({ answerType: 'single_choice' })),
    1,
  );

  const [spec] = await db.insert(specifications).values({ name: 'Кодификатор по математике' }).returning();
  const element = async (code: string, name: string, position: number, parentId: number | null = null) =>
    (
      await db
        .insert(specificationElements)
        .values({ specificationId: spec!.id, code, name, position, parentId })
        .returning()
    )[0]!.id;
  const algebra = await element('1', 'Алгебра', 0);
  const geometry = await element('2', 'Геометрия', 1);
  const equations = await element('1.1', 'Уравнения', 0, algebra);
  const inequalities = await element('1.2', 'Неравенства', 1, algebra);
  await db.insert(taskElements).values([
    { taskId: v1.taskIds[2]!, elementId: equations },
    { taskId: v1.taskIds[2]!, elementId: inequalities },
    { taskId: v2.taskIds[2]!, elementId: equations },
    { taskId: v1.taskIds[3]!, elementId: inequalities },
    { taskId: v1.taskIds[0]!, elementId: geometry },
    { taskId: v2.taskIds[0]!, elementId: geometry },
  ]);
  await db.update(subjectTests).set({ specificationId: spec!.id }).where(eq(subjectTests.id, math));

  const { id: diagnosticId } = await createDiagnosticFixture(app, {
    parallels: [7],
    subjectTestIds: [math, physics],
    schoolIds: [orgA.schoolId, orgB.schoolId],
  });
  const reg = (
    org: OrgFixture,
    classId: number,
    studentId: number,
    extra: { testDate?: string; status?: string; subjectTestId?: number } = {},
  ) =>
    register(app, {
      diagnosticId,
      subjectTestId: extra.subjectTestId ?? math,
      org,
      classId,
      studentId,
      testDate: extra.testDate ?? yesterday,
      ...(extra.status ? { status: extra.status } : {}),
    });
  const m = { diagnosticId, subjectTestId: math, testDate: yesterday, maxScores: [1, 1, 2, 2] };
  const p1 = await sit(app, await reg(orgA, orgA.classId, orgA.studentIds[0]!), {
    ...m,
    variant: v1,
    scores: [1, 1, 2, 1],
  });
  const p2 = await sit(app, await reg(orgA, orgA.classId, orgA.studentIds[1]!), {
    ...m,
    variant: v2,
    scores: [1, 0, 1, 2],
  });
  const p3 = await reg(orgA, orgA.classId, orgA.studentIds[2]!, { status: 'absent' });
  const p4 = await sit(app, await reg(orgA, a7b.classId, a7b.studentIds[0]!), {
    ...m,
    variant: v1,
    scores: [0, 1, 1, 0],
    minutes: 2,
  });
  const p5 = await sit(app, await reg(orgA, a7b.classId, a7b.studentIds[1]!), { ...m, variant: v1 });
  const p6 = await sit(app, await reg(orgB, orgB.classId, orgB.studentIds[0]!), {
    ...m,
    variant: v1,
    scores: [1, 1, 2, 2],
  });
  const p7 = await sit(app, await reg(orgB, orgB.classId, orgB.studentIds[1]!), {
    ...m,
    variant: v2,
    scores: [0, 0, 1, 0],
  });
  const p8 = await sit(app, await reg(orgB, orgB.classId, orgB.studentIds[2]!), {
    ...m,
    variant: v1,
    scores: [1, 1, 1, 0],
    awaiting: true,
  });
  const p9 = await sit(app, await reg(orgB, orgB.classId, annulled!.id), {
    ...m,
    variant: v2,
    scores: [1, 1, 2, 2],
    status: 'annulled',
  });
  const p10 = await reg(orgA, orgA.classId, future!.id, { testDate: tomorrow });

  // Физика in A 7 «Б»: the same wrong option on tasks 1–3, the right one on task 4.
  const ph = {
    diagnosticId,
    subjectTestId: physics,
    testDate: yesterday,
    maxScores: [1, 1, 1, 1],
    variant: phys,
  };
  const same = [{ choice: 'o3' }, { choice: 'o3' }, { choice: 'o1' }, { choice: 'o2' }];
  const q1 = await sit(app, await reg(orgA, a7b.classId, a7b.studentIds[0]!, { subjectTestId: physics }), {
    ...ph,
    scores: [0, 0, 0, 1],
    values: same,
  });
  const q2 = await sit(app, await reg(orgA, a7b.classId, a7b.studentIds[1]!, { subjectTestId: physics }), {
    ...ph,
    scores: [0, 0, 0, 1],
    values: same.map((v) => ({ ...v })),
  });
  const at = (time: string) => schoolInstant(yesterday, time);
  await db.insert(examWorkEvents).values([
    // Reported on reconnection (server times close together), measured on the client's clock: 7 minutes.
    {
      examWorkId: q1.workId!,
      at: at('10:12'),
      kind: 'offline',
      details: { source: 'participant', clientAt: at('10:05').toISOString() },
    },
    {
      examWorkId: q1.workId!,
      at: at('10:12'),
      kind: 'online',
      details: { source: 'participant', clientAt: at('10:12').toISOString() },
    },
    {
      examWorkId: q1.workId!,
      at: at('10:20'),
      kind: 'proctoring_verdict',
      details: { verdict: 'подозрительно' },
    },
    { examWorkId: q2.workId!, at: at('10:03'), kind: 'blur', details: { source: 'participant' } },
    { examWorkId: q2.workId!, at: at('10:04'), kind: 'focus', details: { source: 'participant' } },
    { examWorkId: q2.workId!, at: at('10:06'), kind: 'blur', details: { source: 'participant' } },
    {
      examWorkId: q2.workId!,
      at: at('10:07'),
      kind: 'visibility_hidden',
      details: { source: 'participant' },
    },
  ]);

  const admin = (await signedIn(app, ['admin'])).session;
  const coordA = (await signedIn(app, ['coordinator'], { schoolId: orgA.schoolId })).session;
  const coordB = (await signedIn(app, ['coordinator'], { schoolId: orgB.schoolId })).session;
  const org = await signedIn(app, ['organizator'], { schoolId: orgA.schoolId });
  await assignOrganizator(app, org.user.id, { classId: orgA.classId });
  await db
    .update(users)
    .set({ surname: 'Организаторова', name: 'Ольга', patronymic: 'Олеговна' })
    .where(eq(users.id, org.user.id));
  const ug = await signedIn(app, ['ugnik']);
  await db.update(diagnostics).set({ createdByRole: 'admin' }).where(eq(diagnostics.id, diagnosticId));

  return {
    a: { ...orgA, class7b: a7b.classId, studentsB: a7b.studentIds, futureStudent: future!.id },
    b: { ...orgB, annulledStudent: annulled!.id },
    diagnosticId,
    math,
    physics,
    specId: spec!.id,
    elements: { algebra, equations, inequalities, geometry },
    v1,
    v2,
    p: { p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, q1, q2 },
    yesterday,
    tomorrow,
    admin,
    coordA,
    coordB,
    organizatorA: { id: org.user.id, session: org.session },
    ugnik: { id: ug.user.id, session: ug.session },
  };
}
