/*
 * What a file really is, from its first bytes. Uploads are stored under the sniffed type, never the
 * type the browser claims, and only the types below are accepted: an .exe renamed .png is refused.
 * Formats without magic bytes of their own (office zips, OLE documents, plain text) are told apart
 * by the extension only once the container format has been confirmed.
 */

export interface Sniffed {
  mime: string;
  /** Canonical extension, without the dot. */
  ext: string;
}

const startsWith = (data: Buffer, bytes: number[], offset = 0) =>
  data.length >= offset + bytes.length && bytes.every((b, i) => data[offset + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

const extOf = (name: string) => /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1]?.toLowerCase() ?? '';

const OOXML: Record<string, { marker: string; mime: string }> = {
  docx: { marker: 'word/', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { marker: 'xl/', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  pptx: { marker: 'ppt/', mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
};
const ODF = ['text', 'spreadsheet', 'presentation'] as const;
const ODF_EXT: Record<(typeof ODF)[number], string> = {
  text: 'odt',
  spreadsheet: 'ods',
  presentation: 'odp',
};
const HEIC_BRANDS = ['heic', 'heix', 'mif1', 'msf1', 'hevc'];
const OLE: Record<string, string> = {
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
};

/** A zip: an office document when its entries say so (entry names are stored uncompressed), else a plain zip. */
function sniffZip(data: Buffer, ext: string): Sniffed {
  // ODF keeps an uncompressed `mimetype` entry first, right after its 30-byte local header.
  const odf = data.subarray(30, 100).toString('latin1');
  for (const kind of ODF) {
    if (odf.startsWith(`mimetypeapplication/vnd.oasis.opendocument.${kind}`))
      return { mime: `application/vnd.oasis.opendocument.${kind}`, ext: ODF_EXT[kind] };
  }
  const ooxml = OOXML[ext];
  if (ooxml && data.includes('[Content_Types].xml') && data.includes(ooxml.marker))
    return { mime: ooxml.mime, ext };
  return { mime: 'application/zip', ext: 'zip' };
}

/** Plain text: valid UTF-8 without control characters other than tab and line breaks. */
function isPlainText(data: Buffer): boolean {
  if (data.length === 0) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return false;
  }
  // Control characters are exactly what binary data disguised as text contains.
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text);
}

export function sniffFile(data: Buffer, name: string): Sniffed | null {
  const ext = extOf(name);
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { mime: 'image/png', ext: 'png' };
  if (startsWith(data, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' };
  if (startsWith(data, ascii('GIF87a')) || startsWith(data, ascii('GIF89a')))
    return { mime: 'image/gif', ext: 'gif' };
  if (startsWith(data, ascii('RIFF')) && startsWith(data, ascii('WEBP'), 8))
    return { mime: 'image/webp', ext: 'webp' };
  // Phone photos: an ISO media `ftyp` box whose brand is one of HEIF's.
  if (startsWith(data, ascii('ftyp'), 4) && HEIC_BRANDS.some((brand) => startsWith(data, ascii(brand), 8)))
    return { mime: 'image/heic', ext: 'heic' };
  if (startsWith(data, ascii('%PDF-'))) return { mime: 'application/pdf', ext: 'pdf' };
  if (startsWith(data, ascii('{\\rtf'))) return { mime: 'application/rtf', ext: 'rtf' };
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04]) || startsWith(data, [0x50, 0x4b, 0x05, 0x06]))
    return sniffZip(data, ext);
  if (startsWith(data, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    const mime = OLE[ext];
    return mime ? { mime, ext } : null;
  }
  if ((ext === 'txt' || ext === 'csv') && isPlainText(data))
    return { mime: ext === 'csv' ? 'text/csv' : 'text/plain', ext };
  return null;
}

const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A file name safe to store and to send back: no folders, no control characters, bounded length. */
export function cleanFileName(name: string | undefined, fallback = 'file'): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // Control characters would break headers and logs; the rest are illegal in Windows names.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f"<>|:*?]/g, '')
    // Bidirectional controls make `gpj.exe` display as `exe.jpg`: never part of a name.
    .replace(BIDI_CONTROLS, '')
    .trim()
    .replace(/^\.+/, '');
  if (!cleaned) return fallback;
  if (cleaned.length <= 200) return cleaned;
  const ext = extOf(cleaned);
  return ext ? `${cleaned.slice(0, 190)}.${ext}` : cleaned.slice(0, 200);
}

export const extensionOf = extOf;

/**
 * The name a file is stored and downloaded under: the user's name, cleaned, with the extension of
 * what the file really is (a PNG sent as `x.exe` is `x.png`; an HTML polyglot sent as `a.html`
 * that sniffs as a PNG is `a.png`, so a download never opens as a page).
 */
export function storedFileName(name: string | undefined, sniffed: Sniffed): string {
  const cleaned = cleanFileName(name);
  const ext = extOf(cleaned);
  const stem = ext ? cleaned.slice(0, -(ext.length + 1)) : cleaned;
  return `${stem || 'file'}.${sniffed.ext}`;
}

/** `base` with the extension of `original`: a file's neutral name where its own may identify someone. */
export function neutralName(base: string, original: string): string {
  const ext = extOf(original);
  return ext ? `${base}.${ext}` : base;
}

/**
 * `Content-Disposition: attachment` with an ASCII fallback and the real name in RFC 5987
 * `filename*`, so Cyrillic names survive and quotes or line breaks cannot break the header.
 */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'file';
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
