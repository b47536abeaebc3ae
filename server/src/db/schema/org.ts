import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Accommodations } from '@attesta/contract';
import { created } from './types.js';

/** ОО — an educational organisation (legal entity) owning schools. */
export const oo = pgTable('oo', {
  id: serial().primaryKey(),
  name: text().notNull(),
  shortName: text(),
  inn: text(),
  createdAt: created(),
});

/**
 * An area (район, округ) of the region: the territory a supervision authority (ugnik) user
 * watches; schools lie in one (docs/ugnik.md).
 */
export const areas = pgTable(
  'areas',
  {
    id: serial().primaryKey(),
    name: text().notNull(),
    createdAt: created(),
  },
  (t) => [uniqueIndex().on(t.name)],
);

export const schools = pgTable(
  'schools',
  {
    id: serial().primaryKey(),
    ooId: integer()
      .notNull()
      .references(() => oo.id),
    name: text().notNull(),
    shortName: text(),
    code: text(),
    /** The area the school lies in; null: none set yet. */
    areaId: integer().references(() => areas.id),
    createdAt: created(),
  },
  (t) => [index().on(t.ooId), uniqueIndex().on(t.code), index().on(t.areaId)],
);

export const buildings = pgTable(
  'buildings',
  {
    id: serial().primaryKey(),
    schoolId: integer()
      .notNull()
      .references(() => schools.id),
    name: text().notNull(),
    address: text(),
  },
  (t) => [index().on(t.schoolId)],
);

/** Parallel = grade: 0 is preschool, 1–11 school grades. The id is the grade itself. */
export const parallels = pgTable('parallels', {
  id: smallint().primaryKey(),
  name: text().notNull(),
});

export const classes = pgTable(
  'classes',
  {
    id: serial().primaryKey(),
    schoolId: integer()
      .notNull()
      .references(() => schools.id),
    buildingId: integer().references(() => buildings.id),
    parallelId: smallint()
      .notNull()
      .references(() => parallels.id),
    letter: text().notNull(),
    /** Display name, e.g. `7 «А»`. */
    name: text().notNull(),
  },
  (t) => [index().on(t.schoolId), uniqueIndex().on(t.schoolId, t.parallelId, t.letter)],
);

export const students = pgTable(
  'students',
  {
    id: serial().primaryKey(),
    schoolId: integer()
      .notNull()
      .references(() => schools.id),
    classId: integer().references(() => classes.id),
    surname: text().notNull(),
    name: text().notNull(),
    patronymic: text(),
    birthDate: date({ mode: 'string' }),
    gender: text(),
    /** The student's id in the school's own register (the roster import matches by it). */
    externalId: text(),
    /** What the exam gives the student beyond the common rules (docs/accommodations.md); null: none. */
    accommodations: jsonb().$type<Accommodations>(),
    createdAt: created(),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index().on(t.schoolId),
    index().on(t.classId),
    index('students_surname_idx').on(sql`lower(${t.surname})`),
    uniqueIndex('students_school_external_id_idx')
      .on(t.schoolId, t.externalId)
      .where(sql`${t.externalId} is not null and ${t.deletedAt} is null`),
  ],
);

/** A student's moves between classes (the roster import records each). */
export const studentClassHistory = pgTable(
  'student_class_history',
  {
    id: serial().primaryKey(),
    studentId: integer()
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    fromClassId: integer().references(() => classes.id, { onDelete: 'set null' }),
    toClassId: integer().references(() => classes.id, { onDelete: 'set null' }),
    changedAt: created(),
    /** The user who moved the student. */
    changedBy: integer(),
  },
  (t) => [index().on(t.studentId)],
);

export const workerPositions = pgTable('worker_positions', {
  id: serial().primaryKey(),
  name: text().notNull().unique(),
});

/** A staff member of a school (organizators are workers with a user account). */
export const workers = pgTable(
  'workers',
  {
    id: serial().primaryKey(),
    schoolId: integer().references(() => schools.id),
    positionId: integer().references(() => workerPositions.id),
    surname: text().notNull(),
    name: text().notNull(),
    patronymic: text(),
    email: text(),
    isBlocked: boolean().notNull().default(false),
    /** The id an upstream system gave the worker (`POST /api/integration/attesta/CreateWorkers`). */
    externalId: text().unique(),
    /** What the exam gives the worker beyond the common rules (docs/accommodations.md); null: none. */
    accommodations: jsonb().$type<Accommodations>(),
    createdAt: created(),
  },
  (t) => [index().on(t.schoolId)],
);
