import { schoolDay } from '../../lib/calendar.js';
import type {
  FieldError,
  StaffParticipantTest,
  StaffParticipantTestRegisterBody,
  StaffParticipantTestRegisterResult,
  StaffParticipantTestUpdateBody,
  StaffStudent,
  StaffStudentSaveBody,
} from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { fieldError as codedFieldError, outsideWindow } from '../../lib/participant-tests.js';
import { activationCode, registrationCode } from '../../lib/tokens.js';
import * as repo from './school-data.repo.js';
import type { StaffScope } from './school-data.access.js';

/**
 * Students, lists and participant tests of a school, shared by `/api/coordinator/*` (scope: own
 * school) and `/api/organizator/*` (scope: assigned classes and buildings). Rules, transactions
 * and audit live here; the queries in school-data.repo.ts.
 */

export interface Actor {
  auth: AuthContext;
  scope: StaffScope;
  ip: string | null;
}

const fieldError = (path: string, message: string) =>
  badRequest('validation_failed', `${path} ${message}`, [{ path, message }]);
const outOfScope = (what: string) => forbidden(`${what} is outside your scope`);

const moscowToday = (now = new Date()) => schoolDay(now);

export {
  listBuildings,
  listClasses,
  listDiagnostics,
  listParallels,
  listParticipantTests,
  listStudents,
  diagnosticsByParam,
} from './school-data.repo.js';

// ---------------------------------------------------------------- students

/** A student the caller may see: 404 when no live student has the id, 403 outside scope. */
export async function getStudent(db: DbOrTx, scope: StaffScope, id: number): Promise<StaffStudent> {
  const found = await repo.findStudent(db, id, scope);
  if (!found) throw notFound('No such student');
  if (!found.inScope) throw outOfScope('This student');
  return found.student;
}

/** The class a student goes to: it must exist (400) and lie within the caller's scope (403). */
async function classForStudent(tx: Tx, scope: StaffScope, classId: number) {
  const [cls] = await repo.classesByIds(tx, scope, [classId]);
  if (!cls) throw fieldError('body.classId', 'no such class');
  if (!cls.inScope) throw outOfScope('This class');
  return cls;
}

/** `POST .../student`: create (no id) or update (id) a student in a class within scope. */
export async function saveStudent(
  ctx: AppContext,
  actor: Actor,
  body: StaffStudentSaveBody,
): Promise<StaffStudent> {
  if (body.birthDate > moscowToday()) throw fieldError('body.birthDate', 'is in the future');
  if (body.birthDate < '1900-01-01') throw fieldError('body.birthDate', 'is too far in the past');
  const id = await ctx.db.transaction(async (tx) => {
    const current = body.id === undefined ? null : await repo.lockStudent(tx, body.id);
    if (body.id !== undefined) {
      if (!current) throw notFound('No such student');
      // The student must be within scope now, not only in the class it is moved to.
      const found = await repo.findStudent(tx, body.id, actor.scope);
      if (!found?.inScope) throw outOfScope('This student');
    }
    const cls = await classForStudent(tx, actor.scope, body.classId);
    if (current && cls.schoolId !== current.schoolId)
      throw fieldError('body.classId', 'is a class of another school');
    const values: repo.StudentWrite = {
      surname: body.surname,
      name: body.name,
      patronymic: body.patronymic === undefined ? (current?.patronymic ?? null) : body.patronymic,
      birthDate: body.birthDate,
      gender: body.gender === undefined ? (current?.gender ?? null) : body.gender,
      classId: cls.id,
    };
    const twin = await repo.findTwin(
      tx,
      cls.schoolId,
      {
        surname: values.surname,
        name: values.name,
        patronymic: values.patronymic ?? null,
        birthDate: body.birthDate,
      },
      current?.id,
    );
    if (twin !== null)
      throw conflict('duplicate_student', `The school already has this student (id ${twin})`);

    if (current) {
      const changes = Object.fromEntries(
        (Object.keys(values) as (keyof repo.StudentWrite)[])
          .filter((k) => (current[k] ?? null) !== (values[k] ?? null))
          .map((k) => [k, { from: current[k] ?? null, to: values[k] ?? null }]),
      );
      if (!Object.keys(changes).length) return current.id;
      await repo.updateStudent(tx, current.id, values);
      await audit(tx, {
        userId: actor.auth.userId,
        action: 'student.update',
        entity: 'student',
        entityId: current.id,
        ip: actor.ip,
        details: { via: actor.scope.role, changes },
      });
      return current.id;
    }
    const newId = await repo.insertStudent(tx, cls.schoolId, values);
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'student.create',
      entity: 'student',
      entityId: newId,
      ip: actor.ip,
      details: { via: actor.scope.role, ...values },
    });
    return newId;
  });
  return getStudent(ctx.db, actor.scope, id);
}

