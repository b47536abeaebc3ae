import { and } from 'drizzle-orm';
import type {
  ReportCommon,
  ReportCons,
  ReportConsQuery,
  ReportFilters,
  ReportQuery,
  ReportStats,
} from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { Db } from '../../db/client.js';
import { buildWorkbook, dayColumn, sheet, XLSX_MIME } from '../../lib/xlsx.js';
import {
  filterCaption,
  gradeKeys,
  PDF_MIME,
  pdfHeading,
  pdfTable,
  reportPdf,
  STATS_PDF_COLUMNS,
  statsColumns,
  statsPdfCells,
  type ReportFile,
} from './report-files.js';
import { filterCondition, reportFilters } from './report-filters.js';
import { reportRowScope, STAFF_REPORT_ROLES } from './reports.access.js';
import { reportRowPages, type OnPage } from './reports.repo.js';
import { StatsAccumulator } from './stats.js';

/*
 * `common` (per subject test over the period) and `cons` (the same by school and class, with the
 * total of the caller's scope). Data first (`commonData`, `consData`: pages of rows folded into
 * running totals), files from the data.
 */

export interface ReportCaller {
  db: Db;
  auth: AuthContext;
  now?: Date;
  /** Hears the rows read, page by page (a queued report's progress). */
  onPage?: OnPage;
}

const byName = (a: string | null, b: string | null) => (a ?? '').localeCompare(b ?? '', 'ru');

// ------------------------------------------------------------------ common

export async function commonData(caller: ReportCaller, query: ReportQuery): Promise<ReportCommon> {
  const filters = reportFilters(query);
  const now = caller.now ?? new Date();
  const tests = new Map<number, { name: string; acc: StatsAccumulator }>();
  const where = and(reportRowScope(caller.auth, STAFF_REPORT_ROLES), filterCondition(filters));
  for await (const page of reportRowPages(caller.db, where, { onPage: caller.onPage }))
    for (const r of page) {
      let t = tests.get(r.subjectTestId);
      if (!t) tests.set(r.subjectTestId, (t = { name: r.subjectTestName, acc: new StatsAccumulator() }));
      t.acc.add(r, now);
    }
  const items = [...tests.entries()]
    .map(([subjectTestId, t]) => ({
      subjectTestId,
      subjectTestName: t.name,
      maxScore: t.acc.maxScore,
      firstDate: t.acc.firstDate,
      lastDate: t.acc.lastDate,
      stats: t.acc.result(),
    }))
    .sort((a, b) => byName(a.subjectTestName, b.subjectTestName) || a.subjectTestId - b.subjectTestId);
  return { generatedAt: now.toISOString(), filters, items };
}

export async function commonFile(caller: ReportCaller, query: ReportQuery): Promise<ReportFile> {
  const data = await commonData(caller, query);
  const caption = await filterCaption(caller.db, data.filters);
  const title = 'Общий отчёт по результатам';
  if (query.format === 'pdf') {
    const body = await reportPdf(title, caption, (doc) =>
      pdfTable(
        doc,
        [
          { header: 'Тест', weight: 3 },
          { header: 'Макс. балл', align: 'right', weight: 0.8 },
          ...STATS_PDF_COLUMNS,
        ],
        data.items.map((i) => [
          i.subjectTestName,
          i.maxScore === null ? '—' : String(i.maxScore),
          ...statsPdfCells(i.stats),
        ]),
        { size: 8 },
      ),
    );
    return { fileName: 'Общий отчёт.pdf', mime: PDF_MIME, body };
  }
  type Item = ReportCommon['items'][number];
  const body = await buildWorkbook([
    sheet<Item>({
      name: 'Общий отчёт',
      title: [title, ...caption],
      rows: data.items,
      columns: [
        { header: 'Тест', width: 36, value: (i) => i.subjectTestName },
        dayColumn('Первый день', (i) => i.firstDate),
        dayColumn('Последний день', (i) => i.lastDate, 14),
        { header: 'Макс. балл', width: 10, value: (i) => i.maxScore },
        ...statsColumns<Item>((i) => i.stats, gradeKeys(data.items.map((i) => i.stats))),
      ],
    }),
  ]);
  return { fileName: 'Общий отчёт.xlsx', mime: XLSX_MIME, body };
}

// ------------------------------------------------------------------ cons

interface ClassGroup {
  classId: number | null;
  className: string | null;
  acc: StatsAccumulator;
}
interface SchoolGroup {
  schoolId: number | null;
  schoolName: string | null;
  acc: StatsAccumulator;
  classes: Map<number | null, ClassGroup>;
}

/** Compares two groups by the sort field (nulls last whatever the direction), then by name. */
function comparator(sort: ReportConsQuery['sort'], dir: ReportConsQuery['dir']) {
  const sign = dir === 'desc' ? -1 : 1;
  return (a: { name: string | null; stats: ReportStats }, b: { name: string | null; stats: ReportStats }) => {
    if (sort !== 'name') {
      const x = a.stats[sort];
      const y = b.stats[sort];
      if (x !== y) {
        if (x === null) return 1;
        if (y === null) return -1;
        return sign * (x - y);
      }
      return byName(a.name, b.name);
    }
    return sign * byName(a.name, b.name);
  };
}

