import type { Actor } from '../../auth/actor.js';
import {
  defaultClassName,
  type AdminBuilding,
  type AdminBuildingSaveBody,
  type AdminClass,
  type AdminClassSaveBody,
  type AdminDiagnosticDetail,
  type AdminOo,
  type AdminOoSaveBody,
  type AdminSchool,
  type AdminSchoolSaveBody,
  type AdminStudent,
  type AdminStudentSaveBody,
} from '@attesta/contract';
import type { Db, Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { schoolDay } from '../../lib/calendar.js';
import { badRequest, conflict, notFound, type AppError } from '../../lib/errors.js';
import { studentStore as students } from '../school-data/index.js';
import { areaExists } from '../areas/index.js';
import { diagnosticDetail } from './admin-diagnostics.repo.js';
import * as repo from './admin-org.repo.js';

/**
 * The admin's writes on the organisation: oo, schools, buildings, classes and students. Each runs
 * in one transaction with its audit event; bad input is refused before anything is written.
 */

export type { Actor };

/** A record to update (`id`) or the parent of a record to create. */
export type Target = { id: number } | { schoolId: number };

const fieldError = (path: string, message: string) =>
  badRequest('validation_failed', `${path} ${message}`, [{ path, message }]);

const isUniqueViolation = (err: unknown) =>
  [err, (err as { cause?: unknown } | null)?.cause].some(
    (e) => (e as { code?: string } | null)?.code === '23505',
  );

/** Runs a write; a unique index refusing it (a concurrent twin) becomes the same 409 as the check. */
async function writing<T>(work: () => Promise<T>, onDuplicate: () => AppError): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw onDuplicate();
    throw err;
  }
}

function changesOf(current: object, next: object) {
  const before = current as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(next)
      .filter(([k, v]) => (before[k] ?? null) !== (v ?? null))
      .map(([k, v]) => [k, { from: before[k] ?? null, to: v ?? null }]),
  );
}

/** Inserts (no current row) or updates, auditing what was created or what changed. */
async function createOrUpdate<W extends object>(
  tx: Tx,
  actor: Actor,
  entity: string,
  current: { id: number } | null,
  values: W,
  write: { insert: () => Promise<number>; update: (id: number) => Promise<void> },
): Promise<number> {
  const base = { userId: actor.auth.userId, entity, ip: actor.ip };
  if (current) {
    const changes = changesOf(current, values);
    if (!Object.keys(changes).length) return current.id;
    await write.update(current.id);
    await audit(tx, {
      ...base,
      action: `${entity}.update`,
      entityId: current.id,
      details: { via: 'admin', changes },
    });
    return current.id;
  }
  const id = await write.insert();
  await audit(tx, {
    ...base,
    action: `${entity}.create`,
    entityId: id,
    details: { via: 'admin', ...values },
  });
  return id;
}

const keep = <T>(given: T | undefined, current: T | null | undefined): T | null =>
  given === undefined ? (current ?? null) : given;

// ---------------------------------------------------------------- oo

export async function createOo(db: Db, actor: Actor, body: AdminOoSaveBody): Promise<AdminOo> {
  const values = { name: body.name, shortName: body.shortName ?? null, inn: body.inn ?? null };
  const id = await db.transaction((tx) =>
    createOrUpdate(tx, actor, 'oo', null, values, {
      insert: () => repo.insertOo(tx, values),
      update: () => Promise.resolve(),
    }),
  );
  return (await repo.ooById(db, id))!;
}

// ---------------------------------------------------------------- schools

export async function getSchool(db: Db, id: number): Promise<AdminSchool> {
  const school = await repo.schoolById(db, id);
  if (!school) throw notFound('No such school');
  return school;
}

const codeTaken = () => conflict('school_code_taken', 'Another school already has this code');

