import { and, eq, inArray, isNull, like, ne, sql } from 'drizzle-orm';
import { taskDefinitionSchema } from '@attesta/contract';
import type { Db, DbOrTx, Tx } from '../db/client.js';
import {
  areas,
  buildings,
  classes,
  diagnosticSchools,
  diagnosticSubjectTests,
  diagnostics,
  htmlContainerResources,
  htmlContainers,
  oo,
  organizatorAssignments,
  participantTests,
  schools,
  students,
  subjectExams,
  subjectTests,
  subjects,
  tasks,
  testGroups,
  userRoles,
  users,
  variantTasks,
  variants,
  workerPositions,
  workers,
} from '../db/schema/index.js';
import { hashPassword } from '../lib/password.js';
import { activationCode, registrationCode } from '../lib/tokens.js';
import { procedureHtml, type DemoSubjectTest } from './data/catalog.js';
import type { DemoContainer } from './data/containers.js';
import {
  DEMO_AREA,
  DEMO_OO,
  DEMO_POSITIONS,
  DEMO_REGISTRATIONS,
  DEMO_SCHOOLS,
  DEMO_USERS,
  DEMO_WORKERS,
  className,
} from './data/org.js';
import { birthDateFor, nameGenerator } from './data/people.js';
import { DEMO_SUBJECT_TESTS } from './data/subject-tests.js';
import { openMathPractice } from './data/open-practice.js';
import { seededRandom } from './data/task-builders.js';
import { demoWindow } from './dates.js';

export interface DemoOptions {
  /** Password of every demo login (config DEMO_PASSWORD). */
  password: string;
  /** Moscow calendar date `yyyy-mm-dd` the demo diagnostic runs on. */
  today: string;
}

/** Serialises concurrent first starts (several instances on one PostgreSQL) around the seed. */
const DEMO_SEED_LOCK = 770_001;
/** Same seed every time, so a reset brings back the same children. */
const NAMES_SEED = 1_537;

export const DEMO_DIAGNOSTIC_NAME = 'Независимая диагностика (демонстрационная)';

/** The demo oo, recognised by its marker INN (data/org.ts). */
export async function findDemoOo(db: DbOrTx): Promise<number | null> {
  const [row] = await db.select({ id: oo.id }).from(oo).where(eq(oo.inn, DEMO_OO.inn)).limit(1);
  return row?.id ?? null;
}

/**
 * Loads the demo (docs/design.md §8) unless the demo oo exists: organisation, staff logins, content,
 * and today's demo diagnostic with its participants. One transaction: all of it or nothing.
 * Returns whether anything was loaded.
 */
export async function loadDemoData(db: Db, options: DemoOptions): Promise<boolean> {
  if (await findDemoOo(db)) return false;
  const hashes = await hashDemoPasswords(options.password);
  return db.transaction(async (tx) => {
    await lockDemo(tx);
    if (await findDemoOo(tx)) return false;
    await insertDemoData(tx, options.today, hashes);
    return true;
  });
}

/** One hash per demo login. Done outside transactions: scrypt is slow on purpose and needs no locks. */
export function hashDemoPasswords(password: string): Promise<string[]> {
  return Promise.all(DEMO_USERS.map(() => hashPassword(password)));
}

