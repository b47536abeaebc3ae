import { and, asc, count, eq, ilike, inArray, isNull, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  buildings,
  classes,
  oo,
  parallels,
  schools,
  students,
  subjectExams,
  subjects,
  subjectTests,
} from '../../db/schema/index.js';
import { containsPattern, offsetOf, orderOf, paged, type SortSpec } from '../../lib/list.js';

/*
 * The ugnik's reference lists: every oo, school, building, class and parallel (an inspection may
 * cover any school), and the subject tests usable for inspections. Sorted by name unless told.
 */

export interface ReferenceRequest<F> {
  page: number;
  pageSize: number;
  sort?: SortSpec<'id' | 'name'> | SortSpec<'id' | 'name'>[] | undefined;
  filter?: F | undefined;
}

const searchOf = (search: string | undefined, ...columns: AnyColumn[]) =>
  search ? or(...columns.map((c) => ilike(c, containsPattern(search)))) : undefined;
const eqIf = <T>(column: AnyColumn, value: T | undefined) =>
  value === undefined ? undefined : eq(column, value);

/** ORDER BY for a reference list: the requested sort, else by name, then by id. */
function order(req: ReferenceRequest<unknown>, name: AnyColumn | SQL, id: AnyColumn) {
  return orderOf(req.sort ?? { field: 'name', dir: 'asc' }, { id, name }, id);
}

export function listOo(db: DbOrTx, req: ReferenceRequest<{ search?: string | undefined }>) {
  const where = searchOf(req.filter?.search, oo.name, oo.shortName, oo.inn);
  return paged(
    db
      .select({ id: oo.id, name: oo.name, shortName: oo.shortName, inn: oo.inn })
      .from(oo)
      .where(where)
      .orderBy(...order(req, oo.name, oo.id))
      .limit(req.pageSize)
      .offset(offsetOf(req)),
    db.select({ n: count() }).from(oo).where(where),
  );
}

export function listSchools(
  db: DbOrTx,
  req: ReferenceRequest<{ search?: string | undefined; ooId?: number | undefined }>,
) {
  const where = and(
    searchOf(req.filter?.search, schools.name, schools.shortName, schools.code),
    eqIf(schools.ooId, req.filter?.ooId),
  );
  return paged(
    db
      .select({
        id: schools.id,
        ooId: schools.ooId,
        ooName: oo.name,
        name: schools.name,
        shortName: schools.shortName,
        code: schools.code,
      })
      .from(schools)
      .innerJoin(oo, eq(oo.id, schools.ooId))
      .where(where)
      .orderBy(...order(req, schools.name, schools.id))
      .limit(req.pageSize)
      .offset(offsetOf(req)),
    db.select({ n: count() }).from(schools).where(where),
  );
}

export function listBuildings(
  db: DbOrTx,
  req: ReferenceRequest<{ search?: string | undefined; schoolId?: number | undefined }>,
) {
  const where = and(
    searchOf(req.filter?.search, buildings.name, buildings.address),
    eqIf(buildings.schoolId, req.filter?.schoolId),
  );
  return paged(
    db
      .select({
        id: buildings.id,
        schoolId: buildings.schoolId,
        schoolName: schools.name,
        name: buildings.name,
        address: buildings.address,
      })
      .from(buildings)
      .innerJoin(schools, eq(schools.id, buildings.schoolId))
      .where(where)
      .orderBy(...order(req, buildings.name, buildings.id))
      .limit(req.pageSize)
      .offset(offsetOf(req)),
    db.select({ n: count() }).from(buildings).where(where),
  );
}

