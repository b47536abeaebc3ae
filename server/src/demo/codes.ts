import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { diagnostics, participantTests, students, subjectTests } from '../db/schema/index.js';

export interface DemoCode {
  code: string;
  /** «Фамилия Имя». */
  participant: string;
  subjectTest: string;
}

// Sorted here rather than in SQL: PGlite and a PostgreSQL server may have different collations.
const collator = new Intl.Collator('ru');

/** Today's activation codes of the demo diagnostic, by participant then subject test. */
export async function listDemoCodes(db: DbOrTx, today: string): Promise<DemoCode[]> {
  const rows = await db
    .select({
      code: participantTests.activationCode,
      surname: students.surname,
      name: students.name,
      subjectTest: subjectTests.name,
    })
    .from(participantTests)
    .innerJoin(diagnostics, eq(diagnostics.id, participantTests.diagnosticId))
    .innerJoin(students, eq(students.id, participantTests.studentId))
    .innerJoin(subjectTests, eq(subjectTests.id, participantTests.subjectTestId))
    .where(
      and(
        eq(diagnostics.isDemo, true),
        isNull(diagnostics.deletedAt),
        isNull(participantTests.deletedAt),
        eq(participantTests.testDate, today),
      ),
    );
  return rows
    .map((r) => ({ code: r.code, participant: `${r.surname} ${r.name}`, subjectTest: r.subjectTest }))
    .sort(
      (a, b) =>
        collator.compare(a.participant, b.participant) ||
        collator.compare(a.subjectTest, b.subjectTest) ||
        a.code.localeCompare(b.code),
    );
}

/** One line a code: `CODE<TAB>participant<TAB>subject test` (docs/design.md §8). */
export function formatDemoCodes(rows: readonly DemoCode[]): string {
  return rows.map((r) => `${r.code}\t${r.participant}\t${r.subjectTest}\n`).join('');
}