export async function lockDemo(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${DEMO_SEED_LOCK})`);
}

/** Inserts the whole demo; `hashes` come from hashDemoPasswords. */
export async function insertDemoData(tx: Tx, today: string, hashes: string[]): Promise<void> {
  const org = await insertOrganisation(tx, today);
  const userIds = await insertUsers(tx, org, hashes);
  const testIds = await insertContent(tx);
  await giveExpertsTheirSubjects(tx, userIds);
  await insertDiagnostic(tx, org, testIds, userIds.get('admin')!, today);
}

/**
 * Moves the demo diagnostic and its participant tests to `today` (codes stay), so the demo works
 * on whatever day it is opened. Returns whether anything moved.
 */
export async function ensureDemoToday(db: DbOrTx, today: string): Promise<boolean> {
  const { startsAt, endsAt } = demoWindow(today);
  const moved = await db
    .update(diagnostics)
    .set({ startsAt, endsAt })
    .where(
      and(eq(diagnostics.isDemo, true), isNull(diagnostics.deletedAt), ne(diagnostics.startsAt, startsAt)),
    )
    .returning({ id: diagnostics.id });
  const demoDiagnostics = db
    .select({ id: diagnostics.id })
    .from(diagnostics)
    .where(eq(diagnostics.isDemo, true));
  const tests = await db
    .update(participantTests)
    .set({ testDate: today, updatedAt: new Date() })
    .where(and(inArray(participantTests.diagnosticId, demoDiagnostics), ne(participantTests.testDate, today)))
    .returning({ id: participantTests.id });
  return moved.length > 0 || tests.length > 0;
}

// ---------------------------------------------------------------- organisation

interface OrgIds {
  ooId: number;
  areaId: number;
  schools: Map<string, { id: number; buildingIds: number[] }>;
  /** `${schoolKey}/${className}` → class. */
  classes: Map<string, { id: number; buildingId: number; studentIds: number[] }>;
  workers: Map<string, number>;
}

async function insertOrganisation(tx: Tx, today: string): Promise<OrgIds> {
  const [ooRow] = await tx.insert(oo).values(DEMO_OO).returning({ id: oo.id });
  // The area outlives a reset (nothing of the demo's own refers to it then): found again by name.
  const [area] = await tx
    .insert(areas)
    .values({ name: DEMO_AREA })
    .onConflictDoUpdate({ target: areas.name, set: { name: DEMO_AREA } })
    .returning({ id: areas.id });
  const ids: OrgIds = {
    ooId: ooRow!.id,
    areaId: area!.id,
    schools: new Map(),
    classes: new Map(),
    workers: new Map(),
  };
  const nextNames = nameGenerator(NAMES_SEED);
  const random = seededRandom(NAMES_SEED);

  for (const school of DEMO_SCHOOLS) {
    const [schoolRow] = await tx
      .insert(schools)
      .values({
        ooId: ids.ooId,
        name: school.name,
        shortName: school.shortName,
        code: school.code,
        areaId: ids.areaId,
      })
      .returning({ id: schools.id });
    const schoolId = schoolRow!.id;
    const buildingRows = await tx
      .insert(buildings)
      .values(school.buildings.map((b) => ({ schoolId, ...b })))
      .returning({ id: buildings.id });
    const buildingIds = buildingRows.map((b) => b.id);
    ids.schools.set(school.key, { id: schoolId, buildingIds });

    for (const cls of school.classes) {
      const name = className(cls.grade, cls.letter);
      const buildingId = buildingIds[cls.building]!;
      const [classRow] = await tx
        .insert(classes)
        .values({ schoolId, buildingId, parallelId: cls.grade, letter: cls.letter, name })
        .returning({ id: classes.id });
      const classId = classRow!.id;
      const studentRows = await tx
        .insert(students)
        .values(
          nextNames(cls.students).map((person) => ({
            schoolId,
            classId,
            ...person,
            birthDate: birthDateFor(cls.grade, today, random),
          })),
        )
        .returning({ id: students.id });
      ids.classes.set(`${school.key}/${name}`, {
        id: classId,
        buildingId,
        studentIds: studentRows.map((s) => s.id),
      });
    }
  }

  // Positions are a shared catalogue: reuse an existing one of the same name.
  await tx
    .insert(workerPositions)
    .values(DEMO_POSITIONS.map((name) => ({ name })))
    .onConflictDoNothing();
  const positions = await tx
    .select()
    .from(workerPositions)
    .where(inArray(workerPositions.name, DEMO_POSITIONS));
  const positionId = new Map(positions.map((p) => [p.name, p.id]));
  for (const worker of DEMO_WORKERS) {
    const { key, school, position, ...person } = worker;
    const [row] = await tx
      .insert(workers)
      .values({ schoolId: ids.schools.get(school)!.id, positionId: positionId.get(position)!, ...person })
      .returning({ id: workers.id });
    ids.workers.set(key, row!.id);
  }
  return ids;
}

async function insertUsers(tx: Tx, org: OrgIds, hashes: string[]): Promise<Map<string, number>> {
  const now = new Date();
  const ids = new Map<string, number>();
  for (const [i, user] of DEMO_USERS.entries()) {
    const [row] = await tx
      .insert(users)
      .values({
        login: user.login,
        email: user.email,
        surname: user.surname,
        name: user.name,
        patronymic: user.patronymic,
        passwordHash: hashes[i]!,
        emailConfirmedAt: now,
        schoolId: user.school ? org.schools.get(user.school)!.id : null,
        ooId: user.bindToOo ? org.ooId : null,
        areaId: user.bindToArea ? org.areaId : null,
        workerId: user.worker ? org.workers.get(user.worker)! : null,
        profile: user.profile ?? {},
      })
      .returning({ id: users.id });
    const userId = row!.id;
    ids.set(user.login, userId);
    await tx.insert(userRoles).values(user.roles.map((role) => ({ userId, role })));
    for (const name of user.assignedClasses ?? []) {
      const cls = org.classes.get(`${user.school}/${name}`);
      if (!cls) throw new Error(`demo: ${user.login} is assigned to unknown class ${name}`);
      await tx.insert(organizatorAssignments).values({ userId, classId: cls.id, buildingId: cls.buildingId });
    }
  }
  return ids;
}

/**
 * Demo experts grade every demo subject in every grade, in the profile shape the expert module
 * reads (`profile.expert`), so finished demo works reach two graders (and a third on disagreement).
 */
async function giveExpertsTheirSubjects(tx: Tx, userIds: Map<string, number>): Promise<void> {
  const subjectRows = await tx
    .select({ id: subjects.id })
    .from(subjects)
    .where(like(subjects.code, 'demo-%'));
  const expert = {
    subjectIds: subjectRows.map((r) => r.id),
    parallels: [5, 6, 7, 8, 9, 10, 11],
    maxPerDay: null,
  };
  for (const user of DEMO_USERS.filter((u) => u.roles.includes('expert'))) {
    await tx
      .update(users)
      .set({ profile: { ...(user.profile ?? {}), expert } })
      .where(eq(users.id, userIds.get(user.login)!));
  }
}

// ---------------------------------------------------------------- content

/** Thresholds as a share of the maximum, as Moscow diagnostics usually set them. */
function markScale(maxScore: number) {
  return [
    { mark: '5', minScore: Math.ceil(maxScore * 0.85), level: 'высокий' },
    { mark: '4', minScore: Math.ceil(maxScore * 0.65), level: 'повышенный' },
    { mark: '3', minScore: Math.ceil(maxScore * 0.4), level: 'базовый' },
    { mark: '2', minScore: 0, level: 'ниже базового' },
  ];
}

/** Every variant must be parallel: the same answer type and max score at every position. */
function checkParallel(test: DemoSubjectTest): number {
  const [first, ...rest] = test.variants;
  if (!first) throw new Error(`demo: ${test.name} has no variants`);
  for (const variant of rest) {
    const same =
      variant.length === first.length &&
      variant.every(
        (task, i) =>
          task.definition.answerType === first[i]!.definition.answerType &&
          task.definition.maxScore === first[i]!.definition.maxScore,
      );
    if (!same) throw new Error(`demo: variants of ${test.name} are not parallel`);
  }
  return first.reduce((sum, task) => sum + task.definition.maxScore, 0);
}

/** Creates subjects, exams, groups, subject tests, variants and tasks; returns test name → id. */
async function insertContent(tx: Tx): Promise<Map<string, number>> {
  const subjectIds = new Map<string, number>();
  const examIds = new Map<string, number>();
  const groupIds = new Map<string, number>();
  const testIds = new Map<string, number>();
  const containerIds = new Map<DemoContainer, number>();
  const containerOf = async (container: DemoContainer | undefined) => {
    if (!container) return null;
    let id = containerIds.get(container);
    if (id === undefined) {
      id = await insertContainer(tx, container);
      containerIds.set(container, id);
    }
    return id;
  };

  for (const test of [...DEMO_SUBJECT_TESTS, openMathPractice]) {
    const maxScore = checkParallel(test);
    let subjectId = subjectIds.get(test.subject.code);
    if (subjectId === undefined) {
      const [row] = await tx.insert(subjects).values(test.subject).returning({ id: subjects.id });
      subjectId = row!.id;
      subjectIds.set(test.subject.code, subjectId);
      const [exam] = await tx
        .insert(subjectExams)
        .values({ subjectId, kind: 'diagnostic', name: `${test.subject.name} — независимая диагностика` })
        .returning({ id: subjectExams.id });
      examIds.set(test.subject.code, exam!.id);
    }
    let testGroupId = groupIds.get(test.testGroup);
    if (testGroupId === undefined) {
      const [row] = await tx
        .insert(testGroups)
        .values({ name: test.testGroup })
        .returning({ id: testGroups.id });
      testGroupId = row!.id;
      groupIds.set(test.testGroup, testGroupId);
    }
    const [testRow] = await tx
      .insert(subjectTests)
      .values({
        subjectExamId: examIds.get(test.subject.code)!,
        testGroupId,
        name: test.name,
        parallels: test.parallels,
        durationMinutes: test.durationMinutes,
        description: test.description,
        procedureHtml: procedureHtml(test),
        instructionHtml: test.instructionHtml,
        markScale: markScale(maxScore),
        isOpen: test.isOpen ?? false,
      })
      .returning({ id: subjectTests.id });
    const subjectTestId = testRow!.id;
    // The demo diagnostic takes the tests listed here; an open test is sat through no diagnostic of staff.
    if (!test.isOpen) testIds.set(test.name, subjectTestId);

    for (const [v, variantTasksData] of test.variants.entries()) {
      const [variant] = await tx
        .insert(variants)
        .values({ subjectTestId, number: v + 1 })
        .returning({ id: variants.id });
      // Parsing fills the schema defaults, so what is stored is exactly the contract's output shape.
      const definitions = variantTasksData.map((task) => taskDefinitionSchema.parse(task.definition));
      const taskContainers: (number | null)[] = [];
      for (const task of variantTasksData) taskContainers.push(await containerOf(task.container));
      const taskRows = await tx
        .insert(tasks)
        .values(
          variantTasksData.map((task, i) => {
            const d = definitions[i]!;
            return {
              answerType: d.answerType,
              html: task.html,
              content: d.content as Record<string, unknown>,
              reference: d.reference,
              scoring: d.scoring as Record<string, unknown>,
              solutionHtml: task.solutionHtml ?? null,
              criteria: d.criteria ?? null,
              maxScore: d.maxScore,
              htmlContainerId: taskContainers[i] ?? null,
            };
          }),
        )
        .returning({ id: tasks.id, maxScore: tasks.maxScore });
      await tx.insert(variantTasks).values(
        taskRows.map((task, i) => ({
          variantId: variant!.id,
          taskId: task.id,
          position: i + 1,
          maxScore: task.maxScore,
        })),
      );
    }
  }
  return testIds;
}

/** An interactive content package with its files as version 1. */
async function insertContainer(tx: Tx, container: DemoContainer): Promise<number> {
  const [row] = await tx
    .insert(htmlContainers)
    .values({ name: container.name, entry: container.entry })
    .returning({ id: htmlContainers.id });
  await tx.insert(htmlContainerResources).values(
    Object.entries(container.files).map(([path, file]) => ({
      containerId: row!.id,
      version: 1,
      path,
      mime: file.mime,
      data: Buffer.from(file.text, 'utf8'),
    })),
  );
  return row!.id;
}

// ---------------------------------------------------------------- diagnostic

async function insertDiagnostic(
  tx: Tx,
  org: OrgIds,
  testIds: Map<string, number>,
  adminId: number,
  today: string,
): Promise<void> {
  const parallels = [
    ...new Set(DEMO_SUBJECT_TESTS.filter((t) => testIds.has(t.name)).flatMap((t) => t.parallels)),
  ].sort((a, b) => a - b);
  const [diagnostic] = await tx
    .insert(diagnostics)
    .values({
      code: `DEMO-${today.slice(0, 4)}`,
      name: DEMO_DIAGNOSTIC_NAME,
      kind: 'diagnostic',
      ...demoWindow(today),
      parallels,
      createdBy: adminId,
      createdByRole: 'admin',
      isDemo: true,
    })
    .returning({ id: diagnostics.id });
  const diagnosticId = diagnostic!.id;
  await tx
    .insert(diagnosticSubjectTests)
    .values([...testIds.values()].map((subjectTestId) => ({ diagnosticId, subjectTestId })));
  await tx
    .insert(diagnosticSchools)
    .values([...org.schools.values()].map((s) => ({ diagnosticId, schoolId: s.id })));

  const activation = new Set<string>();
  const registration = new Set<string>();
  const fresh = (make: () => string, seen: Set<string>) => {
    let code = make();
    while (seen.has(code)) code = make();
    seen.add(code);
    return code;
  };
  const rows: (typeof participantTests.$inferInsert)[] = [];
  for (const reg of DEMO_REGISTRATIONS) {
    const cls = org.classes.get(`${reg.school}/${reg.className}`);
    if (!cls) throw new Error(`demo: unknown class ${reg.school}/${reg.className}`);
    for (const studentId of cls.studentIds) {
      for (const testName of reg.tests) {
        const subjectTestId = testIds.get(testName);
        if (!subjectTestId) throw new Error(`demo: unknown subject test ${testName}`);
        rows.push({
          diagnosticId,
          subjectTestId,
          studentId,
          schoolId: org.schools.get(reg.school)!.id,
          classId: cls.id,
          buildingId: cls.buildingId,
          testDate: today,
          activationCode: fresh(activationCode, activation),
          registrationCode: fresh(registrationCode, registration),
          status: 'planned',
        });
      }
    }
  }
  await tx.insert(participantTests).values(rows);
}
