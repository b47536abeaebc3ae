import type { Actor } from '../../auth/actor.js';
import { and, eq } from 'drizzle-orm';
import type {
  ParticipantTestListItem,
  ParticipantTestListRequest,
  UgnikDiagnostic,
  UgnikDiagnosticCreateBody,
  UgnikDiagnosticListItem,
  UgnikDiagnosticListRequest,
  UgnikParticipantSaveBody,
  UgnikParticipantSaveResult,
  UgnikStudentListRequest,
} from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { participantTests } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import {
  assertDateInWindow,
  fieldError,
  insertParticipantTests,
  isUniqueViolation,
  lockDiagnosticRegistrations,
  randomDiagnosticCode,
  registrationTarget,
  schoolTakesPart,
} from '../../lib/participant-tests.js';
import { diagnosticFields } from '../create-diagnostic/index.js';
import { listParticipantTests } from '../participant-test/index.js';
import * as repo from './ugnik.repo.js';
import { listStudents as listStudentRows } from './reference.repo.js';
import { ugnikDiagnosticCondition } from '../../auth/ugnik.access.js';

/** Who asks, for audit. */
export type { Actor };

const codeTaken = () => conflict('code_taken', 'Another diagnostic already has this code');
const DIAGNOSTIC_CODE_INDEX = 'diagnostics_code_index';

type Summary = NonNullable<Awaited<ReturnType<typeof repo.findDiagnostic>>>;
function toDiagnostic(row: Summary): UgnikDiagnostic {
  return {
    ...diagnosticFields(row),
    subjectTests: row.subjectTests,
    schools: row.schools,
    participantCount: Number(row.participantCount),
    examWorkCount: Number(row.examWorkCount),
  };
}

// --- diagnostics ---

async function checkContent(tx: Tx, body: UgnikDiagnosticCreateBody): Promise<void> {
  if (new Date(body.endsAt) <= new Date(body.startsAt))
    throw fieldError('body.endsAt', 'must be after startsAt');
  const tests = new Map(
    (await repo.diagnosticSubjectTestsOf(tx, body.subjectTestIds)).map((t) => [t.id, t.parallels]),
  );
  const unknown = body.subjectTestIds.filter((id) => !tests.has(id));
  if (unknown.length)
    throw fieldError('body.subjectTestIds', `not subject tests of kind diagnostic: ${unknown.join(', ')}`);
  const offParallel = body.subjectTestIds.filter(
    (id) => !tests.get(id)!.some((p) => body.parallels.includes(p)),
  );
  if (offParallel.length)
    throw fieldError(
      'body.subjectTestIds',
      `not offered for any of the parallels: ${offParallel.join(', ')}`,
    );
  const schools = await repo.existingSchoolIds(tx, body.schoolIds);
  const missing = body.schoolIds.filter((id) => !schools.has(id));
  if (missing.length) throw fieldError('body.schoolIds', `no such schools: ${missing.join(', ')}`);
}

