import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { ParticipantCodesQuery } from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { Db } from '../../db/client.js';
import { classes, participantTests } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { buildWorkbook, sheet, XLSX_MIME } from '../../lib/xlsx.js';
import { includesSchool, liveDiagnostic, type DiagnosticRow } from '../create-diagnostic/index.js';
import { PARTICIPANT_COLUMNS, participantRows, type ParticipantRow } from '../create-diagnostic/index.js';
import { assignedClassIds, assignedWholeBuildingIds } from '../school-data/index.js';
import { codeSlipsPdf, type Slip } from './participant-codes.pdf.js';

/*
 * Printable participant codes: a coordinator prints their school's (or one class's) slips, an
 * organizator those of the classes and buildings assigned to them. Codes are secrets handed to
 * one person each, so every print is audited.
 */

export type CodesRole = 'coordinator' | 'organizator';

export interface CodesRequest {
  auth: AuthContext;
  ip: string | null;
  /** Origin the QR codes point at (PUBLIC_URL, or the request's own). */
  origin: string;
}

/** Where the caller's rows of a diagnostic are; 404 unknown diagnostic or class, 403 outside the scope. */
async function rowsInScope(
  db: Db,
  role: CodesRole,
  auth: AuthContext,
  query: ParticipantCodesQuery,
): Promise<{ diagnostic: DiagnosticRow; where: SQL }> {
  const diagnostic = await liveDiagnostic(db, { id: query.diagnosticId });
  let where: SQL;
  if (role === 'coordinator') {
    if (!(await includesSchool(db, diagnostic.id, auth.schoolId)))
      throw forbidden('This diagnostic does not include your school');
    where = eq(participantTests.schoolId, auth.schoolId!);
  } else {
    where = or(
      sql`${participantTests.classId} in ${assignedClassIds(auth.userId)}`,
      sql`${participantTests.buildingId} in ${assignedWholeBuildingIds(auth.userId)}`,
    )!;
    const [own] = await db
      .select({ id: participantTests.id })
      .from(participantTests)
      .where(and(eq(participantTests.diagnosticId, diagnostic.id), where))
      .limit(1);
    if (!own && !(await includesSchool(db, diagnostic.id, auth.schoolId)))
      throw forbidden('This diagnostic has no participants in your rooms');
  }
  if (query.classId !== undefined) {
    const [cls] = await db
      .select({
        schoolId: classes.schoolId,
        assigned: sql<boolean>`${classes.id} in ${assignedClassIds(auth.userId)}`,
      })
      .from(classes)
      .where(eq(classes.id, query.classId));
    if (!cls) throw notFound('No such class');
    const reachable = role === 'coordinator' ? cls.schoolId === auth.schoolId : Boolean(cls.assigned);
    if (!reachable) throw forbidden('This class is outside your scope');
    where = and(where, eq(participantTests.classId, query.classId))!;
  }
  return { diagnostic, where };
}

const MOSCOW_OFFSET_MS = 3 * 3_600_000;
/** Moscow wall clock of an instant: ['dd.mm.yyyy', 'HH:MM']. */
function moscow(at: Date): [string, string] {
  const iso = new Date(at.getTime() + MOSCOW_OFFSET_MS).toISOString();
  return [iso.slice(0, 10).split('-').reverse().join('.'), iso.slice(11, 16)];
}
const ruDate = (date: string) => date.split('-').reverse().join('.');

/** "12.03.2026, 09:00–15:00 (МСК)" when the window lies within the test day, else the whole window. */
export function whenText(testDate: string, window: { startsAt: Date; endsAt: Date }): string {
  const [startDay, startTime] = moscow(window.startsAt);
  const [endDay, endTime] = moscow(window.endsAt);
  const day = ruDate(testDate);
  if (startDay === day && endDay === day) return `${day}, ${startTime}–${endTime} (МСК)`;
  return `${day}; окно: ${startDay} ${startTime} – ${endDay} ${endTime} (МСК)`;
}

export const loginUrlOf = (origin: string, code: string) =>
  `${origin}/login?tab=code&code=${encodeURIComponent(code)}`;

const fullName = (r: ParticipantRow) => [r.surname, r.name, r.patronymic].filter(Boolean).join(' ');

/** The slips (PDF) or the list (xlsx) of the caller's participants of a diagnostic. */
export async function participantCodes(
  db: Db,
  role: CodesRole,
  req: CodesRequest,
  query: ParticipantCodesQuery,
) {
  const { diagnostic, where } = await rowsInScope(db, role, req.auth, query);
  const rows = await participantRows(db, diagnostic.id, where);
  const title = `Коды активации — ${diagnostic.name}`;
  const baseName = `Коды участников ${diagnostic.code}`;
  let file: { body: Buffer; mime: string; fileName: string };
  if (query.format === 'xlsx') {
    const body = await buildWorkbook([
      sheet<ParticipantRow>({
        name: 'Коды участников',
        title: [`${diagnostic.name} (${diagnostic.code})`],
        columns: [
          ...PARTICIPANT_COLUMNS,
          { header: 'Дата и время', width: 30, value: (r) => whenText(r.testDate, diagnostic) },
          { header: 'Код активации', width: 15, value: (r) => r.activationCode },
          { header: 'Ссылка для входа', width: 60, value: (r) => loginUrlOf(req.origin, r.activationCode) },
        ],
        rows,
      }),
    ]);
    file = { body, mime: XLSX_MIME, fileName: `${baseName}.xlsx` };
  } else {
    const slips: Slip[] = rows.map((r) => ({
      school: r.schoolName,
      className: r.className,
      participant: fullName(r),
      subjectTest: r.subjectTestName,
      when: whenText(r.testDate, diagnostic),
      activationCode: r.activationCode,
      loginUrl: loginUrlOf(req.origin, r.activationCode),
    }));
    file = { body: await codeSlipsPdf(title, slips), mime: 'application/pdf', fileName: `${baseName}.pdf` };
  }
  await audit(db, {
    userId: req.auth.userId,
    action: 'participant_codes.print',
    entity: 'diagnostic',
    entityId: diagnostic.id,
    details: { role, format: query.format, classId: query.classId ?? null, rows: rows.length },
    ip: req.ip,
  });
  return file;
}