export async function consData(caller: ReportCaller, query: ReportConsQuery): Promise<ReportCons> {
  const filters: ReportFilters = reportFilters(query);
  const now = caller.now ?? new Date();
  const tests = new Map<
    number,
    { name: string; total: StatsAccumulator; schools: Map<number | null, SchoolGroup> }
  >();
  const where = and(reportRowScope(caller.auth, STAFF_REPORT_ROLES), filterCondition(filters));
  for await (const page of reportRowPages(caller.db, where, { onPage: caller.onPage }))
    for (const r of page) {
      let t = tests.get(r.subjectTestId);
      if (!t)
        tests.set(
          r.subjectTestId,
          (t = { name: r.subjectTestName, total: new StatsAccumulator(), schools: new Map() }),
        );
      let s = t.schools.get(r.schoolId);
      if (!s)
        t.schools.set(
          r.schoolId,
          (s = {
            schoolId: r.schoolId,
            schoolName: r.schoolName,
            acc: new StatsAccumulator(),
            classes: new Map(),
          }),
        );
      let c = s.classes.get(r.classId);
      if (!c)
        s.classes.set(
          r.classId,
          (c = { classId: r.classId, className: r.className, acc: new StatsAccumulator() }),
        );
      t.total.add(r, now);
      s.acc.add(r, now);
      c.acc.add(r, now);
    }
  const compare = comparator(query.sort, query.dir);
  const items = [...tests.entries()]
    .map(([subjectTestId, t]) => ({
      subjectTestId,
      subjectTestName: t.name,
      maxScore: t.total.maxScore,
      total: t.total.result(),
      schools: [...t.schools.values()]
        .map((s) => ({
          schoolId: s.schoolId,
          schoolName: s.schoolName,
          stats: s.acc.result(),
          classes: [...s.classes.values()]
            .map((c) => ({ classId: c.classId, className: c.className, stats: c.acc.result() }))
            .sort((a, b) =>
              compare({ name: a.className, stats: a.stats }, { name: b.className, stats: b.stats }),
            ),
        }))
        .sort((a, b) =>
          compare({ name: a.schoolName, stats: a.stats }, { name: b.schoolName, stats: b.stats }),
        ),
    }))
    .sort((a, b) => byName(a.subjectTestName, b.subjectTestName) || a.subjectTestId - b.subjectTestId);
  return { generatedAt: now.toISOString(), filters, sort: query.sort, dir: query.dir, items };
}

interface ConsLine {
  test: string;
  level: 'Итого' | 'Школа' | 'Класс';
  school: string;
  className: string;
  stats: ReportStats;
}

function consLinesOf(i: ReportCons['items'][number]): ConsLine[] {
  return [
    { test: i.subjectTestName, level: 'Итого' as const, school: '', className: '', stats: i.total },
    ...i.schools.flatMap((s) => [
      {
        test: i.subjectTestName,
        level: 'Школа' as const,
        school: s.schoolName ?? '—',
        className: '',
        stats: s.stats,
      },
      ...s.classes.map((c) => ({
        test: i.subjectTestName,
        level: 'Класс' as const,
        school: s.schoolName ?? '—',
        className: c.className ?? '—',
        stats: c.stats,
      })),
    ]),
  ];
}

export async function consFile(caller: ReportCaller, query: ReportConsQuery): Promise<ReportFile> {
  const data = await consData(caller, query);
  const caption = await filterCaption(caller.db, data.filters);
  const title = 'Сводный отчёт по школам и классам';
  const lines = data.items.flatMap(consLinesOf);
  if (query.format === 'pdf') {
    const body = await reportPdf(title, caption, (doc) => {
      for (const item of data.items) {
        pdfHeading(doc, item.subjectTestName, { size: 11 });
        pdfTable(
          doc,
          [{ header: 'Школа / класс', weight: 3 }, ...STATS_PDF_COLUMNS],
          consLinesOf(item).map((l) => [
            l.level === 'Итого' ? 'Итого' : l.level === 'Школа' ? l.school : `    ${l.className}`,
            ...statsPdfCells(l.stats),
          ]),
          { size: 8 },
        );
      }
    });
    return { fileName: 'Сводный отчёт.pdf', mime: PDF_MIME, body };
  }
  const body = await buildWorkbook([
    sheet<ConsLine>({
      name: 'Сводный отчёт',
      title: [title, ...caption],
      rows: lines,
      columns: [
        { header: 'Тест', width: 30, value: (l) => l.test },
        { header: 'Строка', width: 8, value: (l) => l.level },
        { header: 'Школа', width: 36, value: (l) => l.school },
        { header: 'Класс', width: 10, value: (l) => l.className },
        ...statsColumns<ConsLine>((l) => l.stats, gradeKeys(lines.map((l) => l.stats))),
      ],
    }),
  ]);
  return { fileName: 'Сводный отчёт.xlsx', mime: XLSX_MIME, body };
}