/**
 * `DELETE /api/coordinator/student/{id}`: soft delete. Refused (409) while an attempt is running;
 * the student's registrations that have not started go with them (their codes stop working).
 */
export async function deleteStudent(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const dropped = await ctx.db.transaction(async (tx) => {
    const student = await repo.lockStudent(tx, id);
    if (!student) throw notFound('No such student');
    const found = await repo.findStudent(tx, id, actor.scope);
    if (!found?.inScope) throw outOfScope('This student');
    if (await repo.hasWorkInProgress(tx, id))
      throw conflict('work_in_progress', 'The student is taking a test right now; delete after it finishes');
    const now = new Date();
    const ptIds = await repo.unstartedParticipantTestIds(tx, id);
    await repo.softDeleteStudent(tx, id, now);
    await repo.softDeleteParticipantTests(tx, ptIds, now);
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'student.delete',
      entity: 'student',
      entityId: id,
      ip: actor.ip,
      details: {
        surname: student.surname,
        name: student.name,
        classId: student.classId,
        droppedParticipantTestIds: ptIds,
      },
    });
    return ptIds;
  });
  for (const participantTestId of dropped)
    await ctx.sessions.revokeWhere({ participantTestId }, 'student_deleted');
}

// ---------------------------------------------------------------- participant tests

export async function getParticipantTest(
  db: DbOrTx,
  scope: StaffScope,
  id: number,
): Promise<StaffParticipantTest> {
  const found = await repo.findParticipantTest(db, id, scope);
  if (!found) throw notFound('No such participant test');
  if (!found.inScope) throw outOfScope('This participant test');
  const [item] = await repo.participantTestsByIds(db, [id]);
  return item!;
}

const CODE_ATTEMPTS = 5;

/** Fresh activation and registration codes for `n` rows, unused in the table and in the batch. */
async function freshCodes(tx: Tx, n: number): Promise<{ activation: string; registration: string }[]> {
  const codes = Array.from({ length: n }, () => ({
    activation: activationCode(),
    registration: registrationCode(),
  }));
  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
    const taken = await repo.takenCodes(
      tx,
      codes.map((c) => c.activation),
      codes.map((c) => c.registration),
    );
    const seenA = new Set<string>();
    const seenR = new Set<string>();
    let clashes = 0;
    for (const c of codes) {
      while (taken.activation.has(c.activation.toUpperCase()) || seenA.has(c.activation.toUpperCase())) {
        c.activation = activationCode();
        clashes++;
      }
      while (taken.registration.has(c.registration) || seenR.has(c.registration)) {
        c.registration = registrationCode();
        clashes++;
      }
      seenA.add(c.activation.toUpperCase());
      seenR.add(c.registration);
    }
    if (!clashes) return codes;
  }
  return codes;
}

const isCodeClash = (err: unknown) => {
  for (const e of [err, (err as { cause?: unknown })?.cause] as {
    code?: string;
    message?: string;
    constraint?: string;
  }[]) {
    if (
      e?.code === '23505' &&
      /participant_tests_(activation|registration)_code/.test(`${e.constraint} ${e.message}`)
    )
      return true;
  }
  return false;
};

/**
 * Inserts the rows with unique codes. A concurrent registration elsewhere may take a code between
 * the check and the insert; the unique index refuses it and the batch retries with new codes
 * inside a savepoint, so the outer transaction survives.
 */
async function insertWithCodes(
  tx: Tx,
  rows: Omit<repo.ParticipantTestInsert, 'activationCode' | 'registrationCode'>[],
) {
  for (let attempt = 1; ; attempt++) {
    const codes = await freshCodes(tx, rows.length);
    try {
      return await tx.transaction((sp) =>
        repo.insertParticipantTests(
          sp,
          rows.map((r, i) => ({
            ...r,
            activationCode: codes[i]!.activation,
            registrationCode: codes[i]!.registration,
          })),
        ),
      );
    } catch (err) {
      if (!isCodeClash(err) || attempt >= CODE_ATTEMPTS) throw err;
    }
  }
}

function assertDateInWindow(date: string, target: { firstDay: string; lastDay: string }, path: string) {
  if (date < target.firstDay || date > target.lastDay)
    throw outsideWindow(path, date, { from: target.firstDay, to: target.lastDay });
}

