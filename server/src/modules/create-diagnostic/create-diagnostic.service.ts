import type { Actor } from '../../auth/actor.js';
import { and, asc, count, desc, eq, inArray, isNull, like, sql, type SQL } from 'drizzle-orm';
import type {
  CreateDiagnosticBody,
  ErrorCode,
  Diagnostic,
  SpecificationOption,
  SubjectTestOption,
} from '@attesta/contract';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { Db, DbOrTx } from '../../db/client.js';
import {
  diagnosticSchools,
  diagnosticSubjectTests,
  diagnostics,
  participantTests,
  schools,
  specificationElements,
  specifications,
  subjectExams,
  subjects,
  subjectTests,
  variants,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { badRequest, conflict, forbidden } from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/participant-tests.js';
import { buildWorkbook, dayColumn, sheet } from '../../lib/xlsx.js';
import { ugnikDiagnosticCondition } from '../../auth/ugnik.access.js';
import { includesSchool, liveDiagnostic } from './create-diagnostic.access.js';
import { PARTICIPANT_COLUMNS, participantRows, STATUS_RU, type ParticipantRow } from './participants.repo.js';

/*
 * Creating a diagnostic (coordinator for their school, ugnik an inspection across schools, admin
 * anything) and the lists its form chooses from; the participants-and-codes spreadsheet.
 */

export type { Actor };

const field = (path: string, message: string, code: ErrorCode = 'validation_failed') =>
  badRequest(code, `${path} ${message}`, [{ path, message }]);

/** The role a diagnostic is created under: the widest the caller holds. */
function creatorRole(auth: AuthContext): 'admin' | 'ugnik' | 'coordinator' {
  if (hasRole(auth, 'admin')) return 'admin';
  if (hasRole(auth, 'ugnik')) return 'ugnik';
  return 'coordinator';
}

/** Next free generated code of a year: D-YYYY-NNNN. */
async function nextCode(db: DbOrTx, year: number): Promise<string> {
  const prefix = `D-${year}-`;
  const [row] = await db
    .select({ code: diagnostics.code })
    .from(diagnostics)
    .where(and(like(diagnostics.code, `${prefix}%`), sql`${diagnostics.code} ~ ${`^D-${year}-[0-9]+$`}`))
    .orderBy(desc(sql`length(${diagnostics.code})`), desc(diagnostics.code))
    .limit(1);
  const last = row ? Number(row.code.slice(prefix.length)) : 0;
  return `${prefix}${String(last + 1).padStart(4, '0')}`;
}

/** Checks everything the schema cannot; returns the schools the diagnostic will include. */
async function checkCreate(
  db: Db,
  auth: AuthContext,
  role: string,
  body: CreateDiagnosticBody,
): Promise<number[]> {
  if (new Date(body.endsAt).getTime() <= new Date(body.startsAt).getTime())
    throw field('body.endsAt', 'must be after startsAt');

  let schoolIds: number[];
  if (role === 'coordinator') {
    if (auth.schoolId === null) throw forbidden('A coordinator without a school cannot create diagnostics');
    if (body.schoolIds && !(body.schoolIds.length === 1 && body.schoolIds[0] === auth.schoolId))
      throw forbidden('A coordinator creates diagnostics only for their own school');
    schoolIds = [auth.schoolId];
  } else {
    if (!body.schoolIds?.length) throw field('body.schoolIds', 'name at least one school');
    const found = await db
      .select({ id: schools.id })
      .from(schools)
      .where(inArray(schools.id, body.schoolIds));
    const known = new Set(found.map((s) => s.id));
    const missing = body.schoolIds.filter((id) => !known.has(id));
    if (missing.length) throw field('body.schoolIds', `no such schools: ${missing.join(', ')}`);
    schoolIds = body.schoolIds;
  }

  const tests = await db
    .select({ id: subjectTests.id, parallels: subjectTests.parallels })
    .from(subjectTests)
    // Drafts are still being authored: only published tests can be planned.
    .where(and(inArray(subjectTests.id, body.subjectTestIds), eq(subjectTests.status, 'published')));
  const byId = new Map(tests.map((t) => [t.id, t]));
  const missing = body.subjectTestIds.filter((id) => !byId.has(id));
  if (missing.length) throw field('body.subjectTestIds', `no such subject tests: ${missing.join(', ')}`);
  const offGrade = tests.filter((t) => !t.parallels.some((p) => body.parallels.includes(p)));
  if (offGrade.length)
    throw field(
      'body.subjectTestIds',
      `not offered for any of the parallels: ${offGrade.map((t) => t.id).join(', ')}`,
    );

  if (body.specificationId !== undefined) {
    const [spec] = await db
      .select({ id: specifications.id })
      .from(specifications)
      .where(eq(specifications.id, body.specificationId));
    if (!spec) throw field('body.specificationId', 'no such specification');
  }
  return schoolIds;
}

/** What every answer about a diagnostic says of its own row (the ugnik's list adds its counts). */
export function diagnosticFields(
  row: Pick<
    typeof diagnostics.$inferSelect,
    | 'id'
    | 'code'
    | 'name'
    | 'kind'
    | 'startsAt'
    | 'endsAt'
    | 'parallels'
    | 'createdBy'
    | 'resultsPublished'
    | 'createdAt'
  >,
) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    kind: row.kind,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    parallels: row.parallels,
    createdBy: row.createdBy,
    resultsPublished: row.resultsPublished,
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentDiagnostic(
  row: typeof diagnostics.$inferSelect,
  subjectTestIds: number[],
  schoolIds: number[],
): Diagnostic {
  return { ...diagnosticFields(row), subjectTestIds, schoolIds, createdByRole: row.createdByRole };
}

/** Creates a diagnostic with its subject tests and schools, audited. 409 `code_taken` on a used code. */
export async function createDiagnostic(
  db: Db,
  actor: Actor,
  body: CreateDiagnosticBody,
): Promise<Diagnostic> {
  const { auth } = actor;
  const role = creatorRole(auth);
  const schoolIds = await checkCreate(db, auth, role, body);
  const kind = role === 'ugnik' ? 'inspection' : (body.kind ?? 'diagnostic');
  const startsAt = new Date(body.startsAt);
  const parallels = [...body.parallels].sort((a, b) => a - b);

  // A generated code may lose a race with another creation: take the next one then.
  for (let attempt = 1; ; attempt++) {
    const code = body.code ?? (await nextCode(db, startsAt.getUTCFullYear()));
    try {
      return await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(diagnostics)
          .values({
            code,
            name: body.name,
            kind,
            startsAt,
            endsAt: new Date(body.endsAt),
            parallels,
            createdBy: auth.userId,
            createdByRole: role,
          })
          .returning();
        await tx
          .insert(diagnosticSubjectTests)
          .values(body.subjectTestIds.map((subjectTestId) => ({ diagnosticId: row!.id, subjectTestId })));
        await tx
          .insert(diagnosticSchools)
          .values(schoolIds.map((schoolId) => ({ diagnosticId: row!.id, schoolId })));
        await audit(tx, {
          userId: auth.userId,
          action: 'diagnostic.create',
          entity: 'diagnostic',
          entityId: row!.id,
          details: {
            code,
            kind,
            role,
            parallels,
            subjectTestIds: body.subjectTestIds,
            schoolIds,
            specificationId: body.specificationId ?? null,
          },
          ip: actor.ip,
        });
        return presentDiagnostic(row!, body.subjectTestIds, schoolIds);
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (body.code !== undefined) throw conflict('code_taken', `A diagnostic with the code ${code} exists`);
      if (attempt >= 5) throw err;
    }
  }
}

/** Specifications with the number of their elements. */
export async function listSpecifications(db: DbOrTx): Promise<SpecificationOption[]> {
  const rows = await db
    .select({
      id: specifications.id,
      name: specifications.name,
      subjectId: specifications.subjectId,
      subjectName: subjects.name,
      parallel: specifications.parallel,
      description: specifications.description,
      elementCount: count(specificationElements.id),
    })
    .from(specifications)
    .leftJoin(subjects, eq(subjects.id, specifications.subjectId))
    .leftJoin(specificationElements, eq(specificationElements.specificationId, specifications.id))
    .groupBy(specifications.id, subjects.name)
    .orderBy(asc(specifications.name), asc(specifications.id));
  return rows;
}

/** Subject tests to choose from, optionally only those of a grade. */
export async function listSubjectTestOptions(db: DbOrTx, parallel?: number): Promise<SubjectTestOption[]> {
  return db
    .select({
      id: subjectTests.id,
      name: subjectTests.name,
      subjectId: subjects.id,
      subjectName: subjects.name,
      kind: subjectExams.kind,
      parallels: subjectTests.parallels,
      durationMinutes: subjectTests.durationMinutes,
      variantCount: sql<number>`(select count(*)::int from ${variants} v where v.subject_test_id = ${subjectTests.id})`,
      specificationId: subjectTests.specificationId,
    })
    .from(subjectTests)
    .innerJoin(subjectExams, eq(subjectExams.id, subjectTests.subjectExamId))
    .innerJoin(subjects, eq(subjects.id, subjectExams.subjectId))
    .where(
      and(
        eq(subjectTests.status, 'published'),
        parallel !== undefined ? sql`${parallel}::smallint = any(${subjectTests.parallels})` : undefined,
      ),
    )
    .orderBy(asc(subjects.name), asc(subjectTests.name), asc(subjectTests.id));
}

/**
 * The rows of a diagnostic the caller may export: admin all; an ugnik all of its own
 * (inspection) diagnostics; a coordinator their school's rows of a diagnostic that includes it.
 * 404 for an unknown diagnostic, 403 for one outside every role's scope.
 */
export async function exportScope(
  db: DbOrTx,
  auth: AuthContext,
  diagnosticId: number,
): Promise<{ diagnostic: typeof diagnostics.$inferSelect; rows: SQL | undefined }> {
  const diagnostic = await liveDiagnostic(db, { id: diagnosticId });
  if (hasRole(auth, 'admin')) return { diagnostic, rows: undefined };
  if (hasRole(auth, 'ugnik')) {
    const [mine] = await db
      .select({ id: diagnostics.id })
      .from(diagnostics)
      .where(
        and(eq(diagnostics.id, diagnosticId), ugnikDiagnosticCondition(auth), isNull(diagnostics.deletedAt)),
      );
    if (mine) return { diagnostic, rows: undefined };
  }
  if (hasRole(auth, 'coordinator') && (await includesSchool(db, diagnosticId, auth.schoolId)))
    return { diagnostic, rows: eq(participantTests.schoolId, auth.schoolId!) };
  throw forbidden('This diagnostic is outside your scope');
}

/** The xlsx of a diagnostic's participants and their codes (formula-safe cells). */
export async function diagnosticExcel(db: Db, actor: Actor, diagnosticId: number) {
  const { diagnostic, rows: where } = await exportScope(db, actor.auth, diagnosticId);
  const rows = await participantRows(db, diagnosticId, where);
  const xlsx = await buildWorkbook([
    sheet<ParticipantRow>({
      name: 'Участники и коды',
      title: [`${diagnostic.name} (${diagnostic.code})`],
      columns: [
        ...PARTICIPANT_COLUMNS,
        dayColumn('Дата', (r) => r.testDate),
        { header: 'Код активации', width: 15, value: (r) => r.activationCode },
        { header: 'Регистрационный код', width: 16, value: (r) => r.registrationCode },
        { header: 'Статус', width: 16, value: (r) => STATUS_RU[r.status] ?? r.status },
      ],
      rows,
    }),
  ]);
  await audit(db, {
    userId: actor.auth.userId,
    action: 'diagnostic.export_codes',
    entity: 'diagnostic',
    entityId: diagnosticId,
    details: { rows: rows.length, format: 'xlsx' },
    ip: actor.ip,
  });
  return { xlsx, fileName: `Участники и коды ${diagnostic.code}.xlsx` };
}
