import { buffer } from 'node:stream/consumers';
import { isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedIn, type Session, type TestApp } from '../../../test/helpers.js';
import { s3ServerOrSkip, type S3TestServer } from '../../../test/s3-server.js';
import { files } from '../../db/schema/index.js';
import type { S3BlobStore } from '../../lib/file-storage/index.js';
import { fileStorageOf } from '../../lib/file-storage/index.js';
import { multipartBody, PNG } from './test-support.js';

/*
 * Files on FILES_STORAGE=s3 through the API, against a real S3-protocol server (s3rver, started
 * here): an upload goes up in parts; a download streams whole or by Range; deleting frees the
 * quota; and when the S3 server dies mid-upload (killed between two parts), the upload fails
 * with 503 service_unavailable, leaves no row, and succeeds when tried again after a restart.
 */

const MB = 1024 * 1024;
const s3: S3TestServer | null = await s3ServerOrSkip();

let t: TestApp;
let guest: { id: number; session: Session };
beforeAll(async () => {
  if (!s3) return;
  t = await createTestApp({ FILES_STORAGE: 's3', UPLOAD_QUOTA_MB: '25', ...s3.env() });
  const g = await signedIn(t.app, ['guest']);
  guest = { id: g.user.id, session: g.session };
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

const big = (size: number) => {
  const data = Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]);
  for (let i = PNG.length; i < size; i++) data[i] = (i * 31 + (i >> 16)) & 0xff;
  return data;
};
const upload = (data: Buffer) => {
  const body = multipartBody([{ name: 'file', filename: 'scan.png', type: 'image/png', data }]);
  return t.app.inject({
    method: 'POST',
    url: `/api/files/upload/${guest.id}?ownerType=general`,
    headers: { ...guest.session.headers, 'content-type': body.contentType },
    payload: body.payload,
  });
};
const get = (id: number, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/api/files/${id}`, headers: { ...guest.session.headers, ...headers } });
const rowCount = async () =>
  (await t.database.query<{ n: number }>('select count(*)::int as n from files'))[0]!.n;

/** Every row that names an object in the bucket finds it whole. */
async function everyObjectThere() {
  const storage = fileStorageOf(t.app.ctx.db);
  const rows = await t.app.ctx.db
    .select({ id: files.id, storageKey: files.storageKey, size: files.size })
    .from(files)
    .where(isNotNull(files.storageKey));
  for (const row of rows) {
    const data = await buffer(storage.blobStore(row.storageKey!).get(row.storageKey!));
    expect(data.length, `file ${row.id}`).toBe(row.size);
  }
  return rows.length;
}

describe.skipIf(!s3)('files on S3 (FILES_STORAGE=s3)', () => {
  it('an upload goes to the bucket; a download streams it whole, or one range of it (206)', async () => {
    expect(fileStorageOf(t.app.ctx.db).driver).toBe('s3');
    const data = big(10 * MB);
    const res = await upload(data);
    expect(res.statusCode, res.body).toBe(200);
    const [{ id }] = res.json();
    const [row] = await t.database.query<{ storage_key: string; has_data: boolean }>(
      'select storage_key, data is not null as has_data from files where id = $1',
      [id],
    );
    expect(row).toEqual({ storage_key: expect.stringMatching(/^s3:/), has_data: false });

    const whole = await get(id);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(data)).toBe(true);

    const start = 8 * MB - 3; // across the first part's end
    const part = await get(id, { range: `bytes=${start}-${start + 99}` });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes ${start}-${start + 99}/${data.length}`);
    expect(part.headers['content-length']).toBe('100');
    expect(part.rawPayload.equals(data.subarray(start, start + 100))).toBe(true);
    const tail = await get(id, { range: 'bytes=-10' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(data.subarray(data.length - 10))).toBe(true);
    // Unsatisfiable or several ranges: ignored, the whole file.
    for (const range of [`bytes=${data.length}-`, 'bytes=0-1,5-6', 'pages=1-2']) {
      const res = await get(id, { range });
      expect(res.statusCode, range).toBe(200);
      expect(res.rawPayload.length).toBe(data.length);
    }

    // The quota (25 MB) counts what is kept: 10 MB + 20 MB is refused; after the delete, the
    // next test's 20 MB fits.
    const tooMuch = await upload(big(20 * MB));
    expect(tooMuch.json()).toMatchObject({ status: 413, code: 'storage_quota_exceeded' });
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/files/delete/${id}`,
      headers: guest.session.headers,
    });
    expect(del.statusCode).toBe(200);
    expect((await get(id)).statusCode).toBe(404);
  }, 120_000);

  it('the S3 server dies mid-upload: 503, no row, nothing half-stored; after a restart the retry succeeds', async () => {
    const store = fileStorageOf(t.app.ctx.db).blobs as S3BlobStore;
    // Kill the server as the second part of the multipart upload is about to be sent: the first
    // part is in the bucket, the upload begun.
    let parts = 0;
    let killed: Promise<void> | null = null;
    store.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'UploadPartCommand' && ++parts === 2) killed ??= s3!.kill();
        if (killed) await killed;
        return next(args);
      },
      { step: 'initialize', name: 'killTheServerMidUpload' },
    );
    const rowsBefore = await rowCount();
    const data = big(20 * MB);
    try {
      const failed = await upload(data);
      expect(killed, 'the server was killed mid-upload').not.toBeNull();
      expect(failed.statusCode, failed.body).toBe(503);
      expect(failed.json()).toMatchObject({ status: 503, code: 'service_unavailable' });
      expect(await rowCount()).toBe(rowsBefore);
    } finally {
      store.client.middlewareStack.remove('killTheServerMidUpload');
    }

    await s3!.resume();
    expect(await everyObjectThere()).toBeGreaterThan(0);
    const retried = await upload(data);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await rowCount()).toBe(rowsBefore + 1);
    const back = await get(retried.json()[0].id);
    expect(back.rawPayload.equals(data)).toBe(true);
    await everyObjectThere();
  }, 180_000);
});