/**
 * `POST .../participantTest/save` without `id`: registers students (by id or whole classes) for a
 * subject test of a diagnostic. Idempotent: students already registered for that (diagnostic,
 * subject test) are skipped. All or nothing: any student of a wrong grade fails the whole call
 * with one error per student.
 */
export async function registerParticipants(
  ctx: AppContext,
  actor: Actor,
  body: StaffParticipantTestRegisterBody,
): Promise<StaffParticipantTestRegisterResult> {
  const { scope } = actor;
  const createdIds = await ctx.db.transaction(async (tx) => {
    const target = await repo.registrationTarget(tx, body.diagnosticId, body.subjectTestId);
    if (!target) throw notFound('No such diagnostic');
    if (target.kind === 'worker') throw fieldError('body.diagnosticId', 'is a worker-test diagnostic');
    if (scope.role === 'coordinator' && !target.schoolIds.includes(scope.schoolId))
      throw forbidden('This diagnostic does not include your school');
    if (!target.subjectTest)
      throw codedFieldError(
        'body.subjectTestId',
        'is not a subject test of this diagnostic',
        'not_in_diagnostic',
      );
    assertDateInWindow(body.testDate, target, 'body.testDate');

    if (body.classIds) {
      const classes = await repo.classesByIds(tx, scope, body.classIds);
      const known = new Set(classes.map((c) => c.id));
      const missing = body.classIds.findIndex((id) => !known.has(id));
      if (missing >= 0) throw fieldError(`body.classIds.${missing}`, 'no such class');
      if (classes.some((c) => !c.inScope)) throw outOfScope('A class');
    }
    const building =
      body.buildingId === undefined ? null : await repo.buildingById(tx, scope, body.buildingId);
    if (body.buildingId !== undefined) {
      if (!building) throw fieldError('body.buildingId', 'no such building');
      if (!building.inScope) throw outOfScope('This building');
    }

    const candidates = await repo.registrationCandidates(
      tx,
      scope,
      body.studentIds ? { studentIds: [...new Set(body.studentIds)] } : { classIds: body.classIds! },
    );
    if (body.studentIds) {
      const known = new Set(candidates.map((c) => c.id));
      const errors: FieldError[] = body.studentIds.flatMap((id, i) =>
        known.has(id) ? [] : [{ path: `body.studentIds.${i}`, message: `no such student: ${id}` }],
      );
      if (errors.length) throw badRequest('validation_failed', 'Some students do not exist', errors);
    }
    if (candidates.some((c) => !c.inScope)) throw outOfScope('A student');
    if (
      scope.role === 'organizator' &&
      candidates.length &&
      !candidates.some((c) => target.schoolIds.includes(c.schoolId))
    )
      throw forbidden('This diagnostic does not include your school');

    const testGrades = target.subjectTest.parallels;
    const errors: FieldError[] = [];
    for (const s of candidates) {
      const who = `${s.surname} ${s.name} (id ${s.id})`;
      const path = `students.${s.id}`;
      const name = `${s.surname} ${s.name}`;
      const refuse = (message: string, code: string, params: Record<string, string | number> = {}) =>
        errors.push({ path, message: `${who}: ${message}`, code, params: { name, ...params } });
      if (s.parallel === null) refuse('has no class', 'student_without_class');
      else if (testGrades.length && !testGrades.includes(s.parallel))
        refuse(
          `grade ${s.parallel} is not among the test’s grades ${testGrades.join(', ')}`,
          'grade_not_in_test',
          { grade: s.parallel, grades: testGrades.join(', ') },
        );
      else if (target.parallels.length && !target.parallels.includes(s.parallel))
        refuse(`grade ${s.parallel} is not among the diagnostic’s grades`, 'grade_not_in_diagnostic', {
          grade: s.parallel,
        });
      else if (!target.schoolIds.includes(s.schoolId))
        refuse('the diagnostic does not include this student’s school', 'school_not_in_diagnostic');
      else if (building && building.schoolId !== s.schoolId)
        refuse('the building belongs to another school', 'building_of_other_school');
    }
    if (errors.length)
      throw badRequest('validation_failed', `${errors.length} student(s) cannot take this test`, errors);

    await repo.lockRegistration(tx, body.diagnosticId, body.subjectTestId);
    const already = await repo.registeredStudentIds(
      tx,
      body.diagnosticId,
      body.subjectTestId,
      candidates.map((c) => c.id),
    );
    const fresh = candidates.filter((c) => !already.has(c.id));
    const ids = await insertWithCodes(
      tx,
      fresh.map((s) => ({
        diagnosticId: body.diagnosticId,
        subjectTestId: body.subjectTestId,
        studentId: s.id,
        schoolId: s.schoolId,
        classId: s.classId,
        buildingId: building?.id ?? s.buildingId,
        testDate: body.testDate,
        status: 'planned',
      })),
    );
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'participant_test.register',
      entity: 'diagnostic',
      entityId: body.diagnosticId,
      ip: actor.ip,
      details: {
        via: scope.role,
        subjectTestId: body.subjectTestId,
        testDate: body.testDate,
        buildingId: body.buildingId ?? null,
        by: body.studentIds ? 'students' : 'classes',
        classIds: body.classIds ?? null,
        created: ids.length,
        skipped: already.size,
        participantTestIds: ids,
      },
    });
    return { ids, skipped: already.size };
  });
  return {
    created: createdIds.ids.length,
    skipped: createdIds.skipped,
    items: await repo.participantTestsByIds(ctx.db, createdIds.ids),
  };
}

