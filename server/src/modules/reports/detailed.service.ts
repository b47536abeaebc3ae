import { and } from 'drizzle-orm';
import type { ReportDetailed, ReportDetailedQuery, ReportDetailedRow } from '@attesta/contract';
import { buildWorkbook, sheet, XLSX_MIME, type SheetColumn } from '../../lib/xlsx.js';
import { filterCaption, type ReportFile } from './report-files.js';
import { filterCondition, reportFilters } from './report-filters.js';
import { reportRowScope, STAFF_REPORT_ROLES } from './reports.access.js';
import { reportRowPages, taskScoresOf, type ReportRow } from './reports.repo.js';
import { isCounted } from './stats.js';
import type { ReportCaller } from './summary.service.js';

/*
 * `detailed`: one row per counted result with its task scores. Surnames: every role of this call
 * may see the names of the rows it reaches (a coordinator their school's, an ugnik its diagnostics'
 * — docs/design.md §1 "sees results by participant code and surname" — an admin all), so `surname`
 * is there whenever the registration has a person; impersonal registrations have none.
 */

export interface DetailedLine extends ReportDetailedRow {
  subjectTestId: number;
  subjectTestName: string;
  schoolName: string | null;
  className: string | null;
}

function lineOf(r: ReportRow, tasks: ReportDetailedRow['tasks']): DetailedLine {
  return {
    participantTestId: r.participantTestId,
    code: r.registrationCode,
    ...(r.surname ? { surname: r.surname } : {}),
    schoolId: r.schoolId,
    classId: r.classId,
    variant: r.variantNumber ?? 0,
    primaryScore: r.primaryScore!,
    maxScore: r.maxScore!,
    percent: r.percent!,
    mark: r.mark,
    level: r.level,
    tasks,
    subjectTestId: r.subjectTestId,
    subjectTestName: r.subjectTestName,
    schoolName: r.schoolName,
    className: r.className,
  };
}

/** Pages of detailed lines (with the names the files need), for the screen, the file or a job. */
export async function* detailedLines(
  caller: ReportCaller,
  query: Omit<ReportDetailedQuery, 'format'>,
): AsyncGenerator<DetailedLine[]> {
  const filters = reportFilters(query);
  const where = and(reportRowScope(caller.auth, STAFF_REPORT_ROLES), filterCondition(filters));
  for await (const page of reportRowPages(caller.db, where)) {
    const counted = page.filter(isCounted);
    const scores = await taskScoresOf(
      caller.db,
      counted.map((r) => r.workId!),
    );
    const byWork = new Map<number, ReportDetailedRow['tasks']>();
    for (const s of scores) {
      const list = byWork.get(s.examWorkId) ?? [];
      list.push({ position: s.position, taskId: s.taskId, score: s.score, maxScore: s.maxScore });
      byWork.set(s.examWorkId, list);
    }
    yield counted.map((r) => lineOf(r, byWork.get(r.workId!) ?? []));
  }
}

export async function detailedData(
  caller: ReportCaller,
  query: Omit<ReportDetailedQuery, 'format'>,
): Promise<ReportDetailed> {
  const rows: ReportDetailedRow[] = [];
  for await (const lines of detailedLines(caller, query))
    for (const { subjectTestId: _t, subjectTestName: _n, schoolName: _s, className: _c, ...row } of lines)
      rows.push(row);
  return { rows };
}

/** One sheet per subject test (task positions mean different tasks in different tests). */
export async function detailedFile(caller: ReportCaller, query: ReportDetailedQuery): Promise<ReportFile> {
  const byTest = new Map<number, DetailedLine[]>();
  for await (const lines of detailedLines(caller, query))
    for (const line of lines) {
      const list = byTest.get(line.subjectTestId);
      if (list) list.push(line);
      else byTest.set(line.subjectTestId, [line]);
    }
  const caption = await filterCaption(caller.db, reportFilters(query));
  const used = new Set<string>();
  // Sheet names are unique and at most 31 characters long.
  const sheetName = (name: string, index: number) => {
    const short = name.slice(0, 24);
    const unique = used.has(short) ? `${short} (${index + 1})` : short;
    used.add(unique);
    return unique;
  };
  const sheets = [...byTest.values()]
    .sort((a, b) => a[0]!.subjectTestName.localeCompare(b[0]!.subjectTestName, 'ru'))
    .map((lines, index) => {
      const maxAt = new Map<number, number>();
      for (const l of lines)
        for (const t of l.tasks) maxAt.set(t.position, Math.max(maxAt.get(t.position) ?? 0, t.maxScore));
      const taskColumns: SheetColumn<DetailedLine>[] = [...maxAt.entries()]
        .sort(([a], [b]) => a - b)
        .map(([position, max]) => ({
          header: `Задание ${position} (макс. ${max})`,
          width: 11,
          value: (l) => l.tasks.find((t) => t.position === position)?.score ?? null,
        }));
      return sheet<DetailedLine>({
        name: sheetName(lines[0]!.subjectTestName, index),
        title: [`Детальный отчёт: ${lines[0]!.subjectTestName}`, ...caption],
        rows: lines,
        columns: [
          { header: 'Код участника', width: 16, value: (l) => l.code },
          { header: 'Фамилия', width: 20, value: (l) => l.surname ?? null },
          { header: 'Школа', width: 32, value: (l) => l.schoolName },
          { header: 'Класс', width: 9, value: (l) => l.className },
          { header: 'Вариант', width: 9, value: (l) => l.variant },
          { header: 'Первичный балл', width: 10, value: (l) => l.primaryScore },
          { header: 'Макс. балл', width: 10, value: (l) => l.maxScore },
          { header: '%', width: 8, value: (l) => l.percent },
          { header: 'Отметка', width: 9, value: (l) => l.mark },
          { header: 'Уровень', width: 14, value: (l) => l.level },
          ...taskColumns,
        ],
      });
    });
  const empty = sheet<never>({
    name: 'Детальный отчёт',
    title: ['Детальный отчёт', ...caption, 'Нет результатов'],
    rows: [],
    columns: [{ header: 'Код участника', value: () => null }],
  });
  const body = await buildWorkbook(sheets.length ? sheets : [empty]);
  return { fileName: 'Детальный отчёт.xlsx', mime: XLSX_MIME, body };
}
