import { DETAILED_HEADERS_RU as D, STATS_HEADERS_RU } from '@attesta/contract';
import type { Writable } from 'node:stream';
import { and, eq, type SQL } from 'drizzle-orm';
import {
  REPORT_DETAILED_PAGE_SIZE,
  type ReportDetailed,
  type ReportDetailedQuery,
  type ReportDetailedRow,
} from '@attesta/contract';
import { participantTests } from '../../db/schema/index.js';
import { XLSX_MIME, type SheetColumn } from '../../lib/xlsx.js';
import { filterCaption, type ReportFile } from './report-files.js';
import { filterCondition, reportFilters } from './report-filters.js';
import { memorySink, XlsxStream, type OnRows } from './report-stream.js';
import { reportRowScope, STAFF_REPORT_ROLES } from './reports.access.js';
import {
  countedCondition,
  countRegistrations,
  fileResultPages,
  reportRowPages,
  reportRowsAt,
  taskColumnsOf,
  taskScoresOf,
  type FileResultRow,
  type ReportRow,
} from './reports.repo.js';
import { isCounted } from './stats.js';
import type { ReportCaller } from './summary.service.js';

/*
 * `detailed`: one row per counted result with its task scores. Surnames: every role of this call
 * may see the names of the rows it reaches (a coordinator their school's, an ugnik its diagnostics'
 * — docs/design.md §1 "sees results by participant code and surname" — an admin all), so `surname`
 * is there whenever the registration has a person; impersonal registrations have none.
 *
 * The JSON is paged (`page`, `pageSize`); the xlsx is streamed (report-stream.ts) a sheet per
 * subject test, its task columns known beforehand from one aggregate (taskColumnsOf), its rows
 * read in keyset pages of counted results with only the columns the file writes (fileResultPages):
 * the same writer answers a small file at once and builds a big one in a queued job
 * (report-queue.ts).
 */

export interface DetailedLine extends ReportDetailedRow {
  subjectTestId: number;
  subjectTestName: string;
  schoolName: string | null;
  className: string | null;
}

type DetailedFilters = Omit<ReportDetailedQuery, 'format' | 'page' | 'pageSize'>;

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

/** The counted results of the caller's scope and the filters, as SQL over the report rows. */
function detailedWhere(caller: ReportCaller, query: DetailedFilters): SQL {
  return and(
    reportRowScope(caller.auth, STAFF_REPORT_ROLES),
    filterCondition(reportFilters(query)),
    countedCondition,
  )!;
}

/** The detailed lines of a page of counted rows, with their task scores (one query). */
async function linesOf(caller: ReportCaller, rows: ReportRow[]): Promise<DetailedLine[]> {
  const counted = rows.filter(isCounted);
  const scores = await taskScoresOf(
    caller.db,
    counted.map((r) => r.workId!),
  );
  const byWork = new Map<number, ReportDetailedRow['tasks']>();
  for (const s of scores) {
    const list = byWork.get(s.examWorkId);
    const task = { position: s.position, taskId: s.taskId, score: s.score, maxScore: s.maxScore };
    if (list) list.push(task);
    else byWork.set(s.examWorkId, [task]);
  }
  return counted.map((r) => lineOf(r, byWork.get(r.workId!) ?? []));
}

/** Pages of detailed lines matching `where` (counted results), in registration order. */
async function* linesWhere(caller: ReportCaller, where: SQL): AsyncGenerator<DetailedLine[]> {
  for await (const page of reportRowPages(caller.db, where)) yield linesOf(caller, page);
}

/** Pages of detailed lines (with the names the files need), for the screen, the file or a job. */
export function detailedLines(caller: ReportCaller, query: DetailedFilters): AsyncGenerator<DetailedLine[]> {
  return linesWhere(caller, detailedWhere(caller, query));
}

/** How many rows the report has (counted results in the caller's scope). */
export const detailedCount = (caller: ReportCaller, query: DetailedFilters) =>
  countRegistrations(caller.db, detailedWhere(caller, query));

/** One page of the rows (`page` from 1, `pageSize` rows), with the number of every page's rows. */
export async function detailedData(
  caller: ReportCaller,
  query: Omit<ReportDetailedQuery, 'format'>,
): Promise<ReportDetailed> {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? REPORT_DETAILED_PAGE_SIZE;
  const where = detailedWhere(caller, query);
  const [total, rows] = await Promise.all([
    countRegistrations(caller.db, where),
    reportRowsAt(caller.db, where, (page - 1) * pageSize, pageSize),
  ]);
  const lines = await linesOf(caller, rows);
  return {
    rows: lines.map(
      ({ subjectTestId: _t, subjectTestName: _n, schoolName: _s, className: _c, ...row }) => row,
    ),
    total,
    page,
    pageSize,
  };
}

