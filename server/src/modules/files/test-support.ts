import { PDFDocument } from 'pdf-lib';

/* Shared by the files and feedback tests: multipart bodies (test/multipart.ts) and small files of known types. */

export { multipartBody, type Part } from '../../../test/multipart.js';

/** The PNG signature and a header chunk: enough to be recognised as a PNG. */
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
]);

/** A Windows executable header (what an .exe renamed .png starts with). */
export const EXE = Buffer.concat([
  Buffer.from('MZ'),
  Buffer.alloc(126, 0x90),
  Buffer.from('This program cannot be run in DOS mode'),
]);

export async function pdfWithPages(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]).drawText(`Page ${i + 1}`, { x: 20, y: 100 });
  return Buffer.from(await doc.save());
}
