import type { CreatedCode, ImpersonalCreateBody } from '@attesta/contract';
import { hasRole } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { forbidden } from '../../lib/errors.js';
import {
  assertDateInWindow,
  fieldError,
  insertParticipantTests,
  registrationTarget,
  schoolTakesPart,
} from '../../lib/participant-tests.js';
import type { Actor } from './info.service.js';
import { schoolOfBuilding, schoolOfClass } from './info.repo.js';
import { buildingOfClass } from './impersonal.repo.js';

interface Place {
  schoolId: number;
  classId: number | null;
  buildingId: number | null;
}

/**
 * Where the codes go: the school named by the class, the building or schoolId (they must agree);
 * a coordinator's own school when nothing names one. A coordinator never reaches another school.
 */
async function resolvePlace(tx: Tx, actor: Actor, body: ImpersonalCreateBody): Promise<Place> {
  const named: { path: string; schoolId: number | null }[] = [];
  if (body.classId !== undefined)
    named.push({ path: 'body.classId', schoolId: await schoolOfClass(tx, body.classId) });
  if (body.buildingId !== undefined)
    named.push({ path: 'body.buildingId', schoolId: await schoolOfBuilding(tx, body.buildingId) });
  if (body.schoolId !== undefined) named.push({ path: 'body.schoolId', schoolId: body.schoolId });
  for (const n of named) if (n.schoolId === null) throw fieldError(n.path, 'does not exist');

  const isAdmin = hasRole(actor.auth, 'admin');
  const schoolId = named[0]?.schoolId ?? (isAdmin ? null : actor.auth.schoolId);
  if (schoolId === null) throw fieldError('body.schoolId', 'is required (or a classId / buildingId)');
  const other = named.find((n) => n.schoolId !== schoolId);
  if (other) throw fieldError(other.path, 'belongs to another school');
  if (!isAdmin && schoolId !== actor.auth.schoolId)
    throw forbidden('You can only create codes in your own school');

  const buildingId =
    body.buildingId ?? (body.classId !== undefined ? await buildingOfClass(tx, body.classId) : null);
  return { schoolId, classId: body.classId ?? null, buildingId };
}

/** N anonymous participant tests (no student, isImpersonal) with fresh codes, in one transaction. */
export async function createImpersonal(
  ctx: AppContext,
  actor: Actor,
  body: ImpersonalCreateBody,
): Promise<{ items: CreatedCode[] }> {
  return ctx.db.transaction(async (tx) => {
    const target = await registrationTarget(tx, { id: body.diagnosticId });
    if (!target) throw fieldError('body.diagnosticId', 'no such diagnostic');
    if (target.kind === 'worker')
      throw fieldError('body.diagnosticId', 'is a worker test; use generateActivationCode');
    if (!target.subjectTestIds.has(body.subjectTestId))
      throw fieldError('body.subjectTestId', 'is not a subject test of the diagnostic', 'not_in_diagnostic');
    assertDateInWindow(body.testDate, target);
    const place = await resolvePlace(tx, actor, body);
    if (!schoolTakesPart(target, place.schoolId))
      throw fieldError('body.schoolId', 'does not take part in the diagnostic', 'school_not_in_diagnostic');

    const created = await insertParticipantTests(
      tx,
      Array.from({ length: body.count }, () => ({
        diagnosticId: target.id,
        subjectTestId: body.subjectTestId,
        studentId: null,
        ...place,
        testDate: body.testDate,
        status: 'planned',
        isImpersonal: true,
      })),
    );
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'participant_test.create_impersonal',
      entity: 'diagnostic',
      entityId: target.id,
      ip: actor.ip,
      details: {
        subjectTestId: body.subjectTestId,
        testDate: body.testDate,
        count: created.length,
        ...place,
        participantTestIds: created.map((c) => c.id),
      },
    });
    return {
      items: created.map((c) => ({
        participantTestId: c.id,
        activationCode: c.activationCode,
        registrationCode: c.registrationCode,
      })),
    };
  });
}
