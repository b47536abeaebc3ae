/** The calls of the files area (server/src/modules/files), each with its roles, meaning and schemas. */
import { z } from 'zod';
import { okSchema } from '../account.js';
import { fileInfoSchema, fileTextSchema, uploadQuerySchema, uploadUrlBodySchema } from '../kim.js';
import { idParamSchema } from '../user.js';
import type { CallTable } from '../call-schema.js';

export const FILES_CALLS = {
  'DELETE /api/files/delete/{id}': {
    roles: 'any',
    meaning: 'delete own uploaded file (staff: any in scope)',
    params: z.object({ id: idParamSchema }),
    response: okSchema,
  },
  'GET /api/files/byhtmltextid/{id}': {
    roles: 'any',
    meaning: 'files attached to an html text',
    params: z.object({ id: idParamSchema }),
    response: z.array(fileInfoSchema),
  },
  'GET /api/files/text/{id}': {
    roles: 'any',
    meaning: 'text content of a file',
    params: z.object({ id: idParamSchema }),
    response: fileTextSchema,
  },
  // Multipart: the files (and a form field `ownerType`) are read as they stream in by the upload
  // helper (readUploadForm in server/src/modules/files), never by a body schema; the row has none.
  'POST /api/files/upload/{id}': {
    roles: 'any',
    meaning: 'upload to owner id; query splitPdf splits a scanned PDF into one file per page',
    consumes: ['multipart/form-data'],
    params: z.object({ id: idParamSchema }),
    query: uploadQuerySchema,
    response: z.array(fileInfoSchema),
  },
  'POST /api/files/upload_url': {
    roles: ['admin'],
    meaning: 'fetch a file from an allow-listed URL',
    body: uploadUrlBodySchema,
    response: z.array(fileInfoSchema),
  },
} as const satisfies CallTable;