/** `POST /api/admin/schools` (no id) and `PUT /api/admin/schools/{id}`. */
export async function saveSchool(
  db: Db,
  actor: Actor,
  body: AdminSchoolSaveBody,
  id?: number,
): Promise<AdminSchool> {
  const schoolId = await writing(
    () =>
      db.transaction(async (tx) => {
        const current = id === undefined ? null : await repo.lockSchool(tx, id);
        if (id !== undefined && !current) throw notFound('No such school');
        if (!(await repo.ooById(tx, body.ooId)))
          throw fieldError('body.ooId', 'no such educational organisation');
        const values: repo.SchoolWrite = {
          ooId: body.ooId,
          name: body.name,
          shortName: keep(body.shortName, current?.shortName),
          code: keep(body.code, current?.code),
          areaId: body.areaId === undefined ? (current?.areaId ?? null) : body.areaId,
        };
        if (values.areaId != null && !(await areaExists(tx, values.areaId)))
          throw badRequest('validation_failed', 'body.areaId: no such area', [
            { path: 'body.areaId', message: 'no such area' },
          ]);
        if (values.code && (await repo.schoolWithCode(tx, values.code, current?.id))) throw codeTaken();
        return createOrUpdate(tx, actor, 'school', current, values, {
          insert: () => repo.insertSchool(tx, values),
          update: (sid) => repo.updateSchool(tx, sid, values),
        });
      }),
    codeTaken,
  );
  return getSchool(db, schoolId);
}

// ---------------------------------------------------------------- buildings

export async function listBuildings(db: Db, schoolId: number): Promise<AdminBuilding[]> {
  await getSchool(db, schoolId);
  return repo.buildingsOfSchool(db, schoolId);
}

/** `POST /api/admin/schools/{id}/buildings` and `PUT /api/admin/buildings/{id}`. */
export async function saveBuilding(
  db: Db,
  actor: Actor,
  target: Target,
  body: AdminBuildingSaveBody,
): Promise<AdminBuilding> {
  const id = await db.transaction(async (tx) => {
    const current = 'id' in target ? await repo.lockBuilding(tx, target.id) : null;
    if ('id' in target && !current) throw notFound('No such building');
    const schoolId = current?.schoolId ?? ('schoolId' in target ? target.schoolId : -1);
    if (!current && !(await repo.schoolById(tx, schoolId))) throw notFound('No such school');
    const values: repo.BuildingWrite = { name: body.name, address: keep(body.address, current?.address) };
    return createOrUpdate(tx, actor, 'building', current, values, {
      insert: () => repo.insertBuilding(tx, schoolId, values),
      update: (bid) => repo.updateBuilding(tx, bid, values),
    });
  });
  return (await repo.buildingById(db, id))!;
}

// ---------------------------------------------------------------- classes

export async function listClasses(db: Db, schoolId: number): Promise<AdminClass[]> {
  await getSchool(db, schoolId);
  return repo.classesOfSchool(db, schoolId);
}

const classExists = () =>
  conflict('class_exists', 'The school already has a class of this parallel with this letter');

/**
 * `POST /api/admin/schools/{id}/classes` and `PUT /api/admin/classes/{id}`. Without a name the
 * class is called `7 «А»`; a class still carrying its default name is renamed with its letter.
 */
export async function saveClass(
  db: Db,
  actor: Actor,
  target: Target,
  body: AdminClassSaveBody,
): Promise<AdminClass> {
  const id = await writing(
    () =>
      db.transaction(async (tx) => {
        const current = 'id' in target ? await repo.lockClass(tx, target.id) : null;
        if ('id' in target && !current) throw notFound('No such class');
        const schoolId = current?.schoolId ?? ('schoolId' in target ? target.schoolId : -1);
        if (!current && !(await repo.schoolById(tx, schoolId))) throw notFound('No such school');

        const buildingId = keep(body.buildingId, current?.buildingId);
        if (buildingId !== null) {
          const building = await repo.buildingById(tx, buildingId);
          if (!building) throw fieldError('body.buildingId', 'no such building');
          if (building.schoolId !== schoolId)
            throw fieldError('body.buildingId', 'is a building of another school');
        }
        const customName =
          current && current.name !== defaultClassName(current.parallelId, current.letter)
            ? current.name
            : null;
        const values: repo.ClassWrite = {
          parallelId: body.parallel,
          letter: body.letter,
          name:
            (body.name === undefined ? customName : body.name) ??
            defaultClassName(body.parallel, body.letter),
          buildingId,
        };
        if (await repo.classWithLetter(tx, schoolId, body.parallel, body.letter, current?.id))
          throw classExists();
        return createOrUpdate(tx, actor, 'class', current, values, {
          insert: () => repo.insertClass(tx, schoolId, values),
          update: (cid) => repo.updateClass(tx, cid, values),
        });
      }),
    classExists,
  );
  return (await repo.classById(db, id))!;
}