/** Statuses in which a participant test has not started and may be re-planned or marked absent. */
const CHANGEABLE_STATUSES = ['planned', 'active', 'absent'];

/** `POST .../participantTest/save` with `id`: date, class/building of the room, absent ⇄ planned. */
export async function updateParticipantTest(
  ctx: AppContext,
  actor: Actor,
  body: StaffParticipantTestUpdateBody,
): Promise<StaffParticipantTest> {
  const { scope } = actor;
  const becameAbsent = await ctx.db.transaction(async (tx) => {
    const found = await repo.findParticipantTest(tx, body.id, scope);
    if (!found) throw notFound('No such participant test');
    if (!found.inScope) throw outOfScope('This participant test');
    const pt = (await repo.lockParticipantTest(tx, body.id))!;

    const patch: repo.ParticipantTestPatch = {};
    if (body.testDate !== undefined && body.testDate !== pt.testDate) patch.testDate = body.testDate;
    if (body.status !== undefined && body.status !== pt.status) patch.status = body.status;
    if (body.classId !== undefined && body.classId !== pt.classId) {
      const [cls] = await repo.classesByIds(tx, scope, [body.classId]);
      if (!cls) throw fieldError('body.classId', 'no such class');
      if (!cls.inScope) throw outOfScope('This class');
      if (cls.schoolId !== pt.schoolId) throw fieldError('body.classId', 'is a class of another school');
      patch.classId = cls.id;
      // A new class brings its building unless a building was given too.
      if (body.buildingId === undefined && cls.buildingId !== pt.buildingId)
        patch.buildingId = cls.buildingId;
    }
    if (body.buildingId !== undefined && body.buildingId !== pt.buildingId) {
      if (body.buildingId !== null) {
        const building = await repo.buildingById(tx, scope, body.buildingId);
        if (!building) throw fieldError('body.buildingId', 'no such building');
        if (!building.inScope) throw outOfScope('This building');
        if (building.schoolId !== pt.schoolId)
          throw fieldError('body.buildingId', 'is a building of another school');
      }
      patch.buildingId = body.buildingId;
    }
    if (!Object.keys(patch).length) return false;
    if (pt.hasWork || !CHANGEABLE_STATUSES.includes(pt.status))
      throw conflict(
        'participant_test_started',
        'The test has started; its date, room and status cannot change',
      );
    if (patch.testDate) {
      const target = await repo.registrationTarget(tx, pt.diagnosticId, -1);
      if (target) assertDateInWindow(patch.testDate, target, 'body.testDate');
    }
    await repo.updateParticipantTest(tx, pt.id, patch);
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'participant_test.update',
      entity: 'participant_test',
      entityId: pt.id,
      ip: actor.ip,
      details: {
        via: scope.role,
        changes: Object.fromEntries(
          Object.entries(patch).map(([k, to]) => [k, { from: pt[k as keyof typeof pt], to }]),
        ),
      },
    });
    return patch.status === 'absent';
  });
  // An absent participant's code must not open a session any more.
  if (becameAbsent) await ctx.sessions.revokeWhere({ participantTestId: body.id }, 'marked_absent');
  return getParticipantTest(ctx.db, scope, body.id);
}

export function saveParticipantTests(
  ctx: AppContext,
  actor: Actor,
  body: StaffParticipantTestRegisterBody | StaffParticipantTestUpdateBody,
): Promise<StaffParticipantTestRegisterResult | StaffParticipantTest> {
  return 'id' in body ? updateParticipantTest(ctx, actor, body) : registerParticipants(ctx, actor, body);
}
