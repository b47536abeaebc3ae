import type { FieldError, ParticipantTestImportResult } from '@attesta/contract';
import { hasRole } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import {
  dayOf,
  insertParticipantTests,
  lockDiagnosticRegistrations,
  registrationTarget,
  schoolTakesPart,
  type RegistrationTarget,
} from '../../lib/participant-tests.js';
import type { Actor } from './info.service.js';
import * as repo from './import-xml.repo.js';
import { importFailed, parseImportXml, rowError, type ImportRow } from './import-xml.parse.js';

interface ResolvedRow {
  n: number;
  row: ImportRow;
  place: repo.ClassPlace;
}

/** Checks every row against the database (reads only) and reports all problems at once. */
async function resolveRows(
  tx: Tx,
  actor: Actor,
  target: RegistrationTarget,
  rows: ImportRow[],
): Promise<ResolvedRow[]> {
  const isAdmin = hasRole(actor.auth, 'admin');
  const classes = new Map<string, repo.ClassPlace | null>();
  const lookup = async (row: ImportRow) => {
    const key = row.classId !== undefined ? `#${row.classId}` : `${row.schoolCode}\u0000${row.className}`;
    if (!classes.has(key))
      classes.set(
        key,
        row.classId !== undefined
          ? await repo.classById(tx, row.classId)
          : await repo.classByName(tx, row.schoolCode!, row.className!),
      );
    return classes.get(key)!;
  };

  const errors: FieldError[] = [];
  const resolved: ResolvedRow[] = [];
  for (const [i, row] of rows.entries()) {
    const n = i + 1;
    const before = errors.length;
    if (!target.subjectTestIds.has(row.subjectTestId))
      errors.push(
        rowError(n, 'subjectTestId', 'is not a subject test of the diagnostic', 'not_in_diagnostic'),
      );
    if (row.testDate < dayOf(target.startsAt) || row.testDate > dayOf(target.endsAt))
      errors.push(
        rowError(
          n,
          'testDate',
          `must be between ${dayOf(target.startsAt)} and ${dayOf(target.endsAt)}`,
          'outside_window',
          { from: dayOf(target.startsAt), to: dayOf(target.endsAt) },
        ),
      );
    const place = await lookup(row);
    const classField = row.classId !== undefined ? 'classId' : 'className';
    if (!place) {
      const noSchool = row.schoolCode !== undefined && !(await repo.schoolExistsByCode(tx, row.schoolCode));
      errors.push(
        noSchool
          ? rowError(n, 'schoolCode', 'no school has this code', 'no_school')
          : rowError(n, classField, 'no such class', 'no_class'),
      );
    } else if (!isAdmin && place.schoolId !== actor.auth.schoolId) {
      errors.push(
        rowError(n, classField, 'is a class of another school (outside your scope)', 'other_school'),
      );
    } else if (!schoolTakesPart(target, place.schoolId)) {
      errors.push(
        rowError(
          n,
          classField,
          'its school does not take part in the diagnostic',
          'school_not_in_diagnostic',
        ),
      );
    }
    if (errors.length === before && place) resolved.push({ n, row, place });
  }
  if (errors.length) throw importFailed(errors);
  return resolved;
}

/**
 * Imports participant tests from the XML file, all or nothing in one transaction: a file with one
 * bad row changes nothing and answers 400 `import_invalid` with every row's errors. Students are
 * matched by surname + name + patronymic + birth date within the school, created when missing;
 * a student already registered for the subject test keeps that registration.
 */
export async function importFromXml(
  ctx: AppContext,
  actor: Actor,
  xml: string,
): Promise<ParticipantTestImportResult> {
  const parsed = parseImportXml(xml);
  return ctx.db.transaction(async (tx) => {
    const target = await registrationTarget(tx, { code: parsed.diagnosticCode });
    if (!target || target.kind === 'worker')
      throw importFailed([{ path: 'participantTests.diagnosticCode', message: 'no such diagnostic' }]);
    await lockDiagnosticRegistrations(tx, target.id);
    const rows = await resolveRows(tx, actor, target, parsed.rows);

    const items: ParticipantTestImportResult['items'] = [];
    let studentsCreated = 0;
    for (const { n, row, place } of rows) {
      const s = { ...row.student };
      let studentId = await repo.findStudent(tx, place.schoolId, s);
      if (studentId === null) {
        studentId = await repo.insertStudent(tx, { ...s, schoolId: place.schoolId, classId: place.id });
        studentsCreated++;
      }
      const key = { diagnosticId: target.id, subjectTestId: row.subjectTestId, studentId };
      const existing = await repo.findLiveRegistration(tx, key);
      if (existing) {
        items.push({
          row: n,
          participantTestId: existing.id,
          studentId,
          activationCode: existing.activationCode,
          created: false,
        });
        continue;
      }
      const [pt] = await insertParticipantTests(tx, [
        {
          ...key,
          schoolId: place.schoolId,
          classId: place.id,
          buildingId: place.buildingId,
          testDate: row.testDate,
          status: 'planned',
        },
      ]);
      items.push({
        row: n,
        participantTestId: pt!.id,
        studentId,
        activationCode: pt!.activationCode,
        created: true,
      });
    }
    const created = items.filter((i) => i.created).length;
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'participant_test.import_xml',
      entity: 'diagnostic',
      entityId: target.id,
      ip: actor.ip,
      details: { rows: items.length, created, existing: items.length - created, studentsCreated },
    });
    return { created, existing: items.length - created, studentsCreated, items };
  });
}
