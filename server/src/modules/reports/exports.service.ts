import type { Writable } from 'node:stream';
import { and, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { ReportAttesta, ReportExportQuery, ReportMrko } from '@attesta/contract';
import { diagnostics, participantTests, results, schools } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import type { AuthContext } from '../../auth/types.js';
import { audit } from '../../lib/audit.js';
import { XLSX_MIME } from '../../lib/xlsx.js';
import { CSV_MIME, type ReportFile } from './report-files.js';
import { filterCondition, reportFilters } from './report-filters.js';
import { memorySink, writeCsv, XlsxStream, type OnRows } from './report-stream.js';
import { reportRowScope } from './reports.access.js';
import {
  countedCondition,
  externalIdsOf,
  reportRowPages,
  taskColumnsOf,
  taskScoresOf,
  type ReportRow,
} from './reports.repo.js';
import { isCounted } from './stats.js';
import type { ReportCaller } from './summary.service.js';

/*
 * Exports to other systems (admin only): results for the upstream Attesta instance and marks for
 * the MRKO journal, in the layouts docs/reports.md defines. Only published results leave: a counted
 * result (stats.ts isCounted) of a diagnostic whose results are published. Every export is audited.
 * The items are read a page at a time; the CSV and xlsx are streamed (report-stream.ts), their task
 * columns known beforehand from one aggregate, so a big export is a queued job (report-queue.ts)
 * that never holds its rows.
 */

type Task = ReportAttesta['items'][number]['tasks'][number];
type Attesta = ReportAttesta['items'][number];
type Mrko = ReportMrko['items'][number];
export type ExportTarget = 'attesta' | 'mrko';
type ExportFilters = Omit<ReportExportQuery, 'format'>;

/**
 * The rows an export takes, as SQL over the report rows: published counted results in the scope
 * and the filters; the journal's only students' results with a mark.
 */
export function exportWhere(caller: ReportCaller, target: ExportTarget, query: ExportFilters): SQL {
  return exportCondition(reportRowScope(caller.auth, ['admin']), target, query);
}

function exportCondition(scope: SQL | undefined, target: ExportTarget, query: ExportFilters): SQL {
  return and(
    scope,
    filterCondition(reportFilters(query)),
    eq(diagnostics.resultsPublished, true),
    countedCondition,
    target === 'mrko' ? and(isNotNull(participantTests.studentId), isNotNull(results.mark)) : undefined,
  )!;
}

/** Published counted results with their task scores and external ids, a page at a time. */
async function* publishedResults(
  caller: ReportCaller,
  where: SQL,
): AsyncGenerator<
  { row: ReportRow; tasks: Task[]; external: { provider: string; subject: string } | null }[]
> {
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

/** Pages of Attesta items. */
async function* attestaItems(caller: ReportCaller, where: SQL): AsyncGenerator<Attesta[]> {
  for await (const page of publishedResults(caller, where))
    yield page.map(({ row: r, tasks, external }) => ({
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
    }));
}

/** Pages of MRKO items: students' published results that have a mark (the journal takes marks). */
async function* mrkoItems(caller: ReportCaller, where: SQL): AsyncGenerator<Mrko[]> {
  for await (const page of publishedResults(caller, where))
    yield page.flatMap(({ row: r, tasks, external }) =>
      r.studentId === null || r.mark === null
        ? []
        : [
            {
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
            },
          ],
    );
}

export async function attestaData(caller: ReportCaller, query: ReportExportQuery): Promise<ReportAttesta> {
  const items: Attesta[] = [];
  for await (const page of attestaItems(caller, exportWhere(caller, 'attesta', query))) items.push(...page);
  return {
    format: 'attesta.results',
    version: 1,
    generatedAt: (caller.now ?? new Date()).toISOString(),
    items,
  };
}

export async function mrkoData(caller: ReportCaller, query: ReportExportQuery): Promise<ReportMrko> {
  const items: Mrko[] = [];
  for await (const page of mrkoItems(caller, exportWhere(caller, 'mrko', query))) items.push(...page);
  return { format: 'mrko.marks', version: 1, generatedAt: (caller.now ?? new Date()).toISOString(), items };
}

type Cell = string | number | null;
type FlatColumn<Row> = { header: string; value: (row: Row) => Cell };

/** The value at a task position (tasks are in position order, usually 1, 2, 3…). */
function taskAt(tasks: Task[], position: number): Task | undefined {
  const guess = tasks[position - 1];
  return guess?.position === position ? guess : tasks.find((t) => t.position === position);
}

/** The fields of a layout, then `task<N>` and `task<N>_max` for every task position that occurs. */
function flatColumns<Row extends { tasks: Task[] }>(
  fields: (keyof Row & string)[],
  positions: number[],
): FlatColumn<Row>[] {
  return [
    ...fields.map((f) => ({ header: f, value: (r: Row) => r[f] as Cell })),
    ...positions.flatMap((p) => [
      { header: `task${p}`, value: (r: Row) => taskAt(r.tasks, p)?.score ?? null },
      { header: `task${p}_max`, value: (r: Row) => taskAt(r.tasks, p)?.maxScore ?? null },
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

export const EXPORT_FILE_NAMES: Record<ExportTarget, string> = {
  attesta: 'attesta-results',
  mrko: 'mrko-marks',
};

/** Positions of the tasks of the exported results (every subject test together), in order. */
async function positionsOf(caller: ReportCaller, where: SQL): Promise<number[]> {
  const columns = await taskColumnsOf(caller.db, where);
  return [...new Set(columns.map((c) => c.position))].sort((a, b) => a - b);
}

/** Streams the export as CSV or xlsx into `out` (which it ends). Returns the items written. */
export async function writeExportFile(
  caller: ReportCaller,
  target: ExportTarget,
  query: ReportExportQuery & { format: 'csv' | 'xlsx' },
  out: Writable,
  onRows?: OnRows,
): Promise<number> {
  return writeExportWhere(caller, target, exportWhere(caller, target, query), query.format, out, onRows);
}

async function writeExportWhere(
  caller: ReportCaller,
  target: ExportTarget,
  where: SQL,
  format: 'csv' | 'xlsx',
  out: Writable,
  onRows?: OnRows,
): Promise<number> {
  const positions = await positionsOf(caller, where);
  const write = async <Row extends { tasks: Task[] }>(
    fields: (keyof Row & string)[],
    pages: AsyncIterable<Row[]>,
  ): Promise<number> => {
    const columns = flatColumns<Row>(fields, positions);
    if (format === 'csv') return writeCsv(out, columns, pages, onRows);
    const xlsx = new XlsxStream(out);
    const n = await xlsx.sheet(
      {
        name: EXPORT_FILE_NAMES[target],
        columns: columns.map((c) => ({ ...c, width: Math.max(10, c.header.length + 2) })),
      },
      pages,
      onRows,
    );
    await xlsx.finish();
    return n;
  };
  return target === 'attesta'
    ? write(ATTESTA_FIELDS, attestaItems(caller, where))
    : write(MRKO_FIELDS, mrkoItems(caller, where));
}

export interface ExportActor {
  ip: string | null;
}

/** Records an export that left (`reports.export`: format, filters, rows; the queue item if queued). */
export async function auditExport(
  caller: ReportCaller,
  actor: ExportActor,
  target: ExportTarget,
  query: ReportExportQuery,
  rows: number,
  queueItemId?: number,
): Promise<void> {
  await audit(caller.db, {
    userId: caller.auth.userId,
    action: 'reports.export',
    entity: 'report',
    entityId: target,
    details: {
      format: query.format,
      filters: reportFilters(query),
      rows,
      ...(queueItemId !== undefined ? { queueItemId } : {}),
    },
    ip: actor.ip,
  });
}

/** The export in its format (JSON data or a small file built at once), audited as `reports.export`. */
export async function exportResults(
  caller: ReportCaller,
  actor: ExportActor,
  target: ExportTarget,
  query: ReportExportQuery,
): Promise<{ data: ReportAttesta | ReportMrko } | { file: ReportFile }> {
  if (query.format === 'json') {
    const data = target === 'attesta' ? await attestaData(caller, query) : await mrkoData(caller, query);
    await auditExport(caller, actor, target, query, data.items.length);
    return { data };
  }
  const sink = memorySink();
  const rows = await writeExportFile(caller, target, { ...query, format: query.format }, sink.stream);
  await auditExport(caller, actor, target, query, rows);
  const name = EXPORT_FILE_NAMES[target];
  return query.format === 'csv'
    ? { file: { fileName: `${name}.csv`, mime: CSV_MIME, body: sink.bytes() } }
    : { file: { fileName: `${name}.xlsx`, mime: XLSX_MIME, body: sink.bytes() } };
}

/** What a machine client (an integration API key) may read: every ОО, or one. */
export interface MachineExportScope {
  db: Db;
  auth: AuthContext;
  /** Results of this ОО's schools only; null: every ОО. */
  ooId: number | null;
  now?: Date;
}

type MachineFilters = Pick<ExportFilters, 'startDate' | 'endDate' | 'diagnosticId'>;

function machineWhere(scope: MachineExportScope, target: ExportTarget, filters: MachineFilters): SQL {
  const oo =
    scope.ooId === null
      ? undefined
      : sql`${participantTests.schoolId} in (select ${schools.id} from ${schools} where ${schools.ooId} = ${scope.ooId})`;
  return exportCondition(oo, target, filters);
}

/**
 * One page of an export for a machine client (`/api/integration/*`): the same published counted
 * results and layouts as the admin's export (the key's scope, not a role, limits them: its ОО).
 * The total counts every page, so the reading goes through the whole period once.
 */
export async function machineExportPage<T extends ExportTarget>(
  scope: MachineExportScope,
  target: T,
  filters: MachineFilters,
  page: number,
  pageSize: number,
): Promise<{ total: number; items: T extends 'attesta' ? Attesta[] : Mrko[] }> {
  reportFilters(filters);
  const caller: ReportCaller = { db: scope.db, auth: scope.auth };
  const where = machineWhere(scope, target, filters);
  const pages: AsyncIterable<(Attesta | Mrko)[]> =
    target === 'attesta' ? attestaItems(caller, where) : mrkoItems(caller, where);
  const from = (page - 1) * pageSize;
  const items: (Attesta | Mrko)[] = [];
  let total = 0;
  for await (const chunk of pages) {
    for (const item of chunk) {
      if (total >= from && items.length < pageSize) items.push(item);
      total++;
    }
  }
  return { total, items: items as T extends 'attesta' ? Attesta[] : Mrko[] };
}

/** The whole export for a machine client as one CSV file (every page; `task<N>` columns). */
export async function machineExportCsv(
  scope: MachineExportScope,
  target: ExportTarget,
  filters: MachineFilters,
): Promise<{ file: ReportFile; rows: number }> {
  reportFilters(filters);
  const sink = memorySink();
  const rows = await writeExportWhere(
    { db: scope.db, auth: scope.auth },
    target,
    machineWhere(scope, target, filters),
    'csv',
    sink.stream,
  );
  return {
    file: { fileName: `${EXPORT_FILE_NAMES[target]}.csv`, mime: CSV_MIME, body: sink.bytes() },
    rows,
  };
}