export function listClasses(
  db: DbOrTx,
  req: ReferenceRequest<{
    search?: string | undefined;
    schoolId?: number | undefined;
    buildingId?: number | undefined;
    parallelId?: number | undefined;
  }>,
) {
  const f = req.filter;
  const where = and(
    searchOf(f?.search, classes.name, classes.letter),
    eqIf(classes.schoolId, f?.schoolId),
    eqIf(classes.buildingId, f?.buildingId),
    eqIf(classes.parallelId, f?.parallelId),
  );
  return paged(
    db
      .select({
        id: classes.id,
        schoolId: classes.schoolId,
        schoolName: schools.name,
        buildingId: classes.buildingId,
        parallelId: classes.parallelId,
        letter: classes.letter,
        name: classes.name,
      })
      .from(classes)
      .innerJoin(schools, eq(schools.id, classes.schoolId))
      .where(where)
      // "7 «А»" before "10 «А»": by grade, then letter, unless a sort is asked for.
      .orderBy(
        ...(req.sort
          ? order(req, classes.name, classes.id)
          : [classes.parallelId, classes.letter, classes.id]),
      )
      .limit(req.pageSize)
      .offset(offsetOf(req)),
    db.select({ n: count() }).from(classes).where(where),
  );
}

export function listParallels(db: DbOrTx, req: ReferenceRequest<{ search?: string | undefined }>) {
  const where = searchOf(req.filter?.search, parallels.name);
  return paged(
    db
      .select({ id: parallels.id, name: parallels.name })
      .from(parallels)
      .where(where)
      .orderBy(...(req.sort ? order(req, parallels.name, parallels.id) : [parallels.id]))
      .limit(req.pageSize)
      .offset(offsetOf(req)),
    db.select({ n: count() }).from(parallels).where(where),
  );
}

/** Subject tests of kind `diagnostic`: what an inspection may be run with. */
export function listMainSubjectTests(
  db: DbOrTx,
  req: ReferenceRequest<{
    search?: string | undefined;
    parallelId?: number | undefined;
    subjectId?: number | undefined;
  }>,
) {
  const f = req.filter;
  const where = and(
    eq(subjectExams.kind, 'diagnostic'),
    searchOf(f?.search, subjectTests.name, subjects.name),
    f?.parallelId !== undefined ? sql`${f.parallelId} = any(${subjectTests.parallels})` : undefined,
    eqIf(subjects.id, f?.subjectId),
  );
  return paged(
    db
      .select({
        id: subjectTests.id,
        name: subjectTests.name,
        subjectId: subjects.id,
        subjectName: subjects.name,
        parallels: subjectTests.parallels,
        durationMinutes: subjectTests.durationMinutes,
      })
      .from(subjectTests)
      .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
      .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
      .where(where)
      .orderBy(...order(req, subjectTests.name, subjectTests.id))
      .limit(req.pageSize)
      .offset(offsetOf(req)),
    db
      .select({ n: count() })
      .from(subjectTests)
      .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
      .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
      .where(where),
  );
}

/**
 * Live students of some schools (null: every school), by class, then surname and name: whom an
 * ugnik may register for a diagnostic, chosen by name.
 */
export function listStudents(
  db: DbOrTx,
  req: {
    page: number;
    pageSize: number;
    filter: { schoolId?: number | undefined; classId?: number | undefined; search?: string | undefined };
  },
  schoolIds: number[] | null,
) {
  const f = req.filter;
  const where = and(
    isNull(students.deletedAt),
    schoolIds === null ? undefined : inArray(students.schoolId, schoolIds),
    eqIf(students.schoolId, f.schoolId),
    eqIf(students.classId, f.classId),
    searchOf(f.search, students.surname, students.name, students.patronymic),
  );
  return paged(
    db
      .select({
        id: students.id,
        surname: students.surname,
        name: students.name,
        patronymic: students.patronymic,
        schoolId: students.schoolId,
        schoolName: schools.name,
        classId: students.classId,
        className: classes.name,
      })
      .from(students)
      .innerJoin(schools, eq(schools.id, students.schoolId))
      .leftJoin(classes, eq(classes.id, students.classId))
      .where(where)
      .orderBy(asc(students.surname), asc(students.name), asc(students.id))
      .limit(req.pageSize)
      .offset(offsetOf(req)),
    db.select({ n: count() }).from(students).where(where),
  );
}
