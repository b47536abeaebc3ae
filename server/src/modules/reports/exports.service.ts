import { and, eq } from 'drizzle-orm';
import type { ReportAttesta, ReportExportQuery, ReportMrko } from '@attesta/contract';
import { diagnostics } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { buildWorkbook, sheet, XLSX_MIME } from '../../lib/xlsx.js';
import { buildCsv, CSV_MIME, type ReportFile } from './report-files.js';
import { filterCondition, reportFilters } from './report-filters.js';
import { reportRowScope } from './reports.access.js';
import { externalIdsOf, reportRowPages, taskScoresOf, type ReportRow } from './reports.repo.js';
import { isCounted } from './stats.js';
import type { ReportCaller } from './summary.service.js';

/*
 * Exports to other systems (admin only): results for the upstream Attesta instance and marks for
 * the MRKO journal, in the layouts docs/reports.md defines. Only published results leave: a counted
 * result (stats.ts isCounted) of a diagnostic whose results are published. Every export is audited.
 */

type Task = ReportAttesta['items'][number]['tasks'][number];
type Attesta = ReportAttesta['items'][number];
type Mrko = ReportMrko['items'][number];

/** Published counted results with their task scores and external ids, a page at a time. */
async function* publishedResults(
  caller: ReportCaller,
  query: ReportExportQuery,
): AsyncGenerator<
  { row: ReportRow; tasks: Task[]; external: { provider: string; subject: string } | null }[]
> {
  const filters = reportFilters(query);
  const where = and(
    reportRowScope(caller.auth, ['admin']),
    filterCondition(filters),
    eq(diagnostics.resultsPublished, true),
  );
  for await (const page of reportRowPages(caller.db, where)) {
    const rows = page.filter((r) => r.published && isCounted(r));
    const [scores, external] = await Promise.all([
      taskScoresOf(
        caller.db,
        rows.map((r) => r.workId!),
      ),
      externalIdsOf(
        caller.db,
        rows.flatMap((r) => (r.studentId !== null ? [r.studentId] : [])),
      ),
    ]);
    const tasks = new Map<number, Task[]>();
    for (const s of scores)
      (tasks.get(s.examWorkId) ?? tasks.set(s.examWorkId, []).get(s.examWorkId)!).push({
        position: s.position,
        score: s.score,
        maxScore: s.maxScore,
      });
    yield rows.map((row) => ({
      row,
      tasks: tasks.get(row.workId!) ?? [],
      external: row.studentId !== null ? (external.get(row.studentId) ?? null) : null,
    }));
  }
}

export async function attestaData(caller: ReportCaller, query: ReportExportQuery): Promise<ReportAttesta> {
  const items: Attesta[] = [];
  for await (const page of publishedResults(caller, query))
    for (const { row: r, tasks, external } of page)
      items.push({
        diagnosticCode: r.diagnosticCode,
        diagnosticName: r.diagnosticName,
        subjectCode: r.subjectCode,
        subjectTestId: r.subjectTestId,
        subjectTestName: r.subjectTestName,
        subjectTestSourceId: r.subjectTestSourceId,
        testDate: r.testDate,
        schoolCode: r.schoolCode,
        schoolName: r.schoolName,
        className: r.className,
        participantCode: r.registrationCode,
        externalProvider: external?.provider ?? null,
        externalId: external?.subject ?? null,
        variant: r.variantNumber ?? 0,
        primaryScore: r.primaryScore!,
        maxScore: r.maxScore!,
        percent: r.percent!,
        mark: r.mark,
        level: r.level,
        verificationCode: r.verificationCode!,
        publishedAt: r.publishedAt ? r.publishedAt.toISOString() : null,
        tasks,
      });
  return {
    format: 'attesta.results',
    version: 1,
    generatedAt: (caller.now ?? new Date()).toISOString(),
    items,
  };
}

