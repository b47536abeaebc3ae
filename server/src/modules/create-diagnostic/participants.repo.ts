import { PARTICIPANT_STATUS_RU } from '@attesta/contract';
import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import type { SheetColumn } from '../../lib/xlsx.js';
import {
  classes,
  participantTests,
  schools,
  students,
  subjectTests,
  workers,
} from '../../db/schema/index.js';

/** One participant test with what a code list or slip shows. */
export interface ParticipantRow {
  id: number;
  schoolId: number | null;
  schoolName: string;
  classId: number | null;
  className: string;
  surname: string;
  name: string;
  patronymic: string;
  subjectTestName: string;
  testDate: string;
  activationCode: string;
  registrationCode: string;
  status: string;
}

/**
 * The columns every list of a diagnostic's participants opens with (the admin's export of codes and
 * the code list of reports): who the participant is, where, and the subject test.
 */
export const PARTICIPANT_COLUMNS: SheetColumn<ParticipantRow>[] = [
  { header: 'Школа', width: 36, value: (r) => r.schoolName },
  { header: 'Класс', width: 9, value: (r) => r.className },
  { header: 'Фамилия', width: 18, value: (r) => r.surname },
  { header: 'Имя', width: 16, value: (r) => r.name },
  { header: 'Отчество', width: 18, value: (r) => r.patronymic },
  { header: 'Тест по предмету', width: 30, value: (r) => r.subjectTestName },
];

/** Participant test statuses as the Russian interface names them (the staff lists' words). */
export const STATUS_RU: Record<string, string> = PARTICIPANT_STATUS_RU;

/**
 * The live participant tests of a diagnostic (narrowed by `where`, a condition on participant_tests),
 * sorted by school, class (grade, letter), surname, name and subject test.
 */
export async function participantRows(
  db: DbOrTx,
  diagnosticId: number,
  where?: SQL,
): Promise<ParticipantRow[]> {
  return db
    .select({
      id: participantTests.id,
      schoolId: participantTests.schoolId,
      schoolName: sql<string>`coalesce(${schools.shortName}, ${schools.name}, '')`,
      classId: participantTests.classId,
      className: sql<string>`coalesce(${classes.name}, '')`,
      surname: sql<string>`coalesce(${students.surname}, ${workers.surname}, '')`,
      name: sql<string>`coalesce(${students.name}, ${workers.name}, '')`,
      patronymic: sql<string>`coalesce(${students.patronymic}, ${workers.patronymic}, '')`,
      subjectTestName: subjectTests.name,
      testDate: participantTests.testDate,
      activationCode: participantTests.activationCode,
      registrationCode: participantTests.registrationCode,
      status: participantTests.status,
    })
    .from(participantTests)
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .leftJoin(schools, eq(schools.id, participantTests.schoolId))
    .leftJoin(classes, eq(classes.id, participantTests.classId))
    .leftJoin(students, eq(students.id, participantTests.studentId))
    .leftJoin(workers, eq(workers.id, participantTests.workerId))
    .where(and(eq(participantTests.diagnosticId, diagnosticId), isNull(participantTests.deletedAt), where))
    .orderBy(
      asc(sql`coalesce(${schools.shortName}, ${schools.name})`),
      asc(schools.id),
      asc(classes.parallelId),
      asc(classes.letter),
      asc(sql`coalesce(${students.surname}, ${workers.surname})`),
      asc(sql`coalesce(${students.name}, ${workers.name})`),
      asc(subjectTests.name),
      asc(participantTests.id),
    );
}
