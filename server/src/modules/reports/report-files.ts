import { STATS_HEADERS_RU as S } from '@attesta/contract';
import { eq } from 'drizzle-orm';
import type { ReportFilters, ReportStats } from '@attesta/contract';
import type { Db } from '../../db/client.js';
import { classes, diagnostics, schools, subjectTests } from '../../db/schema/index.js';
import { displayDate, SCHOOL_UTC_OFFSET_MS } from '../../lib/calendar.js';
import {
  createPdf,
  decoratePages,
  heading,
  MM,
  pageNumberFooter,
  paragraph,
  pdfToBuffer,
  runningHeader,
  table,
  type Column,
  type PdfDoc,
} from '../../lib/pdf/index.js';
import { safeText, type SheetColumn } from '../../lib/xlsx.js';

/*
 * What the report downloads share: the file type, a caption of the filters, the columns of the
 * figures (xlsx and PDF) and a formula-safe CSV writer. Every spreadsheet goes through lib/xlsx and
 * every CSV cell through safeText: no cell starts a formula (docs/design.md §6).
 */

export interface ReportFile {
  fileName: string;
  mime: string;
  body: Buffer;
}

export const PDF_MIME = 'application/pdf';
export const CSV_MIME = 'text/csv; charset=utf-8';

/** Integrity and proctoring event kinds in words. */
export const EVENT_WORDS: Record<string, string> = {
  blur: 'уход с окна теста',
  focus: 'возврат в окно теста',
  fullscreen_exit: 'выход из полноэкранного режима',
  fullscreen_enter: 'полноэкранный режим',
  visibility_hidden: 'переключение вкладки',
  visibility_visible: 'возврат на вкладку',
  offline: 'потеря связи',
  online: 'связь восстановлена',
  proctoring_verdict: 'заключение прокторинга',
  work_deleted: 'работа удалена организатором',
  connection_lost: 'потеря связи с сервером',
  connection_restored: 'связь с сервером восстановлена',
  second_device: 'попытка входа с другого устройства',
};

/** "dd.mm.yyyy HH:MM" of an instant on the school clock (Moscow). */
export function schoolTime(at: Date | null, withDate = true): string {
  if (!at) return '';
  const iso = new Date(at.getTime() + SCHOOL_UTC_OFFSET_MS).toISOString();
  const time = iso.slice(11, 16);
  return withDate ? `${displayDate(iso.slice(0, 10))} ${time}` : time;
}

/** The filters in words, for the title lines of a file. */
export async function filterCaption(db: Db, f: ReportFilters): Promise<string[]> {
  const lines: string[] = [];
  const one = async <T>(rows: Promise<T[]>) => (await rows)[0];
  if (f.diagnosticId !== null) {
    const d = await one(
      db
        .select({ name: diagnostics.name, code: diagnostics.code })
        .from(diagnostics)
        .where(eq(diagnostics.id, f.diagnosticId)),
    );
    if (d) lines.push(`Диагностика: ${d.name} (${d.code})`);
  }
  if (f.subjectTestId !== null) {
    const t = await one(
      db.select({ name: subjectTests.name }).from(subjectTests).where(eq(subjectTests.id, f.subjectTestId)),
    );
    if (t) lines.push(`Тест: ${t.name}`);
  }
  if (f.schoolId !== null) {
    const s = await one(db.select({ name: schools.name }).from(schools).where(eq(schools.id, f.schoolId)));
    if (s) lines.push(`Школа: ${s.name}`);
  }
  if (f.classId !== null) {
    const c = await one(db.select({ name: classes.name }).from(classes).where(eq(classes.id, f.classId)));
    if (c) lines.push(`Класс: ${c.name}`);
  }
  if (f.startDate !== null || f.endDate !== null)
    lines.push(
      `Период: ${f.startDate ? displayDate(f.startDate) : '…'} – ${f.endDate ? displayDate(f.endDate) : '…'}`,
    );
  return lines;
}

