import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  inet,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { areas, buildings, classes, oo, schools, students, workers } from './org.js';
import { created } from './types.js';

/** Role catalogue; the codes are those of the contract's ROLES. */
export const roles = pgTable('roles', {
  code: text().primaryKey(),
  nameRu: text().notNull(),
  nameEn: text().notNull(),
});

export const users = pgTable(
  'users',
  {
    id: serial().primaryKey(),
    login: text().notNull(),
    email: text(),
    surname: text(),
    name: text(),
    patronymic: text(),
    /** scrypt hash in PHC-like form, null for accounts that cannot log in with a password. */
    passwordHash: text(),
    emailConfirmedAt: timestamp({ withTimezone: true }),
    isBlocked: boolean().notNull().default(false),
    /** Scope anchors: a coordinator/organizator belongs to a school, ugnik may be bound to an oo. */
    schoolId: integer().references(() => schools.id),
    ooId: integer().references(() => oo.id),
    /** An ugnik user's area: it watches the school diagnostics of the schools there (docs/ugnik.md). */
    areaId: integer().references(() => areas.id),
    studentId: integer().references(() => students.id),
    workerId: integer().references(() => workers.id),
    /** Free-form profile (guest parallel, expert subjects...). */
    profile: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    externalProvider: text(),
    externalSubject: text(),
    createdAt: created(),
    updatedAt: created(),
  },
  (t) => [
    uniqueIndex('users_login_lower_idx').on(sql`lower(${t.login})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_external_idx').on(t.externalProvider, t.externalSubject),
    index().on(t.schoolId),
    index().on(t.studentId),
  ],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text()
      .notNull()
      .references(() => roles.code),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
);

/** Classes and buildings (rooms) an organizator conducts: the organizator's scope. */
export const organizatorAssignments = pgTable(
  'organizator_assignments',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    classId: integer().references(() => classes.id),
    buildingId: integer().references(() => buildings.id),
  },
  (t) => [
    index().on(t.userId),
    check('organizator_assignment_target', sql`${t.classId} is not null or ${t.buildingId} is not null`),
  ],
);

/**
 * Server-side sessions. The id is the SHA-256 of the secret token the client holds (cookie or
 * bearer), so a database leak does not leak usable sessions.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** How it was opened: password, activation_code, external, app. */
    kind: text().notNull(),
    /** Participant sessions are bound to their participant test (no FK: that table comes later in the file order). */
    participantTestId: integer(),
    activationCode: text(),
    appShell: boolean().notNull().default(false),
    userAgent: text(),
    ip: inet(),
    createdAt: created(),
    lastSeenAt: created(),
    /** Absolute end; the idle end is lastSeenAt + idle timeout. */
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    revokedReason: text(),
  },
  (t) => [
    index().on(t.userId),
    index().on(t.participantTestId),
    index().on(t.activationCode),
    index().on(t.expiresAt),
  ],
);

/** API keys for the integration role: `atk_<prefix>_<secret>`, only the hash is stored. */
export const apiKeys = pgTable('api_keys', {
  id: serial().primaryKey(),
  userId: integer()
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text().notNull(),
  prefix: text().notNull().unique(),
  keyHash: text().notNull(),
  /** Call groups the key may use (`mrko`, `reports`, `workers`, `specifications`, `push`); empty: none. */
  scopes: text().array().notNull().default([]),
  /** Results of this ОО only (exports); null: every ОО. */
  ooId: integer().references(() => oo.id),
  createdBy: integer().references((): AnyPgColumn => users.id),
  createdAt: created(),
  lastUsedAt: timestamp({ withTimezone: true }),
  revokedAt: timestamp({ withTimezone: true }),
});

/** One-time e-mailed tokens: confirm an address, reset a password. Only the hash is stored. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text().notNull(),
    tokenHash: text().notNull().unique(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: created(),
  },
  (t) => [index().on(t.userId, t.purpose)],
);

/** Every message the mailer sends; without SMTP this table (plus the log) is the mailbox. */
export const mailOutbox = pgTable('mail_outbox', {
  id: serial().primaryKey(),
  to: text().notNull(),
  subject: text().notNull(),
  text: text().notNull(),
  html: text(),
  createdAt: created(),
  sentAt: timestamp({ withTimezone: true }),
  error: text(),
});

export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: created(),
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    action: text().notNull(),
    entity: text(),
    entityId: text(),
    reason: text(),
    details: jsonb().$type<Record<string, unknown>>(),
    ip: inet(),
  },
  (t) => [index().on(t.at), index().on(t.entity, t.entityId), index().on(t.userId)],
);
