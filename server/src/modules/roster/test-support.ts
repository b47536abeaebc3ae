import type { FastifyInstance } from 'fastify';

/** What the roster and staff import tests share: a multipart upload of a file. */

/** A multipart body: the `dryRun` field (when given) and then the file. */
function form(name: string, data: Buffer, dryRun?: boolean | string) {
  const boundary = '----attesta' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  if (dryRun !== undefined)
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="dryRun"\r\n\r\n${dryRun}\r\n`),
    );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface UploadOptions {
  dryRun?: boolean | string;
  headers?: Record<string, string>;
}

/** Posts a file to an import call as its form. */
export function uploadTo(
  app: FastifyInstance,
  url: string,
  defaultHeaders: Record<string, string>,
  name: string,
  data: Buffer | string,
  options: UploadOptions = {},
) {
  const body = form(name, Buffer.isBuffer(data) ? data : Buffer.from(data, 'utf8'), options.dryRun);
  return app.inject({
    method: 'POST',
    url,
    headers: { ...(options.headers ?? defaultHeaders), 'content-type': body.contentType },
    payload: body.payload,
  });
}