/** Marks and levels that occur in any of the stats, in their order, for the columns. */
export function gradeKeys(all: ReportStats[]): { marks: string[]; levels: string[] } {
  const marks: string[] = [];
  const levels: string[] = [];
  for (const s of all) {
    for (const m of s.marks) if (!marks.includes(m.mark)) marks.push(m.mark);
    for (const l of s.levels) if (!levels.includes(l.level)) levels.push(l.level);
  }
  return { marks, levels };
}

const markCount = (s: ReportStats, mark: string) => s.marks.find((m) => m.mark === mark)?.count ?? 0;
const levelCount = (s: ReportStats, level: string) => s.levels.find((l) => l.level === level)?.count ?? 0;

/** Spreadsheet columns of the figures of `stats(row)`. */
export function statsColumns<Row>(
  stats: (row: Row) => ReportStats,
  keys: { marks: string[]; levels: string[] },
): SheetColumn<Row>[] {
  const n = (header: string, value: (s: ReportStats) => number | null, width = 11): SheetColumn<Row> => ({
    header,
    width,
    value: (row) => value(stats(row)),
  });
  return [
    n(S.registered, (s) => s.registered, 16),
    n(S.annulled, (s) => s.annulled, 13),
    n(S.tookPart, (s) => s.tookPart, 12),
    n(S.absent, (s) => s.absent, 13),
    n(S.pending, (s) => s.pending, 14),
    n(S.finished, (s) => s.finished),
    n(S.unfinished, (s) => s.unfinished, 12),
    n(S.scored, (s) => s.scored, 13),
    n(S.notScored, (s) => s.notScored, 14),
    n(S.meanScore, (s) => s.meanScore, 12),
    n(S.meanPercent, (s) => s.meanPercent, 14),
    ...keys.marks.map((m) => n(`Отметка «${m}»`, (s) => markCount(s, m), 12)),
    ...keys.levels.map((l) => n(`Уровень: ${l}`, (s) => levelCount(s, l), 16)),
  ];
}

/** PDF columns of the main figures (a page is narrower than a sheet). */
export const STATS_PDF_COLUMNS: Column[] = [
  { header: 'Зарег.', align: 'right', weight: 0.95 },
  { header: 'Участв.', align: 'right', weight: 0.95 },
  { header: 'Отсут.', align: 'right', weight: 0.95 },
  { header: 'Заверш.', align: 'right', weight: 0.95 },
  { header: 'Ср. балл', align: 'right', weight: 0.9 },
  { header: 'Ср. %', align: 'right', weight: 0.8 },
  { header: '«2»', align: 'right', weight: 0.5 },
  { header: '«3»', align: 'right', weight: 0.5 },
  { header: '«4»', align: 'right', weight: 0.5 },
  { header: '«5»', align: 'right', weight: 0.5 },
];

const num = (v: number | null) => (v === null ? '—' : String(v).replace('.', ','));

export function statsPdfCells(s: ReportStats): string[] {
  return [
    String(s.registered),
    String(s.tookPart),
    String(s.absent),
    String(s.finished),
    num(s.meanScore),
    num(s.meanPercent),
    ...['2', '3', '4', '5'].map((m) => String(markCount(s, m))),
  ];
}

/** A report PDF: title, caption lines, then what `body` draws; running header and page numbers. */
export async function reportPdf(
  title: string,
  caption: string[],
  body: (doc: PdfDoc) => void,
): Promise<Buffer> {
  const doc = createPdf({ title, margins: { left: 12 * MM, right: 12 * MM } });
  heading(doc, title);
  for (const line of caption) paragraph(doc, line, { size: 9.5, gap: 1 });
  paragraph(doc, `Сформировано: ${schoolTime(new Date())} (МСК)`, { size: 8.5, gap: 8 });
  body(doc);
  decoratePages(doc, (d, page) => {
    runningHeader(d, title);
    pageNumberFooter(d, page);
  });
  return pdfToBuffer(doc);
}

export { table as pdfTable, heading as pdfHeading, paragraph as pdfParagraph };

/**
 * One CSV field: formula-safe, quoted when it holds the separator, a quote or a line break. The
 * CSV files are written line by line with it (report-stream.ts writeCsv: UTF-8 with a BOM, `;`,
 * CRLF, a header line), as Russian spreadsheets open them.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = safeText(value);
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
