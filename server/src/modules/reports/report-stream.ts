import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { safeText, type CellValue, type SheetColumn } from '../../lib/xlsx.js';
import { csvField } from './report-files.js';

/*
 * Streamed report files (docs/reports.md, "Large reports"). Rows arrive a page at a time and leave
 * at once: the xlsx through exceljs's streaming WorkbookWriter (each row is written into the zip as
 * it comes and never kept), the CSV line by line. The writers run in the server process beside
 * the exam, so they work in slices: after SLICE_MS of writing the event loop gets a turn, and the
 * xlsx also waits while the zip's compressor is behind (exceljs hands its XML on without
 * backpressure: unchecked, a 300,000-row sheet piles up as 170 MB of XML before it is compressed).
 *
 * Styles are off (useStyles: false): exceljs computes a style for every cell otherwise, which was
 * half the writing time of a 300,000 × 30 sheet; the header is marked by the frozen pane and the
 * filter instead of bold type. Strings are inline (useSharedStrings: false), so no table of every
 * string is kept. Every text cell goes through safeText, as in lib/xlsx.
 */

/** Longest stretch of writing before the event loop gets a turn. */
export const SLICE_MS = 8;
/** Uncompressed XML allowed to wait for the compressor. */
const MAX_BUFFERED = 1 << 20;
/** How long a sheet may wait for the zip to reach it (the entries before it still compressing). */
const ENTRY_WAIT_MS = 120_000;

/** Cuts work into slices: `due` once a slice has run SLICE_MS, `rest()` gives the event loop a turn. */
export class Slicer {
  private since = performance.now();
  constructor(private readonly sliceMs = SLICE_MS) {}

  get due(): boolean {
    return performance.now() - this.since >= this.sliceMs;
  }

  async rest(wait?: () => Promise<void>): Promise<void> {
    await (wait ? wait() : nextTurn());
    this.since = performance.now();
  }
}

function cell(value: CellValue): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return safeText(value);
  return value;
}

export interface StreamSheet<Row> {
  name: string;
  columns: SheetColumn<Row>[];
  /** Lines above the header (title, filters), each in its own merged row. */
  title?: string[];
}

/** Rows page by page (an async generator of pages, or plain arrays). */
export type Pages<Row> = AsyncIterable<Row[]> | Iterable<Row[]>;

/** Hears how many rows a page added, after they were written. */
export type OnRows = (rows: number) => void | Promise<void>;

/** What the writer needs of a streaming worksheet's zip entry (exceljs's StreamBuf piped into the zip). */
interface EntryStream {
  pipes?: {
    _writableState?: { length: number };
    writableLength?: number;
    once(event: 'drain', listener: () => void): unknown;
  }[];
}

/** An xlsx written sheet by sheet into `out` as the rows come (one sheet open at a time). */
export class XlsxStream {
  private readonly wb: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly names = new Set<string>();

  constructor(
    out: Writable,
    private readonly slicer = new Slicer(),
  ) {
    this.wb = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: false,
      useSharedStrings: false,
    });
    this.wb.creator = 'Attesta';
    this.wb.created = new Date();
  }

  /** A sheet name Excel accepts (31 characters, none of \ / ? * [ ] :), unique in the workbook. */
  private nameOf(name: string): string {
    const clean = name.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Лист';
    let unique = clean;
    for (let i = 2; this.names.has(unique.toLowerCase()); i++)
      unique = `${clean.slice(0, 31 - ` (${i})`.length)} (${i})`;
    this.names.add(unique.toLowerCase());
    return unique;
  }

  /** Writes one sheet whole: the title lines, the header, then every row of `pages`. Returns the rows. */
  async sheet<Row>(spec: StreamSheet<Row>, pages: Pages<Row>, onRows?: OnRows): Promise<number> {
    const title = spec.title ?? [];
    const headerRow = title.length + 1;
    const width = spec.columns.length;
    const ws = this.wb.addWorksheet(this.nameOf(spec.name), {
      views: [{ state: 'frozen', ySplit: headerRow }],
    });
    ws.columns = spec.columns.map((c) => ({
      width: c.width ?? Math.min(60, Math.max(10, c.header.length + 2)),
    }));
    for (const line of title) {
      const row = ws.addRow([safeText(line)]);
      if (width > 1) ws.mergeCells(row.number, 1, row.number, width);
      row.commit();
    }
    ws.addRow(spec.columns.map((c) => safeText(c.header))).commit();
    ws.autoFilter = { from: { row: headerRow, column: 1 }, to: { row: headerRow, column: width } };
    let written = 0;
    for await (const page of pages) {
      for (const row of page) {
        ws.addRow(spec.columns.map((c) => cell(c.value(row)))).commit();
        written++;
        if (this.slicer.due) await this.slicer.rest(() => this.drained(ws));
      }
      await onRows?.(page.length);
    }
    ws.commit();
    return written;
  }

  /** Waits until the zip takes this sheet's entry and its compressor has caught up. */
  private async drained(ws: ExcelJS.Worksheet): Promise<void> {
    const entry = (ws as unknown as { stream: EntryStream }).stream;
    const giveUp = performance.now() + ENTRY_WAIT_MS;
    for (;;) {
      const pipe = entry.pipes?.[0];
      if (!pipe) {
        if (performance.now() > giveUp) throw new Error('the xlsx zip never reached the sheet');
        await sleep(5);
        continue;
      }
      const buffered = pipe._writableState?.length ?? pipe.writableLength ?? 0;
      if (buffered <= MAX_BUFFERED) return void (await nextTurn());
      await Promise.race([new Promise<void>((resolve) => pipe.once('drain', resolve)), sleep(1000)]);
    }
  }

  /** Ends the workbook; resolves once `out` has every byte. */
  async finish(): Promise<void> {
    await this.wb.commit();
  }
}

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string | number | null | undefined;
}

/**
 * A CSV like report-files' buildCsv (UTF-8 with a BOM, `;`, CRLF, a header line, formula-safe
 * fields) written into `out` a page at a time, waiting when `out` is full. Ends `out`.
 */
export async function writeCsv<Row>(
  out: Writable,
  columns: CsvColumn<Row>[],
  pages: Pages<Row>,
  onRows?: OnRows,
  slicer = new Slicer(),
): Promise<number> {
  const put = async (text: string) => {
    if (!out.write(text, 'utf8')) await once(out, 'drain');
  };
  await put(`\uFEFF${columns.map((c) => csvField(c.header)).join(';')}\r\n`);
  let written = 0;
  for await (const page of pages) {
    let chunk = '';
    for (const row of page) {
      chunk += `${columns.map((c) => csvField(c.value(row))).join(';')}\r\n`;
      written++;
    }
    await put(chunk);
    await onRows?.(page.length);
    if (slicer.due) await slicer.rest();
  }
  out.end();
  await finished(out);
  return written;
}

/** A Writable keeping what it is given, for a small file answered at once. */
export function memorySink(): { stream: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}
