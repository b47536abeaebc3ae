import { randomBytes } from 'node:crypto';

/* Builds multipart/form-data bodies for app.inject in this module's tests. */

/** The smallest valid PNG signature + IHDR start: enough for type sniffing. */
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452', 'hex'),
  randomBytes(32),
]);
export const PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n', 'latin1');
export const EXE = Buffer.concat([Buffer.from('MZ'), randomBytes(64)]);

export interface FilePart {
  field: string;
  filename: string;
  type: string;
  data: Buffer;
}

/** A text field of a form. */
export interface FieldPart {
  field: string;
  value: string;
}

/** A multipart body with its parts in the given order. */
export function orderedMultipart(parts: (FieldPart | FilePart)[]) {
  const boundary = `----attesta${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('value' in p) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.field}"\r\n\r\n${p.value}\r\n`,
        ),
      );
      continue;
    }
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${p.field}"; filename="${p.filename}"\r\n` +
          `Content-Type: ${p.type}\r\n\r\n`,
      ),
      p.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Fields first, then files (the order the upload calls ask for). */
export function multipart(fields: Record<string, string>, parts: FilePart[]) {
  return orderedMultipart([...Object.entries(fields).map(([field, value]) => ({ field, value })), ...parts]);
}
