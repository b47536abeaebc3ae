import type { DbOrTx } from '../../db/client.js';
import { buildWorkbook, sheet } from '../../lib/xlsx.js';
import * as repo from './organizator.repo.js';

const STATUS_RU: Record<string, string> = {
  not_registered: 'не назначено',
  planned: 'запланировано',
  active: 'код активирован',
  in_progress: 'выполняется',
  finished: 'завершено',
  scored: 'проверено',
  published: 'результаты опубликованы',
  absent: 'не явился',
  annulled: 'аннулировано',
};

interface ReportRow {
  person: repo.OrganizatorRow;
  test: repo.WorkerTestState | null;
}

const MOSCOW_MS = 3 * 3_600_000;
/** Excel has no time zones: a wall-clock Moscow time is written as that time in UTC. */
const moscowWallClock = (iso: string | null) => (iso ? new Date(new Date(iso).getTime() + MOSCOW_MS) : null);
const calendarDay = (day: string | null) => (day ? new Date(`${day}T00:00:00Z`) : null);
const fullName = (p: repo.OrganizatorRow) => [p.surname, p.name, p.patronymic].filter(Boolean).join(' ');

/**
 * `GET /api/coordinator/organizator/report/workerTest`: every organizator of the school × every
 * worker test of their position — status, dates and (once results are stored) score, percent and
 * passed. An organizator without worker tests still gets a row.
 */
export async function workerTestReport(db: DbOrTx, schoolId: number, now = new Date()) {
  const people = await repo.allOrganizators(db, schoolId);
  const rows: ReportRow[] = people.flatMap((person) =>
    person.workerTests.length
      ? person.workerTests.map((test): ReportRow => ({ person, test }))
      : [{ person, test: null }],
  );
  const day = new Date(now.getTime() + MOSCOW_MS).toISOString().slice(0, 10);
  const data = await buildWorkbook([
    sheet<ReportRow>({
      name: 'Тестирование организаторов',
      title: [`Тестирование организаторов в аудитории на ${day.split('-').reverse().join('.')}`],
      columns: [
        { header: 'Организатор', width: 36, value: (r) => fullName(r.person) },
        { header: 'Логин', width: 18, value: (r) => r.person.login },
        { header: 'Должность', width: 24, value: (r) => r.person.positionName },
        { header: 'Заблокирован', width: 13, value: (r) => (r.person.isBlocked ? 'да' : 'нет') },
        { header: 'Тестирование', width: 36, value: (r) => r.test?.name },
        {
          header: 'Статус',
          width: 22,
          value: (r) => (r.test ? (STATUS_RU[r.test.status] ?? r.test.status) : null),
        },
        {
          header: 'Дата',
          width: 12,
          format: 'dd.mm.yyyy',
          value: (r) => calendarDay(r.test?.testDate ?? null),
        },
        {
          header: 'Начато',
          width: 17,
          format: 'dd.mm.yyyy hh:mm',
          value: (r) => moscowWallClock(r.test?.startedAt ?? null),
        },
        {
          header: 'Завершено',
          width: 17,
          format: 'dd.mm.yyyy hh:mm',
          value: (r) => moscowWallClock(r.test?.finishedAt ?? null),
        },
        // Results (score, percent, passed) are not stored yet; the columns stay empty until they are.
        { header: 'Балл', width: 8, value: () => null },
        { header: 'Процент', width: 9, value: () => null },
        { header: 'Пройдено', width: 10, value: () => null },
      ],
      rows,
    }),
  ]);
  return { data, fileName: `Тестирование организаторов ${day}.xlsx` };
}
