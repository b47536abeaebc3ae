import yauzl from 'yauzl';

/*
 * An uploaded spreadsheet checked before a spreadsheet library opens it (issue 23 item 8).
 *
 * An .xlsx is a zip, and exceljs (through JSZip) inflates every part of it in memory, trusting the
 * sizes its headers claim: a 1 MB file whose headers lie inflated to 1 GB. So every part is first
 * inflated here, streaming and discarding, with a running count: the scan stops as soon as the
 * inflated bytes pass the bound, whatever the headers say (yauzl's validateEntrySizes also stops an
 * entry at the first chunk beyond its own claim). While a worksheet inflates its rows are counted,
 * so a sheet of more rows than allowed is refused before any of it is parsed. Memory stays at a
 * chunk or two; what exceljs later inflates is then known to be within the bound.
 */

export interface XlsxLimits {
  /** Most inflated bytes of all the parts together. */
  maxInflatedBytes: number;
  /** Most rows (`<row>` elements) of all the worksheets together. */
  maxRows: number;
  /** Most parts (zip entries). */
  maxEntries: number;
}

/** The rows a spreadsheet upload may have at most, whatever it is for (issue 23). */
export const MAX_SPREADSHEET_ROWS = 50_000;

export const XLSX_LIMITS: XlsxLimits = {
  maxInflatedBytes: 100 * 1024 * 1024,
  maxRows: MAX_SPREADSHEET_ROWS,
  maxEntries: 10_000,
};

/** Why a spreadsheet is refused: unreadable (not a zip, damaged), too large inflated, too many rows. */
export type XlsxRefusalReason = 'unreadable' | 'too_large' | 'too_many_rows';

export class XlsxRefusal extends Error {
  constructor(
    readonly reason: XlsxRefusalReason,
    message: string,
  ) {
    super(message);
  }
}

/** A zip (an xlsx), by its local file header. */
export const isZip = (data: Buffer) => data.length >= 4 && data.readUInt32LE(0) === 0x04034b50;

const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/i;
/** A row element's start (`<row ` / `<row>` / `<x:row `), not `<rowBreaks>` and the like. */
const ROW_TAG = /<(?:[A-Za-z_][\w.-]*:)?row[\s>/]/g;
/** Enough of a chunk's end kept to find a row tag cut in two by a chunk boundary. */
const CARRY = 64;

/**
 * Inflates every part of an xlsx with running limits; resolves when it is within them, rejects
 * with an XlsxRefusal otherwise. Call it before handing the bytes to exceljs.
 */
export async function assertSafeXlsx(data: Buffer, limits: XlsxLimits = XLSX_LIMITS): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(data, { lazyEntries: true, validateEntrySizes: true });
  } catch {
    throw new XlsxRefusal('unreadable', 'The workbook is not a readable zip');
  }
  const tooLarge = () =>
    new XlsxRefusal(
      'too_large',
      `The workbook inflates to more than ${Math.floor(limits.maxInflatedBytes / 1024 / 1024)} MB`,
    );
  const tooManyRows = () =>
    new XlsxRefusal('too_many_rows', `The workbook has more than ${limits.maxRows} rows`);
  try {
    if (zip.entryCount > limits.maxEntries) throw tooLarge();
    let inflated = 0;
    let rows = 0;
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/')) continue;
      // What the header claims is refused at once; what it really inflates to is counted below.
      if (inflated + entry.uncompressedSize > limits.maxInflatedBytes) throw tooLarge();
      const isSheet = WORKSHEET.test(entry.fileName);
      const stream = await zip.openReadStreamPromise(entry);
      let carry = '';
      try {
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          inflated += chunk.length;
          if (inflated > limits.maxInflatedBytes) throw tooLarge();
          if (!isSheet) continue;
          // latin1 keeps one character per byte: the tags are ASCII, the rest is never decoded.
          const text = carry + chunk.toString('latin1');
          let last = 0;
          ROW_TAG.lastIndex = 0;
          for (let m = ROW_TAG.exec(text); m; m = ROW_TAG.exec(text)) {
            rows++;
            last = m.index + m[0].length;
          }
          if (rows > limits.maxRows) throw tooManyRows();
          carry = text.slice(Math.max(last, text.length - CARRY));
        }
      } finally {
        stream.destroy();
      }
    }
  } catch (error) {
    if (error instanceof XlsxRefusal) throw error;
    const message = error instanceof Error ? error.message : '';
    if (/too many bytes/i.test(message)) throw tooLarge();
    throw new XlsxRefusal('unreadable', 'The workbook cannot be read');
  } finally {
    zip.close();
  }
}
