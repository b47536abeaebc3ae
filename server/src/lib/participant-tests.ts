import { schoolDay } from './calendar.js';
import { randomInt } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../db/client.js';
import {
  diagnosticSchools,
  diagnosticSubjectTests,
  diagnostics,
  participantTests,
} from '../db/schema/index.js';
import { badRequest } from './errors.js';
import { activationCode, CODE_ALPHABET, registrationCode } from './tokens.js';

/*
 * Creating participant tests with fresh codes, shared by every call that registers participants
 * (ugnik registration, impersonal codes, the XML import, worker-test codes).
 */

export type NewParticipantTest = Omit<
  typeof participantTests.$inferInsert,
  'id' | 'activationCode' | 'registrationCode' | 'createdAt' | 'updatedAt' | 'deletedAt'
>;

export interface InsertedCode {
  id: number;
  studentId: number | null;
  workerId: number | null;
  activationCode: string;
  registrationCode: string;
}

/** Whether a database error is a unique violation (optionally of one index); drizzle wraps it in `cause`. */
export function isUniqueViolation(err: unknown, index?: string): boolean {
  for (const e of [err, (err as { cause?: unknown } | undefined)?.cause]) {
    const pg = e as { code?: string; constraint?: string; message?: string } | undefined;
    if (pg?.code !== '23505') continue;
    if (!index) return true;
    if (`${pg.constraint ?? ''} ${pg.message ?? ''}`.includes(index)) return true;
  }
  return false;
}

const CODE_INDEXES = ['participant_tests_activation_code_idx', 'participant_tests_registration_code_index'];
const MAX_ATTEMPTS = 5;

/**
 * Inserts participant tests, each with a new random activation and registration code. Codes are
 * unguessable, so a clash is rare; when the unique indexes report one, the batch is retried with
 * new codes inside a savepoint, so the caller's transaction stays usable.
 */
export async function insertParticipantTests(tx: Tx, rows: NewParticipantTest[]): Promise<InsertedCode[]> {
  if (!rows.length) return [];
  for (let attempt = 1; ; attempt++) {
    try {
      return await tx.transaction((sp) =>
        sp
          .insert(participantTests)
          .values(
            rows.map((r) => ({
              ...r,
              activationCode: activationCode(),
              registrationCode: registrationCode(),
            })),
          )
          .returning({
            id: participantTests.id,
            studentId: participantTests.studentId,
            workerId: participantTests.workerId,
            activationCode: participantTests.activationCode,
            registrationCode: participantTests.registrationCode,
          }),
      );
    } catch (err) {
      const clash = CODE_INDEXES.some((index) => isUniqueViolation(err, index));
      if (!clash || attempt >= MAX_ATTEMPTS) throw err;
    }
  }
}

/** The school calendar day (Moscow) of an instant, yyyy-mm-dd. */
export const dayOf = (at: Date) => schoolDay(at);

/** 400 unless the calendar day lies in the diagnostic window (days of its start and end, inclusive). */
export function assertDateInWindow(
  testDate: string,
  window: { startsAt: Date; endsAt: Date },
  path = 'body.testDate',
): void {
  const from = dayOf(window.startsAt);
  const to = dayOf(window.endsAt);
  if (testDate < from || testDate > to) throw outsideWindow(path, testDate, { from, to });
}

/**
 * 400 `validation_failed` for a test date outside the diagnostic window: the field error's code
 * `outside_window` with the window's first and last day (and the date asked) as params, so the
 * interface names them («вне окна диагностики 01.12.2026–05.12.2026»).
 */
export function outsideWindow(path: string, date: string, window: { from: string; to: string }) {
  const message = `must be between ${window.from} and ${window.to} (the diagnostic window)`;
  return badRequest('validation_failed', `${path} ${message}`, [
    { path, message, code: 'outside_window', params: { from: window.from, to: window.to, date } },
  ]);
}

/**
 * A 400 naming one field; `code` (and its `params`) say what is wrong for the interface, which
 * shows a text chosen by it (web/src/lib/form-errors.ts), never the English message.
 */
export const fieldError = (
  path: string,
  message: string,
  code?: string,
  params?: Record<string, string | number>,
) =>
  badRequest('validation_failed', `${path} ${message}`, [
    { path, message, ...(code ? { code } : {}), ...(params ? { params } : {}) },
  ]);

/**
 * Serialises registrations into one diagnostic until the transaction ends, so two concurrent
 * "register if missing" calls cannot both insert the same participant (there is no unique index
 * on diagnostic + subject test + student to catch it).
 */
export async function lockDiagnosticRegistrations(tx: Tx, diagnosticId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${REGISTRATION_LOCK}, ${diagnosticId})`);
}
const REGISTRATION_LOCK = 7_301_2025;

/** What registering into a diagnostic checks against: its window, subject tests and schools. */
export interface RegistrationTarget {
  id: number;
  code: string;
  kind: string;
  startsAt: Date;
  endsAt: Date;
  subjectTestIds: Set<number>;
  /** Empty: the diagnostic names no schools, so any school may register. */
  schoolIds: Set<number>;
}

/** A live diagnostic by id or code with its subject tests and schools; null when there is none. */
export async function registrationTarget(
  db: DbOrTx,
  ref: { id: number } | { code: string },
): Promise<RegistrationTarget | null> {
  const [d] = await db
    .select({
      id: diagnostics.id,
      code: diagnostics.code,
      kind: diagnostics.kind,
      startsAt: diagnostics.startsAt,
      endsAt: diagnostics.endsAt,
    })
    .from(diagnostics)
    .where(
      and(
        'id' in ref ? eq(diagnostics.id, ref.id) : eq(diagnostics.code, ref.code),
        isNull(diagnostics.deletedAt),
      ),
    )
    .limit(1);
  if (!d) return null;
  const [tests, schoolRows] = await Promise.all([
    db
      .select({ id: diagnosticSubjectTests.subjectTestId })
      .from(diagnosticSubjectTests)
      .where(eq(diagnosticSubjectTests.diagnosticId, d.id)),
    db
      .select({ id: diagnosticSchools.schoolId })
      .from(diagnosticSchools)
      .where(eq(diagnosticSchools.diagnosticId, d.id)),
  ]);
  return {
    ...d,
    subjectTestIds: new Set(tests.map((t) => t.id)),
    schoolIds: new Set(schoolRows.map((s) => s.id)),
  };
}

/** Whether a school may register into the diagnostic. */
export const schoolTakesPart = (target: RegistrationTarget, schoolId: number) =>
  target.schoolIds.size === 0 || target.schoolIds.has(schoolId);

/** A generated diagnostic code: `I-2026-7KQ2MX` (prefix, year, six symbols of the code alphabet). */
export function randomDiagnosticCode(prefix: string, now = new Date()): string {
  let tail = '';
  for (let i = 0; i < 6; i++) tail += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `${prefix}-${now.getUTCFullYear()}-${tail}`;
}