/** Students' published results that have a mark: the journal takes marks. */
export async function mrkoData(caller: ReportCaller, query: ReportExportQuery): Promise<ReportMrko> {
  const items: Mrko[] = [];
  for await (const page of publishedResults(caller, query))
    for (const { row: r, tasks, external } of page) {
      if (r.studentId === null || r.mark === null) continue;
      items.push({
        schoolCode: r.schoolCode,
        schoolName: r.schoolName,
        className: r.className,
        externalProvider: external?.provider ?? null,
        studentExternalId: external?.subject ?? null,
        surname: r.surname ?? '',
        name: r.name ?? '',
        patronymic: r.patronymic,
        subjectCode: r.subjectCode,
        subjectName: r.subjectName,
        subjectTestName: r.subjectTestName,
        date: r.testDate,
        mark: r.mark,
        primaryScore: r.primaryScore!,
        maxScore: r.maxScore!,
        percent: r.percent!,
        participantCode: r.registrationCode,
        verificationCode: r.verificationCode!,
        tasks,
      });
    }
  return { format: 'mrko.marks', version: 1, generatedAt: (caller.now ?? new Date()).toISOString(), items };
}

type Cell = string | number | null;
type FlatColumn<Row> = { header: string; value: (row: Row) => Cell };

/** The fields of a layout, then `task<N>` and `task<N>_max` for every task position that occurs. */
function flatColumns<Row extends { tasks: Task[] }>(
  fields: (keyof Row & string)[],
  rows: Row[],
): FlatColumn<Row>[] {
  const positions = [...new Set(rows.flatMap((r) => r.tasks.map((t) => t.position)))].sort((a, b) => a - b);
  return [
    ...fields.map((f) => ({ header: f, value: (r: Row) => r[f] as Cell })),
    ...positions.flatMap((p) => [
      { header: `task${p}`, value: (r: Row) => r.tasks.find((t) => t.position === p)?.score ?? null },
      { header: `task${p}_max`, value: (r: Row) => r.tasks.find((t) => t.position === p)?.maxScore ?? null },
    ]),
  ];
}

const ATTESTA_FIELDS: (keyof Attesta & string)[] = [
  'diagnosticCode',
  'diagnosticName',
  'subjectCode',
  'subjectTestId',
  'subjectTestName',
  'subjectTestSourceId',
  'testDate',
  'schoolCode',
  'schoolName',
  'className',
  'participantCode',
  'externalProvider',
  'externalId',
  'variant',
  'primaryScore',
  'maxScore',
  'percent',
  'mark',
  'level',
  'verificationCode',
  'publishedAt',
];
const MRKO_FIELDS: (keyof Mrko & string)[] = [
  'schoolCode',
  'schoolName',
  'className',
  'externalProvider',
  'studentExternalId',
  'surname',
  'name',
  'patronymic',
  'subjectCode',
  'subjectName',
  'subjectTestName',
  'date',
  'mark',
  'primaryScore',
  'maxScore',
  'percent',
  'participantCode',
  'verificationCode',
];

async function flatFile<Row extends { tasks: Task[] }>(
  name: string,
  format: 'csv' | 'xlsx',
  fields: (keyof Row & string)[],
  rows: Row[],
): Promise<ReportFile> {
  const columns = flatColumns(fields, rows);
  if (format === 'csv') return { fileName: `${name}.csv`, mime: CSV_MIME, body: buildCsv(columns, rows) };
  const body = await buildWorkbook([
    sheet<Row>({
      name,
      rows,
      columns: columns.map((c) => ({ ...c, width: Math.max(10, c.header.length + 2) })),
    }),
  ]);
  return { fileName: `${name}.xlsx`, mime: XLSX_MIME, body };
}

export interface ExportActor {
  ip: string | null;
}

/** The export in its format (JSON data or a file), audited as `reports.export`. */
export async function exportResults(
  caller: ReportCaller,
  actor: ExportActor,
  target: 'attesta' | 'mrko',
  query: ReportExportQuery,
): Promise<{ data: ReportAttesta | ReportMrko } | { file: ReportFile }> {
  const data = target === 'attesta' ? await attestaData(caller, query) : await mrkoData(caller, query);
  await audit(caller.db, {
    userId: caller.auth.userId,
    action: 'reports.export',
    entity: 'report',
    entityId: target,
    details: { format: query.format, filters: reportFilters(query), rows: data.items.length },
    ip: actor.ip,
  });
  if (query.format === 'json') return { data };
  const file =
    data.format === 'attesta.results'
      ? await flatFile(`attesta-results`, query.format, ATTESTA_FIELDS, data.items)
      : await flatFile(`mrko-marks`, query.format, MRKO_FIELDS, data.items);
  return { file };
}
