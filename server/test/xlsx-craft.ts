import { once } from 'node:events';
import { createDeflateRaw, crc32, deflateRawSync } from 'node:zlib';

/* Hand-built spreadsheets for the tests of uploads: a zip whose headers lie, a sheet of N rows. */

export interface CraftedEntry {
  name: string;
  /** The inflated bytes (deflated here), or… */
  data?: Buffer;
  /** …the deflated bytes as they are, with the size and CRC of what they inflate to. */
  deflated?: { bytes: Buffer; size: number; crc: number };
  /** The inflated size the headers claim (default: the real one). */
  declaredSize?: number;
}

/** A zip of deflated entries; the headers claim `declaredSize` where given. */
export function craftZip(entries: CraftedEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = e.data ?? Buffer.alloc(0);
    const body = e.deflated?.bytes ?? deflateRawSync(data);
    const crc = e.deflated?.crc ?? crc32(data);
    const size = e.declaredSize ?? e.deflated?.size ?? data.length;
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** `bytes` zero bytes deflated, produced a megabyte at a time (the test never holds them). */
export async function deflatedZeros(bytes: number) {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const mb = Buffer.alloc(1024 * 1024);
  let crc = 0;
  for (let left = bytes; left > 0; left -= mb.length) {
    const chunk = left >= mb.length ? mb : mb.subarray(0, left);
    crc = crc32(chunk, crc);
    if (!deflate.write(chunk)) await once(deflate, 'drain');
  }
  deflate.end();
  await once(deflate, 'end');
  return { bytes: Buffer.concat(out), size: bytes, crc };
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '</Types>';
const ROOT_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
  '</Relationships>';
const WORKBOOK =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
  '<sheets><sheet name="Лист1" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WORKBOOK_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
  '</Relationships>';

/** An .xlsx of one sheet whose XML is `sheet` (given as entry fields: data, or deflated + claims). */
export function craftXlsx(sheet: Omit<CraftedEntry, 'name'>): Buffer {
  return craftZip([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(ROOT_RELS) },
    { name: 'xl/workbook.xml', data: Buffer.from(WORKBOOK) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(WORKBOOK_RELS) },
    { name: 'xl/worksheets/sheet1.xml', ...sheet },
  ]);
}

const cell = (ref: string, text: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</t></is></c>`;

/** Sheet XML of `header` then `rows` rows made by `row(n)` (n from 1), inline strings. */
export function sheetXml(header: string[], rows: number, row: (n: number) => string[]): Buffer {
  const cols = (cells: string[], r: number) =>
    cells.map((text, i) => cell(`${String.fromCharCode(65 + i)}${r}`, text)).join('');
  const parts = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
    `<row r="1">${cols(header, 1)}</row>`,
  ];
  for (let n = 1; n <= rows; n++) parts.push(`<row r="${n + 1}">${cols(row(n), n + 1)}</row>`);
  parts.push('</sheetData></worksheet>');
  return Buffer.from(parts.join(''));
}
