import { and, eq, inArray, isNotNull, like, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.js';
import { forgetContent } from '../modules/exam-test/index.js';
import {
  buildings,
  classes,
  diagnosticSchools,
  diagnosticSubjectTests,
  diagnostics,
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
  users,
  variantTasks,
  variants,
  workers,
} from '../db/schema/index.js';
import { DEMO_TEST_GROUPS } from './data/catalog.js';
import { DEMO_LOGINS, DEMO_OO } from './data/org.js';
import { hashDemoPasswords, insertDemoData, lockDemo, type DemoOptions } from './seed.js';

const ids = <T extends { id: number }>(rows: T[]) => rows.map((r) => r.id);

/**
 * Deletes exactly the demo data and loads it anew, in one transaction (all or nothing). Demo data is: the demo oo
 * and everything hanging off it (schools, buildings, classes, students, workers), the demo logins
 * and any account bound to the demo organisation (participants' accounts), the demo diagnostic
 * (isDemo), and the demo content (subjects with a `demo-` code and all below them).
 *
 * Deletes go children first. Tables added later that hang off participant tests, users or
 * content (exam works, answers, results...) must be added here, before their parents.
 */
export async function resetDemoData(db: Db, options: DemoOptions): Promise<void> {
  const hashes = await hashDemoPasswords(options.password);
  await db.transaction(async (tx) => {
    await lockDemo(tx);
    await deleteDemoData(tx);
    await insertDemoData(tx, options.today, hashes);
  });
  forgetContent(db);
}

export async function deleteDemoData(tx: Tx): Promise<void> {
  const ooIds = ids(await tx.select({ id: oo.id }).from(oo).where(eq(oo.inn, DEMO_OO.inn)));
  const schoolIds = ids(
    await tx.select({ id: schools.id }).from(schools).where(inArray(schools.ooId, ooIds)),
  );
  const studentIds = ids(
    await tx.select({ id: students.id }).from(students).where(inArray(students.schoolId, schoolIds)),
  );
  const workerIds = ids(
    await tx.select({ id: workers.id }).from(workers).where(inArray(workers.schoolId, schoolIds)),
  );
  const classIds = ids(
    await tx.select({ id: classes.id }).from(classes).where(inArray(classes.schoolId, schoolIds)),
  );
  const buildingIds = ids(
    await tx.select({ id: buildings.id }).from(buildings).where(inArray(buildings.schoolId, schoolIds)),
  );
  const userIds = ids(
    await tx
      .select({ id: users.id })
      .from(users)
      .where(
        or(
          inArray(sql`lower(${users.login})`, DEMO_LOGINS),
          inArray(users.ooId, ooIds),
          inArray(users.schoolId, schoolIds),
          inArray(users.studentId, studentIds),
          inArray(users.workerId, workerIds),
        ),
      ),
  );
  const diagnosticIds = ids(
    await tx.select({ id: diagnostics.id }).from(diagnostics).where(eq(diagnostics.isDemo, true)),
  );
  const subjectIds = ids(
    await tx.select({ id: subjects.id }).from(subjects).where(like(subjects.code, 'demo-%')),
  );
  const examIds = ids(
    await tx
      .select({ id: subjectExams.id })
      .from(subjectExams)
      .where(inArray(subjectExams.subjectId, subjectIds)),
  );
  const testIds = ids(
    await tx
      .select({ id: subjectTests.id })
      .from(subjectTests)
      .where(inArray(subjectTests.subjectExamId, examIds)),
  );
  // The open diagnostics guests sat the demo's open tests through (docs/open-tests.md).
  diagnosticIds.push(
    ...(
      await tx
        .select({ id: diagnosticSubjectTests.diagnosticId })
        .from(diagnosticSubjectTests)
        .innerJoin(diagnostics, eq(diagnostics.id, diagnosticSubjectTests.diagnosticId))
        .where(and(eq(diagnostics.kind, 'open'), inArray(diagnosticSubjectTests.subjectTestId, testIds)))
    ).map((r) => r.id),
  );
  const variantIds = ids(
    await tx.select({ id: variants.id }).from(variants).where(inArray(variants.subjectTestId, testIds)),
  );
  const taskIds = (
    await tx
      .select({ id: variantTasks.taskId })
      .from(variantTasks)
      .where(inArray(variantTasks.variantId, variantIds))
  ).map((r) => r.id);

  // Registrations first: they reference students, schools, classes, content and the diagnostic.
  await tx.delete(participantTests).where(
    or(
      inArray(participantTests.diagnosticId, diagnosticIds),
      inArray(participantTests.studentId, studentIds),
      inArray(participantTests.workerId, workerIds),
      inArray(participantTests.schoolId, schoolIds),
      inArray(participantTests.subjectTestId, testIds),
      // A demo login's attempts at real open tests go with the login.
      inArray(participantTests.guestUserId, userIds),
    ),
  );
  await tx
    .delete(diagnosticSubjectTests)
    .where(
      or(
        inArray(diagnosticSubjectTests.diagnosticId, diagnosticIds),
        inArray(diagnosticSubjectTests.subjectTestId, testIds),
      ),
    );
  await tx
    .delete(diagnosticSchools)
    .where(
      or(
        inArray(diagnosticSchools.diagnosticId, diagnosticIds),
        inArray(diagnosticSchools.schoolId, schoolIds),
      ),
    );
  await tx.delete(diagnostics).where(inArray(diagnostics.id, diagnosticIds));
  // A real diagnostic someone created while signed in as a demo login outlives that login.
  await tx.update(diagnostics).set({ createdBy: null }).where(inArray(diagnostics.createdBy, userIds));

  // Sessions, roles, API keys and e-mail tokens go with their users (ON DELETE CASCADE).
  await tx
    .delete(organizatorAssignments)
    .where(
      or(
        inArray(organizatorAssignments.userId, userIds),
        inArray(organizatorAssignments.classId, classIds),
        inArray(organizatorAssignments.buildingId, buildingIds),
      ),
    );
  await tx.delete(users).where(inArray(users.id, userIds));

  await tx.delete(students).where(inArray(students.id, studentIds));
  await tx.delete(workers).where(inArray(workers.id, workerIds));
  await tx.delete(classes).where(inArray(classes.id, classIds));
  await tx.delete(buildings).where(inArray(buildings.id, buildingIds));
  await tx.delete(schools).where(inArray(schools.id, schoolIds));
  await tx.delete(oo).where(inArray(oo.id, ooIds));

  // Content: variant tasks go with their variants (ON DELETE CASCADE); a task is deleted only
  // when no other variant uses it.
  await tx.delete(variants).where(inArray(variants.id, variantIds));
  const stillUsed = new Set(
    (
      await tx
        .select({ id: variantTasks.taskId })
        .from(variantTasks)
        .where(inArray(variantTasks.taskId, taskIds))
    ).map((r) => r.id),
  );
  const containerIds = (
    await tx
      .select({ id: tasks.htmlContainerId })
      .from(tasks)
      .where(and(inArray(tasks.id, taskIds), isNotNull(tasks.htmlContainerId)))
  ).map((r) => r.id!);
  await tx.delete(tasks).where(
    inArray(
      tasks.id,
      taskIds.filter((id) => !stillUsed.has(id)),
    ),
  );
  // Demo containers (their files go with them), unless a real task uses one meanwhile.
  const containersInUse = new Set(
    (
      await tx
        .select({ id: tasks.htmlContainerId })
        .from(tasks)
        .where(inArray(tasks.htmlContainerId, containerIds))
    ).map((r) => r.id),
  );
  await tx.delete(htmlContainers).where(
    inArray(
      htmlContainers.id,
      containerIds.filter((id) => !containersInUse.has(id)),
    ),
  );
  await tx.delete(subjectTests).where(inArray(subjectTests.id, testIds));
  await tx.delete(subjectExams).where(inArray(subjectExams.id, examIds));
  await tx.delete(subjects).where(inArray(subjects.id, subjectIds));
  // Demo test groups, unless real subject tests were filed under them meanwhile.
  const groups = await tx
    .select({ id: testGroups.id })
    .from(testGroups)
    .where(inArray(testGroups.name, DEMO_TEST_GROUPS));
  for (const group of groups) {
    const [used] = await tx
      .select({ id: subjectTests.id })
      .from(subjectTests)
      .where(eq(subjectTests.testGroupId, group.id))
      .limit(1);
    if (!used) await tx.delete(testGroups).where(eq(testGroups.id, group.id));
  }
}
