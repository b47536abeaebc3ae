import type { ScanBatch } from '@attesta/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { multipartBody } from '../../../test/multipart.js';

/* Shared by this module's tests: uploading scans and waiting for their batch. */

export interface ScanFile {
  filename: string;
  data: Buffer;
  /** The part's Content-Type (default: from the name). */
  type?: string;
}

/** POST /api/scans with the files as one multipart form (each under the field `file`). */
export function uploadScans(
  app: FastifyInstance,
  headers: Record<string, string>,
  files: ScanFile[],
): Promise<LightMyRequestResponse> {
  const body = multipartBody(files.map((f) => ({ name: 'file', ...f })));
  return app.inject({
    method: 'POST',
    url: '/api/scans',
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  });
}

/** Polls GET /api/scans/{id} until the batch is done or failed; throws after `withinMs`. */
export async function batchWhenRead(
  app: FastifyInstance,
  id: number,
  headers: Record<string, string>,
  withinMs = 90_000,
): Promise<ScanBatch> {
  const until = Date.now() + withinMs;
  for (;;) {
    const res = await app.inject({ method: 'GET', url: `/api/scans/${id}`, headers });
    if (res.statusCode !== 200) throw new Error(`GET /api/scans/${id}: ${res.statusCode} ${res.body}`);
    const batch = res.json<ScanBatch>();
    if (batch.status === 'done' || batch.status === 'failed') return batch;
    if (Date.now() > until) throw new Error(`batch ${id} still ${batch.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Uploads the files and waits until the batch is read (202 expected). */
export async function uploadAndWait(
  app: FastifyInstance,
  headers: Record<string, string>,
  files: ScanFile[],
  withinMs?: number,
): Promise<ScanBatch> {
  const res = await uploadScans(app, headers, files);
  if (res.statusCode !== 202) throw new Error(`POST /api/scans: ${res.statusCode} ${res.body}`);
  return batchWhenRead(app, res.json<{ scanBatchId: number }>().scanBatchId, headers, withinMs);
}