/** `DELETE /api/admin/classes/{id}`: only a class without live students and registrations. */
export async function deleteClass(db: Db, actor: Actor, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const cls = await repo.lockClass(tx, id);
    if (!cls) throw notFound('No such class');
    const usage = await repo.classUsage(tx, id);
    if (usage.liveStudents > 0)
      throw conflict(
        'class_has_students',
        `The class has ${usage.liveStudents} student(s); move or delete them first`,
      );
    if (usage.participantTests > 0)
      throw conflict('class_in_use', 'Participants were registered for tests in this class; it stays');
    const droppedAssignments = await repo.deleteClass(tx, id);
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'class.delete',
      entity: 'class',
      entityId: id,
      ip: actor.ip,
      details: {
        via: 'admin',
        schoolId: cls.schoolId,
        name: cls.name,
        parallel: cls.parallelId,
        letter: cls.letter,
        organizatorAssignmentsRemovedFor: droppedAssignments,
      },
    });
  });
}

// ---------------------------------------------------------------- students

export async function getStudent(db: Db, id: number): Promise<AdminStudent> {
  const student = await repo.studentById(db, id);
  if (!student) throw notFound('No such student');
  return student;
}

/**
 * `POST /api/admin/students` (create) and `PUT /api/admin/students/{id}`: the school is the
 * class's, and a student moves only between classes of their own school.
 */
export async function saveStudent(
  db: Db,
  actor: Actor,
  body: AdminStudentSaveBody,
  id?: number,
): Promise<AdminStudent> {
  if (body.birthDate && body.birthDate > schoolDay()) throw fieldError('body.birthDate', 'is in the future');
  if (body.birthDate && body.birthDate < '1900-01-01')
    throw fieldError('body.birthDate', 'is too far in the past');
  const studentId = await db.transaction(async (tx) => {
    const current = id === undefined ? null : await students.lockStudent(tx, id);
    if (id !== undefined && !current) throw notFound('No such student');
    const cls = await repo.classById(tx, body.classId);
    if (!cls) throw fieldError('body.classId', 'no such class');
    if (current && cls.schoolId !== current.schoolId)
      throw fieldError(
        'body.classId',
        'is a class of another school; a student moves only within their school',
      );
    const values: students.StudentWrite = {
      surname: body.surname,
      name: body.name,
      patronymic: keep(body.patronymic, current?.patronymic),
      birthDate: keep(body.birthDate, current?.birthDate),
      gender: keep(body.gender, current?.gender),
      classId: cls.id,
    };
    if (values.birthDate) {
      const twin = await students.findTwin(
        tx,
        cls.schoolId,
        {
          surname: values.surname,
          name: values.name,
          patronymic: values.patronymic ?? null,
          birthDate: values.birthDate,
        },
        current?.id,
      );
      if (twin !== null)
        throw conflict('duplicate_student', `The school already has this student (id ${twin})`);
    }
    return createOrUpdate(tx, actor, 'student', current, values, {
      insert: () => students.insertStudent(tx, cls.schoolId, values),
      update: (sid) => students.updateStudent(tx, sid, values),
    });
  });
  return getStudent(db, studentId);
}

/** `DELETE /api/admin/students/{id}`: soft delete, only for a student never registered for a test. */
export async function deleteStudent(db: Db, actor: Actor, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const student = await students.lockStudent(tx, id);
    if (!student) throw notFound('No such student');
    const registered = await repo.liveParticipantTestCount(tx, id);
    if (registered > 0)
      throw conflict(
        'student_has_participant_tests',
        `The student is registered for ${registered} test(s); they stay for the records`,
      );
    await students.softDeleteStudent(tx, id, new Date());
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'student.delete',
      entity: 'student',
      entityId: id,
      ip: actor.ip,
      details: {
        via: 'admin',
        schoolId: student.schoolId,
        classId: student.classId,
        surname: student.surname,
        name: student.name,
      },
    });
  });
}

// ---------------------------------------------------------------- diagnostics

export async function getDiagnostic(db: Db, id: number): Promise<AdminDiagnosticDetail> {
  const diagnostic = await diagnosticDetail(db, id);
  if (!diagnostic) throw notFound('No such diagnostic');
  return diagnostic;
}

/** Plain list reads (no rule beyond the route's admin access): the repositories answer them. */
export { listOo, listSchools, listStudents } from './admin-org.repo.js';
export { listDiagnostics } from './admin-diagnostics.repo.js';