const FIXED_COLUMNS: SheetColumn<FileResultRow>[] = [
  { header: D.code, width: 16, value: (r) => r.registrationCode },
  { header: D.surname, width: 20, value: (r) => r.surname },
  { header: D.school, width: 32, value: (r) => r.schoolName },
  { header: D.class, width: 9, value: (r) => r.className },
  { header: D.variant, width: 9, value: (r) => r.variantNumber ?? 0 },
  { header: D.score, width: 10, value: (r) => r.primaryScore },
  { header: STATS_HEADERS_RU.maxScore, width: 10, value: (r) => r.maxScore },
  { header: D.percent, width: 8, value: (r) => r.percent },
  { header: D.mark, width: 9, value: (r) => r.mark },
  { header: D.level, width: 14, value: (r) => r.level },
];

const COLON = 58;
const COMMA = 44;
const ZERO = 48;

/**
 * The task scores of the row being written, by position, read from its `position:score` text by
 * character codes into one array reused from row to row (a 300,000-row file makes no array per
 * row): `1:1,2:0.5,3:` → [, 1, 0.5, null].
 */
class ScoresOfRow {
  private row: FileResultRow | null = null;
  private readonly at: (number | null)[] = [];

  score(row: FileResultRow, position: number): number | null {
    if (row !== this.row) this.read(row);
    return this.at[position] ?? null;
  }

  private read(row: FileResultRow) {
    this.row = row;
    this.at.length = 0;
    const text = row.scores ?? '';
    let i = 0;
    while (i < text.length) {
      let position = 0;
      for (; i < text.length && text.charCodeAt(i) !== COLON; i++)
        position = position * 10 + text.charCodeAt(i) - ZERO;
      const start = ++i;
      let whole = true;
      let value = 0;
      for (; i < text.length && text.charCodeAt(i) !== COMMA; i++) {
        const digit = text.charCodeAt(i) - ZERO;
        if (digit >= 0 && digit <= 9) value = value * 10 + digit;
        else whole = false;
      }
      this.at[position] = i === start ? null : whole ? value : Number(text.slice(start, i));
      i++;
    }
  }
}

/**
 * Writes the xlsx into `out`: one sheet per subject test (task positions mean different tasks in
 * different tests), by name, with a column "Задание N (макс. M)" per task position of its results.
 * Returns the rows written.
 */
export async function writeDetailedXlsx(
  caller: ReportCaller,
  query: DetailedFilters,
  out: Writable,
  onRows?: OnRows,
): Promise<number> {
  const where = detailedWhere(caller, query);
  const tests = new Map<number, { name: string; tasks: { position: number; max: number }[] }>();
  for (const c of await taskColumnsOf(caller.db, where)) {
    const test = tests.get(c.subjectTestId) ?? { name: c.subjectTestName, tasks: [] };
    test.tasks.push({ position: c.position, max: c.maxScore });
    tests.set(c.subjectTestId, test);
  }
  const caption = await filterCaption(caller.db, reportFilters(query));
  const xlsx = new XlsxStream(out);
  const scores = new ScoresOfRow();
  let written = 0;
  const sorted = [...tests.entries()].sort(([, a], [, b]) => a.name.localeCompare(b.name, 'ru'));
  for (const [subjectTestId, test] of sorted) {
    const taskColumns = test.tasks.map(({ position, max }): SheetColumn<FileResultRow> => ({
      header: `Задание ${position} (макс. ${max})`,
      width: 11,
      value: (r) => scores.score(r, position),
    }));
    written += await xlsx.sheet(
      {
        name: test.name.slice(0, 24),
        title: [`Детальный отчёт: ${test.name}`, ...caption],
        columns: [...FIXED_COLUMNS, ...taskColumns],
      },
      fileResultPages(caller.db, and(where, eq(participantTests.subjectTestId, subjectTestId))),
      onRows,
    );
  }
  if (!tests.size)
    await xlsx.sheet<never>(
      {
        name: 'Детальный отчёт',
        title: ['Детальный отчёт', ...caption, 'Нет результатов'],
        columns: [{ header: D.code, value: () => null }],
      },
      [],
    );
  await xlsx.finish();
  return written;
}

/** The xlsx built at once (a small report: report-queue.ts sends big ones to the queue). */
export async function detailedFile(caller: ReportCaller, query: ReportDetailedQuery): Promise<ReportFile> {
  const sink = memorySink();
  await writeDetailedXlsx(caller, query, sink.stream);
  return { fileName: DETAILED_FILE_NAME, mime: XLSX_MIME, body: sink.bytes() };
}

export const DETAILED_FILE_NAME = 'Детальный отчёт.xlsx';
