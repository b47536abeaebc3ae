import type { FastifyInstance } from 'fastify';
import {
  classes,
  diagnosticSchools,
  diagnosticSubjectTests,
  diagnostics,
  organizatorAssignments,
  students,
  subjectExams,
  subjects,
  subjectTests,
} from '../src/db/schema/index.js';
import { createOrg, isoDate, unique, type OrgFixture } from './helpers.js';

/*
 * Fixtures of diagnostics with schools, grades, classes and subject tests: for planning, the
 * participants spreadsheet and the code slips.
 */

/** A subject test of a new subject, offered for `parallels`. */
export async function createSubjectTest(
  app: FastifyInstance,
  options: { name?: string; parallels: number[]; durationMinutes?: number },
): Promise<number> {
  const db = app.ctx.db;
  const [subject] = await db
    .insert(subjects)
    .values({ name: unique('Предмет '), code: unique('SUBJ') })
    .returning();
  const [exam] = await db
    .insert(subjectExams)
    .values({ subjectId: subject!.id, kind: 'diagnostic', name: 'Диагностика' })
    .returning();
  const [test] = await db
    .insert(subjectTests)
    .values({
      subjectExamId: exam!.id,
      name: options.name ?? unique('Тест '),
      parallels: options.parallels,
      durationMinutes: options.durationMinutes ?? 45,
    })
    .returning();
  return test!.id;
}

/** A class of a school with students (surnames given), in the school's building. */
export async function createClassWithStudents(
  app: FastifyInstance,
  org: OrgFixture,
  options: { parallel: number; letter: string; surnames: string[] },
): Promise<{ classId: number; studentIds: number[] }> {
  const db = app.ctx.db;
  const [cls] = await db
    .insert(classes)
    .values({
      schoolId: org.schoolId,
      buildingId: org.buildingId,
      parallelId: options.parallel,
      letter: options.letter,
      name: `${options.parallel} «${options.letter}»`,
    })
    .returning();
  const rows = options.surnames.length
    ? await db
        .insert(students)
        .values(
          options.surnames.map((surname, i) => ({
            schoolId: org.schoolId,
            classId: cls!.id,
            surname,
            name: `Имя${i + 1}`,
            patronymic: 'Отчество',
          })),
        )
        .returning()
    : [];
  return { classId: cls!.id, studentIds: rows.map((r) => r.id) };
}

/** A diagnostic (window yesterday → in a week unless told) with its subject tests and schools. */
export async function createDiagnosticFixture(
  app: FastifyInstance,
  options: {
    parallels: number[];
    subjectTestIds: number[];
    schoolIds: number[];
    code?: string;
    createdBy?: number | null;
    createdByRole?: string | null;
    startsAt?: Date;
    endsAt?: Date;
    name?: string;
  },
): Promise<{ id: number; code: string }> {
  const db = app.ctx.db;
  const code = options.code ?? unique('DX-');
  const [d] = await db
    .insert(diagnostics)
    .values({
      code,
      name: options.name ?? 'Независимая диагностика',
      startsAt: options.startsAt ?? new Date(Date.now() - 86_400_000),
      endsAt: options.endsAt ?? new Date(Date.now() + 7 * 86_400_000),
      parallels: options.parallels,
      createdBy: options.createdBy ?? null,
      createdByRole: options.createdByRole ?? null,
    })
    .returning();
  if (options.subjectTestIds.length)
    await db
      .insert(diagnosticSubjectTests)
      .values(options.subjectTestIds.map((subjectTestId) => ({ diagnosticId: d!.id, subjectTestId })));
  if (options.schoolIds.length)
    await db
      .insert(diagnosticSchools)
      .values(options.schoolIds.map((schoolId) => ({ diagnosticId: d!.id, schoolId })));
  return { id: d!.id, code };
}

export interface PlanningWorld {
  a: OrgFixture & { class8: number; class5: number; deletedStudentId: number };
  b: OrgFixture;
  math: number;
  russian: number;
  physics: number;
  diagnostic: { id: number; code: string };
  date: string;
  /** Participant tests planning must create per school: A = 3×2 (7 «А») + 2×1 (8 «Б»), B = 3×2. */
  expected: { a: number; b: number };
}

/**
 * Two schools. A: 7 «А» (3 students + 1 deleted), 8 «Б» (2), 5 «А» (1, grade not planned).
 * B: 7 «А» (3). Diagnostic for grades 7 and 8 of both schools with math (7, 8), russian (7) and
 * physics (9: nobody).
 */
export async function createPlanningWorld(app: FastifyInstance): Promise<PlanningWorld> {
  const a = await createOrg(app, unique('Школа А '));
  const b = await createOrg(app, unique('Школа Б '));
  const class8 = await createClassWithStudents(app, a, {
    parallel: 8,
    letter: 'Б',
    surnames: ['Андреев', 'Борисова'],
  });
  const class5 = await createClassWithStudents(app, a, { parallel: 5, letter: 'А', surnames: ['Младший'] });
  const [deleted] = await app.ctx.db
    .insert(students)
    .values({
      schoolId: a.schoolId,
      classId: a.classId,
      surname: 'Выбывший',
      name: 'Иван',
      deletedAt: new Date(),
    })
    .returning();
  const math = await createSubjectTest(app, { name: 'Математика', parallels: [7, 8] });
  const russian = await createSubjectTest(app, { name: 'Русский язык', parallels: [7] });
  const physics = await createSubjectTest(app, { name: 'Физика', parallels: [9] });
  const diagnostic = await createDiagnosticFixture(app, {
    parallels: [7, 8],
    subjectTestIds: [math, russian, physics],
    schoolIds: [a.schoolId, b.schoolId],
  });
  return {
    a: { ...a, class8: class8.classId, class5: class5.classId, deletedStudentId: deleted!.id },
    b,
    math,
    russian,
    physics,
    diagnostic,
    date: isoDate(1),
    expected: { a: 8, b: 6 },
  };
}

/** Assigns a class (or a whole building) to an organizator. */
export async function assignOrganizator(
  app: FastifyInstance,
  userId: number,
  target: { classId?: number; buildingId?: number },
): Promise<void> {
  await app.ctx.db
    .insert(organizatorAssignments)
    .values({ userId, classId: target.classId ?? null, buildingId: target.buildingId ?? null });
}
