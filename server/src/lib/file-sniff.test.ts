import { describe, expect, it } from 'vitest';
import { sniffFile } from './file-sniff.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n', 'latin1');
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64, 0x90)]);
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const zipOf = (...entries: string[]) =>
  Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(26), Buffer.from(entries.join(''))]);

describe('sniffFile', () => {
  it.each([
    [PNG, 'a.png', 'image/png'],
    [Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]), 'a.jpg', 'image/jpeg'],
    [PDF, 'a.pdf', 'application/pdf'],
    [Buffer.from('GIF89a....'), 'a.gif', 'image/gif'],
    [Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '), 'a.webp', 'image/webp'],
    [Buffer.from('\u0000\u0000\u0000\u0018ftypheic'), 'a.heic', 'image/heic'],
    [Buffer.from('\u0000\u0000\u0000\u0018ftypmif1'), 'IMG_0001.HEIF', 'image/heic'],
    [zipOf('[Content_Types].xml', 'word/document.xml'), 'essay.docx', DOCX_MIME],
    // A zip that only claims to be a document by its name stays a zip.
    [zipOf('rest'), 'a.docx', 'application/zip'],
    [Buffer.from('a,b\n1,2\n'), 'table.csv', 'text/csv'],
    [Buffer.from('a\u0000b'), 'a.txt', null],
    [EXE, 'virus.png', null],
    [Buffer.from('\u0000\u0000\u0000\u0018ftypisom'), 'clip.mp4', null],
    [Buffer.alloc(0), 'empty.png', null],
  ])('%#: %s', (data, name, mime) => expect(sniffFile(data, name)?.mime ?? null).toBe(mime));
});
