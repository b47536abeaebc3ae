import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANSWER_TYPES,
  STAFF_ROLES,
  answerValueSchemaFor,
  clozePlaceholders,
  contentSchemaFor,
  isManualAnswerType,
  referenceSchemaFor,
  scoringSchemaFor,
  taskDefinitionSchema,
  type TaskDefinition,
} from '@attesta/contract';
import { createTestDatabase } from '../../test/helpers.js';
import type { Database, Db } from '../db/client.js';
import * as schema from '../db/schema/index.js';
import { verifyPassword } from '../lib/password.js';
import { formatDemoCodes, listDemoCodes } from './codes.js';
import { resetDemoData } from './reset.js';
import { openTestConflicts } from '../modules/authoring/index.js';
import { ensureDemoToday, loadDemoData } from './seed.js';

const TODAY = '2026-03-16';
const PASSWORD = 'demo-secret';

let database: Database;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  expect(await loadDemoData(db, { password: PASSWORD, today: TODAY })).toBe(true);
});
afterAll(async () => database.close());

const COUNTED = {
  oo: schema.oo,
  schools: schema.schools,
  buildings: schema.buildings,
  classes: schema.classes,
  students: schema.students,
  workers: schema.workers,
  workerPositions: schema.workerPositions,
  users: schema.users,
  userRoles: schema.userRoles,
  organizatorAssignments: schema.organizatorAssignments,
  subjects: schema.subjects,
  subjectExams: schema.subjectExams,
  testGroups: schema.testGroups,
  subjectTests: schema.subjectTests,
  variants: schema.variants,
  tasks: schema.tasks,
  variantTasks: schema.variantTasks,
  diagnostics: schema.diagnostics,
  diagnosticSubjectTests: schema.diagnosticSubjectTests,
  diagnosticSchools: schema.diagnosticSchools,
  participantTests: schema.participantTests,
  htmlContainers: schema.htmlContainers,
  htmlContainerResources: schema.htmlContainerResources,
};

async function counts(): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const [name, table] of Object.entries(COUNTED)) {
    const [row] = await db.select({ n: count() }).from(table);
    result[name] = row!.n;
  }
  return result;
}

/** A fully correct answer built from the key, in the saveanswer `value` shape. */
function correctValue(task: TaskDefinition): unknown {
  switch (task.answerType) {
    case 'single_choice':
      return task.reference.correct;
    case 'multiple_choice':
      return task.reference.correct;
    case 'short_text':
      return task.reference.accepted[0];
    case 'number':
      return 'value' in task.reference
        ? String(task.reference.value).replace('.', ',')
        : String(task.reference.min);
    case 'digit_sequence':
      return task.reference.digits;
    case 'ordering':
      return task.reference.order;
    case 'matching':
      return task.reference.pairs;
    case 'cloze':
      return Object.fromEntries(
        Object.entries(task.reference.blanks).map(([id, accepted]) => [id, accepted[0]]),
      );
    case 'extended_text':
      return 'Развёрнутый ответ участника.';
    case 'file':
      return { fileIds: [1, 2] };
  }
}

async function demoTests() {
  return db
    .select({
      testId: schema.subjectTests.id,
      testName: schema.subjectTests.name,
      isOpen: schema.subjectTests.isOpen,
      variant: schema.variants.number,
      position: schema.variantTasks.position,
      vtMax: schema.variantTasks.maxScore,
      task: schema.tasks,
    })
    .from(schema.subjectTests)
    .innerJoin(schema.variants, eq(schema.variants.subjectTestId, schema.subjectTests.id))
    .innerJoin(schema.variantTasks, eq(schema.variantTasks.variantId, schema.variants.id))
    .innerJoin(schema.tasks, eq(schema.tasks.id, schema.variantTasks.taskId));
}