/** Creates an inspection diagnostic; a generated code is retried in a savepoint should it clash. */
export async function createDiagnostic(
  ctx: AppContext,
  actor: Actor,
  body: UgnikDiagnosticCreateBody,
): Promise<UgnikDiagnostic> {
  let id: number;
  try {
    id = await ctx.db.transaction(async (tx) => {
      await checkContent(tx, body);
      if (body.code && (await repo.codeInUse(tx, body.code))) throw codeTaken();
      const now = new Date();
      for (let attempt = 1; ; attempt++) {
        const code = body.code ?? randomDiagnosticCode('I', now);
        try {
          const newId = await tx.transaction((sp) =>
            repo.insertDiagnostic(
              sp,
              {
                code,
                name: body.name,
                kind: 'inspection',
                startsAt: new Date(body.startsAt),
                endsAt: new Date(body.endsAt),
                parallels: [...body.parallels].sort((a, b) => a - b),
                createdBy: actor.auth.userId,
                createdByRole: 'ugnik',
              },
              body.subjectTestIds,
              body.schoolIds,
            ),
          );
          await audit(tx, {
            userId: actor.auth.userId,
            action: 'diagnostic.create',
            entity: 'diagnostic',
            entityId: newId,
            ip: actor.ip,
            details: {
              code,
              kind: 'inspection',
              subjectTestIds: body.subjectTestIds,
              schoolIds: body.schoolIds,
              parallels: body.parallels,
            },
          });
          return newId;
        } catch (err) {
          if (body.code || attempt >= 5 || !isUniqueViolation(err, DIAGNOSTIC_CODE_INDEX)) throw err;
        }
      }
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (isUniqueViolation(err, DIAGNOSTIC_CODE_INDEX)) throw codeTaken();
    throw err;
  }
  return getDiagnostic(ctx, id);
}

export async function getDiagnostic(ctx: AppContext, id: number): Promise<UgnikDiagnostic> {
  const row = await repo.findDiagnostic(ctx.db, id);
  if (!row) throw notFound('No such diagnostic');
  return toDiagnostic(row);
}

export async function listDiagnostics(
  ctx: AppContext,
  auth: AuthContext,
  request: UgnikDiagnosticListRequest,
): Promise<{ items: UgnikDiagnosticListItem[]; total: number }> {
  const { items, total } = await repo.listDiagnostics(ctx.db, ugnikDiagnosticCondition(auth), request);
  return {
    total,
    items: items.map((row) => ({
      id: row.id,
      code: row.code,
      name: row.name,
      kind: row.kind,
      startsAt: row.startsAt.toISOString(),
      endsAt: row.endsAt.toISOString(),
      parallels: row.parallels,
      createdBy: row.createdBy,
      participantCount: Number(row.participantCount),
      examWorkCount: Number(row.examWorkCount),
      subjectTestCount: Number(row.subjectTestCount),
      schoolCount: Number(row.schoolCount),
      resultsPublished: row.resultsPublished,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

/**
 * Soft-deletes a diagnostic that no participant has started (409 `has_exam_works` otherwise),
 * with its participant tests; their sessions end.
 */
export async function deleteDiagnostic(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  const participantTestIds = await ctx.db.transaction(async (tx) => {
    const row = await repo.lockDiagnostic(tx, id);
    if (!row) throw notFound('No such diagnostic');
    await lockDiagnosticRegistrations(tx, id);
    const works = await repo.diagnosticExamWorkCount(tx, id);
    if (works > 0)
      throw conflict('has_exam_works', `The diagnostic has ${works} exam work(s); it cannot be deleted`);
    const ids = await repo.softDeleteDiagnostic(tx, id, new Date());
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'diagnostic.delete',
      entity: 'diagnostic',
      entityId: id,
      ip: actor.ip,
      details: { code: row.code, name: row.name, participantTests: ids.length },
    });
    return ids;
  });
  for (const participantTestId of participantTestIds)
    await ctx.sessions.revokeWhere({ participantTestId }, 'participant_test_deleted');
}

// --- participants ---

/**
 * Registers students for one subject test of an ugnik diagnostic: idempotent per (diagnostic,
 * subject test, student) — an existing registration is answered as it is, with its codes.
 */
export async function saveParticipants(
  ctx: AppContext,
  actor: Actor,
  body: UgnikParticipantSaveBody,
): Promise<UgnikParticipantSaveResult> {
  return ctx.db.transaction(async (tx) => {
    const target = await registrationTarget(tx, { id: body.diagnosticId });
    if (!target) throw notFound('No such diagnostic');
    if (!target.subjectTestIds.has(body.subjectTestId))
      throw fieldError('body.subjectTestId', 'is not a subject test of the diagnostic', 'not_in_diagnostic');
    assertDateInWindow(body.testDate, target);

    const found = new Map((await repo.studentsWithPlace(tx, body.studentIds)).map((s) => [s.id, s]));
    const missing = body.studentIds.filter((id) => !found.has(id));
    if (missing.length) throw fieldError('body.studentIds', `no such students: ${missing.join(', ')}`);
    const outside = body.studentIds.filter((id) => !schoolTakesPart(target, found.get(id)!.schoolId));
    if (outside.length) {
      // Named, never by id: the form shows it under the students' field.
      const names = outside
        .map((id) => found.get(id)!)
        .map((s) => [s.surname, s.name].filter(Boolean).join(' '))
        .join(', ');
      throw fieldError(
        'body.studentIds',
        `their schools do not take part in the diagnostic: ${outside.join(', ')}`,
        'school_not_in_diagnostic',
        { name: names },
      );
    }

    await lockDiagnosticRegistrations(tx, target.id);
    const key = { diagnosticId: target.id, subjectTestId: body.subjectTestId };
    const existing = new Map(
      (await repo.liveRegistrations(tx, { ...key, studentIds: body.studentIds })).map((r) => [
        r.studentId!,
        r,
      ]),
    );
    const inserted = await insertParticipantTests(
      tx,
      body.studentIds
        .filter((id) => !existing.has(id))
        .map((id) => {
          const s = found.get(id)!;
          return {
            ...key,
            studentId: id,
            schoolId: s.schoolId,
            classId: s.classId,
            buildingId: s.buildingId,
            testDate: body.testDate,
            status: 'planned',
          };
        }),
    );
    const created = new Map(inserted.map((r) => [r.studentId!, r]));
    if (inserted.length)
      await audit(tx, {
        userId: actor.auth.userId,
        action: 'participant_test.register',
        entity: 'diagnostic',
        entityId: target.id,
        ip: actor.ip,
        details: { ...key, testDate: body.testDate, participantTestIds: inserted.map((r) => r.id) },
      });
    return {
      created: inserted.length,
      existing: existing.size,
      items: body.studentIds.map((studentId) => {
        const row = created.get(studentId) ?? existing.get(studentId)!;
        return {
          participantTestId: row.id,
          studentId,
          activationCode: row.activationCode,
          registrationCode: row.registrationCode,
          created: created.has(studentId),
        };
      }),
    };
  });
}

export function listParticipants(ctx: AppContext, auth: AuthContext, request: ParticipantTestListRequest) {
  return listParticipantTests(ctx.db, ugnikDiagnosticCondition(auth), request);
}

/** Students of the schools of one of the ugnik's diagnostics (the route checked it is theirs). */
export async function listStudents(ctx: AppContext, request: UgnikStudentListRequest) {
  const target = await registrationTarget(ctx.db, { id: request.filter.diagnosticId });
  if (!target) throw notFound('No such diagnostic');
  return listStudentRows(ctx.db, request, target.schoolIds.size ? [...target.schoolIds] : null);
}

export async function getParticipantTest(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
): Promise<ParticipantTestListItem> {
  const { items } = await listParticipantTests(
    ctx.db,
    and(ugnikDiagnosticCondition(auth), eq(participantTests.id, id)),
    { page: 1, pageSize: 1 },
  );
  if (!items[0]) throw notFound('No such participant test');
  return items[0];
}

/** Soft-deletes a participant test nobody has started (409 `has_exam_work`); its sessions end. */
export async function deleteParticipantTest(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await repo.lockParticipantTest(tx, id);
    if (!row) throw notFound('No such participant test');
    if ((await repo.participantExamWorkCount(tx, id)) > 0)
      throw conflict('has_exam_work', 'The participant has started; the participant test cannot be deleted');
    await repo.softDeleteParticipantTest(tx, id, new Date());
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'participant_test.delete',
      entity: 'participant_test',
      entityId: id,
      ip: actor.ip,
      details: { diagnosticId: row.diagnosticId, studentId: row.studentId },
    });
  });
  await ctx.sessions.revokeWhere({ participantTestId: id }, 'participant_test_deleted');
}

/** The reference lists of the authority's forms (plain reads). */
export {
  listBuildings,
  listClasses,
  listMainSubjectTests,
  listOo,
  listParallels,
  listSchools,
} from './reference.repo.js';