describe('demo seed', () => {
  it('is idempotent: a second run adds nothing', async () => {
    const before = await counts();
    expect(await loadDemoData(db, { password: PASSWORD, today: TODAY })).toBe(false);
    expect(await counts()).toEqual(before);
  });

  it('stores every task in the contract shapes, with correct answers that fit the value schema', async () => {
    const rows = await demoTests();
    expect(rows.length).toBeGreaterThanOrEqual(80);
    for (const { task, vtMax, testName, variant, position } of rows) {
      const where = `${testName}, вариант ${variant}, задание ${position}`;
      const type = task.answerType as (typeof ANSWER_TYPES)[number];
      expect(ANSWER_TYPES, where).toContain(type);
      expect(contentSchemaFor(type).safeParse(task.content).success, where).toBe(true);
      expect(referenceSchemaFor(type).safeParse(task.reference).success, where).toBe(true);
      expect(scoringSchemaFor(type).safeParse(task.scoring).success, where).toBe(true);
      const parsed = taskDefinitionSchema.safeParse({
        answerType: type,
        content: task.content,
        reference: task.reference,
        scoring: task.scoring,
        maxScore: task.maxScore,
        criteria: task.criteria ?? undefined,
      });
      expect(parsed.error?.issues ?? [], where).toEqual([]);
      const definition = parsed.data!;
      expect(answerValueSchemaFor(type).safeParse(correctValue(definition)).success, where).toBe(true);
      expect(vtMax, where).toBe(task.maxScore);
      expect(task.html, where).toMatch(/^<p>/);
      if (definition.answerType === 'cloze')
        expect(clozePlaceholders(task.html).sort(), where).toEqual(
          definition.content.blanks.map((b) => b.id).sort(),
        );
      if (definition.answerType === 'extended_text' || definition.answerType === 'file')
        expect(task.solutionHtml, where).toBeTruthy();
    }
  });

  it('has subject tests of ≥2 variants × ≥10 tasks, each variant covering every answer type', async () => {
    const rows = await demoTests();
    const tests = new Map<string, Map<number, string[]>>();
    // The open practice test is built of the automatically scored tasks only (see the next test).
    for (const row of rows.filter((r) => !r.isOpen)) {
      const variants = tests.get(row.testName) ?? new Map<number, string[]>();
      variants.set(row.variant, [...(variants.get(row.variant) ?? []), row.task.answerType]);
      tests.set(row.testName, variants);
    }
    expect(tests.size).toBeGreaterThanOrEqual(4);
    for (const [name, variants] of tests) {
      expect(variants.size, name).toBeGreaterThanOrEqual(2);
      for (const types of variants.values()) {
        expect(types.length, name).toBeGreaterThanOrEqual(10);
        expect(new Set(types), name).toEqual(new Set(ANSWER_TYPES));
      }
    }
    const [test] = await db.select().from(schema.subjectTests).limit(1);
    expect(test!.durationMinutes).toBeGreaterThan(0);
    expect(test!.procedureHtml).toContain('Порядок проведения');
    expect(test!.instructionHtml).toContain('Инструкция');
    expect(test!.markScale.map((m) => m.mark)).toEqual(['5', '4', '3', '2']);
    expect(test!.markScale.map((m) => m.level)).toContain('базовый');
  });

  it('has an open test for the demo guest, every task scored automatically, in no diagnostic', async () => {
    const rows = (await demoTests()).filter((r) => r.isOpen);
    expect(new Set(rows.map((r) => r.testName)).size).toBe(1);
    expect(new Set(rows.map((r) => r.variant)).size).toBeGreaterThanOrEqual(2);
    for (const { task } of rows) expect(isManualAnswerType(task.answerType), task.answerType).toBe(false);
    const inDiagnostic = await db
      .select({ id: schema.diagnosticSubjectTests.diagnosticId })
      .from(schema.diagnosticSubjectTests)
      .innerJoin(schema.subjectTests, eq(schema.subjectTests.id, schema.diagnosticSubjectTests.subjectTestId))
      .where(eq(schema.subjectTests.isOpen, true));
    expect(inDiagnostic).toEqual([]);
  });

  it('the open practice test has items of its own: no task, and no task text, of a secure test', async () => {
    const rows = await demoTests();
    const open = rows.filter((r) => r.isOpen);
    const secure = rows.filter((r) => !r.isOpen);
    expect(open.length).toBeGreaterThan(0);
    const secureIds = new Set(secure.map((r) => r.task.id));
    const secureTexts = new Set(secure.map((r) => r.task.html));
    for (const { task } of open) {
      expect(secureIds.has(task.id)).toBe(false);
      expect(secureTexts.has(task.html), task.html).toBe(false);
    }
    // And by the rule the admin's «open» switch checks (docs/open-tests.md), on the demo's day.
    for (const testId of new Set(open.map((r) => r.testId)))
      expect(await openTestConflicts(db, testId, new Date(`${TODAY}T10:00:00+03:00`))).toEqual([]);
  });

  it('has an interactive task (html container speaking the runner protocol) in both informatics variants', async () => {
    const rows = (await demoTests()).filter((r) => r.task.htmlContainerId !== null);
    expect(rows.map((r) => [r.testName, r.variant])).toEqual([
      ['Диагностическая работа по информатике, 9 класс', 1],
      ['Диагностическая работа по информатике, 9 класс', 2],
    ]);
    expect(new Set(rows.map((r) => r.position)).size).toBe(1);
    const containerId = rows[0]!.task.htmlContainerId!;
    expect(rows[1]!.task.htmlContainerId).toBe(containerId);
    const files = await db
      .select()
      .from(schema.htmlContainerResources)
      .where(eq(schema.htmlContainerResources.containerId, containerId));
    const text = (path: string) => files.find((f) => f.path === path)?.data.toString('utf8') ?? '';
    expect(files.map((f) => f.path).sort()).toEqual([
      'bulb.svg',
      'bundles/app.js',
      'index.html',
      'style.css',
    ]);
    expect(text('index.html')).toContain('src="bundles/app.js"');
    expect(text('index.html')).toContain('href="style.css"');
    expect(text('style.css')).toContain('url(bulb.svg)');
    for (const message of ['attesta:ready', 'attesta:answer', 'attesta:resize', 'attesta:init'])
      expect(text('bundles/app.js')).toContain(message);
    // The key stays on the server: the container knows nothing of the answer.
    for (const { task } of rows)
      for (const file of files)
        expect(file.data.toString('utf8')).not.toContain((task.reference as { digits: string }).digits);
  });

  it('has ≥3 subjects with diagnostic exams', async () => {
    const subjects = await db.select().from(schema.subjects);
    expect(subjects.map((s) => s.name)).toEqual(
      expect.arrayContaining(['Математика', 'Русский язык', 'Физика', 'Информатика']),
    );
    const exams = await db.select().from(schema.subjectExams);
    expect(exams.every((e) => e.kind === 'diagnostic')).toBe(true);
    expect(exams.length).toBe(subjects.length);
  });

  it('has ~60 students across ≥2 schools and ≥3 parallels, with birth dates that fit the grade', async () => {
    const rows = await db
      .select({ student: schema.students, grade: schema.classes.parallelId })
      .from(schema.students)
      .innerJoin(schema.classes, eq(schema.classes.id, schema.students.classId));
    expect(rows.length).toBeGreaterThanOrEqual(55);
    expect(rows.length).toBeLessThanOrEqual(70);
    expect(new Set(rows.map((r) => r.student.schoolId)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(rows.map((r) => r.grade)).size).toBeGreaterThanOrEqual(3);
    for (const { student, grade } of rows) {
      const age = (Date.parse(TODAY) - Date.parse(student.birthDate!)) / (365.25 * 86_400_000);
      expect(age - grade, `${student.surname}, ${grade} класс`).toBeGreaterThan(5.5);
      expect(age - grade, `${student.surname}, ${grade} класс`).toBeLessThan(7.5);
      // Feminine surnames and patronymics go together.
      expect(/(а|ая)$/.test(student.surname), student.surname).toBe(/на$/.test(student.patronymic!));
    }
    const buildings = await db.select().from(schema.buildings);
    expect(buildings.length).toBeGreaterThanOrEqual(3);
  });

  it('has one login of every staff role and a guest, all with the demo password', async () => {
    const rows = await db
      .select({ user: schema.users, role: schema.userRoles.role })
      .from(schema.users)
      .innerJoin(schema.userRoles, eq(schema.userRoles.userId, schema.users.id));
    // The login named after its role (experts: also expert2, expert3 for double and third marking).
    const byRole = new Map(rows.filter((r) => r.user.login === r.role).map((r) => [r.role, r.user]));
    for (const role of [...STAFF_ROLES, 'guest'] as const) {
      const user = byRole.get(role);
      expect(user, role).toBeDefined();
      expect(user!.login).toBe(role === 'guest' ? 'guest' : role);
      expect(user!.surname, role).toBeTruthy();
      expect(await verifyPassword(PASSWORD, user!.passwordHash), role).toBe(true);
    }
    expect(byRole.get('guest')!.emailConfirmedAt).not.toBeNull();
    expect(byRole.get('coordinator')!.schoolId).not.toBeNull();
    expect(byRole.get('ugnik')!.ooId).not.toBeNull();
    // The demo ugnik watches the demo area, where every demo school lies (docs/ugnik.md).
    const ugnikArea = byRole.get('ugnik')!.areaId;
    expect(ugnikArea).not.toBeNull();
    const demoSchools = await db.select().from(schema.schools);
    expect(demoSchools.length).toBeGreaterThan(0);
    expect(demoSchools.every((s) => s.areaId === ugnikArea)).toBe(true);
    const organizator = byRole.get('organizator')!;
    expect(organizator.workerId).not.toBeNull();
    const assignments = await db
      .select()
      .from(schema.organizatorAssignments)
      .where(eq(schema.organizatorAssignments.userId, organizator.id));
    expect(assignments.length).toBeGreaterThanOrEqual(1);
    // Three experts whose profiles cover every demo subject, so demo works reach graders.
    const experts = rows.filter((r) => r.role === 'expert').map((r) => r.user);
    expect(experts.map((e) => e.login).sort()).toEqual(['expert', 'expert2', 'expert3']);
    const subjectCount = (await db.select().from(schema.subjects)).length;
    for (const e of experts)
      expect((e.profile as { expert?: { subjectIds: number[] } }).expert?.subjectIds).toHaveLength(
        subjectCount,
      );
  });

  it("lists today's codes as CODE<TAB>Фамилия Имя<TAB>subject test, sorted", async () => {
    const rows = await listDemoCodes(db, TODAY);
    expect(rows.length).toBeGreaterThanOrEqual(40);
    const lines = formatDemoCodes(rows).split('\n');
    expect(lines.pop()).toBe('');
    for (const line of lines)
      expect(line).toMatch(
        /^[2-9A-Z]{5}-[2-9A-Z]{5}\t[А-ЯЁ][а-яё-]+ [А-ЯЁ][а-яё]+\tДиагностическая работа .+$/,
      );
    const keys = rows.map((r) => [r.participant, r.subjectTest] as const);
    const sorted = [...keys].sort((a, b) => a[0].localeCompare(b[0], 'ru') || a[1].localeCompare(b[1], 'ru'));
    expect(keys).toEqual(sorted);
    const pts = await db.select().from(schema.participantTests);
    expect(pts.every((p) => p.status === 'planned' && /^\d{12}$/.test(p.registrationCode))).toBe(true);
    const [diagnostic] = await db
      .select()
      .from(schema.diagnostics)
      .where(eq(schema.diagnostics.isDemo, true));
    expect(diagnostic!.code).toBe('DEMO-2026');
    expect(diagnostic!.startsAt.toISOString()).toBe('2026-03-15T21:00:00.000Z');
    expect(diagnostic!.endsAt.toISOString()).toBe('2026-03-17T01:00:00.000Z');
  });

  it('ensureDemoToday moves the diagnostic and its participant tests, keeping the codes', async () => {
    const before = (await listDemoCodes(db, TODAY)).map((r) => r.code).sort();
    expect(await ensureDemoToday(db, '2026-03-17')).toBe(true);
    expect(await ensureDemoToday(db, '2026-03-17')).toBe(false);
    expect(await listDemoCodes(db, TODAY)).toEqual([]);
    expect((await listDemoCodes(db, '2026-03-17')).map((r) => r.code).sort()).toEqual(before);
    const [diagnostic] = await db
      .select()
      .from(schema.diagnostics)
      .where(eq(schema.diagnostics.isDemo, true));
    expect(diagnostic!.startsAt.toISOString()).toBe('2026-03-16T21:00:00.000Z');
    expect(await ensureDemoToday(db, TODAY)).toBe(true);
  });

  it('reset deletes exactly the demo data and restores the same counts', async () => {
    // Real data next to the demo must survive a reset.
    const [realOo] = await db.insert(schema.oo).values({ name: 'ГБОУ Школа № 2086' }).returning();
    const [realSubject] = await db
      .insert(schema.subjects)
      .values({ name: 'История', code: 'hist' })
      .returning();
    const before = await counts();
    const oldCodes = (await listDemoCodes(db, TODAY)).map((r) => r.code);
    // A participant signed in and a demo user has a session: reset must cope with both.
    await db.insert(schema.sessions).values({
      id: 'x'.repeat(64),
      userId: (
        await db
          .select()
          .from(schema.users)
          .where(sql`login = 'admin'`)
      )[0]!.id,
      kind: 'password',
      expiresAt: new Date(Date.now() + 3_600_000),
    });

    await resetDemoData(db, { password: PASSWORD, today: TODAY });

    expect(await counts()).toEqual(before);
    const newCodes = (await listDemoCodes(db, TODAY)).map((r) => r.code);
    expect(newCodes.length).toBe(oldCodes.length);
    expect(newCodes.some((c) => oldCodes.includes(c))).toBe(false);
    expect(await db.select().from(schema.oo).where(eq(schema.oo.id, realOo!.id))).toHaveLength(1);
    expect(
      await db.select().from(schema.subjects).where(eq(schema.subjects.id, realSubject!.id)),
    ).toHaveLength(1);
    expect(await db.select().from(schema.sessions)).toHaveLength(0);
  });
});
