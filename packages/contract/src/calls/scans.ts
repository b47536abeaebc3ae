/** The calls of the scans area (server/src/modules/scans), each with its roles, meaning and schemas. */
import { z } from 'zod';
import {
  scanBatchListQuerySchema,
  scanBatchListSchema,
  scanBatchSchema,
  scanQueuedSchema,
  scanReviewActionSchema,
  scanReviewItemSchema,
  scanReviewListSchema,
  scanReviewQuerySchema,
} from '../scans.js';
import { idParamSchema } from '../user.js';
import type { CallTable } from '../call-schema.js';

export const SCANS_CALLS = {
  // scanned answer sheets (issue 25, item 2; docs/paper-forms.md)
  // A multipart form of files (read as it streams in, no JSON body); it answers 202.
  'POST /api/scans': {
    roles: ['organizator', 'coordinator', 'admin'],
    meaning: 'upload scanned answer sheets (PDF, TIFF, JPEG, PNG): a batch read in the background',
    ours: true,
    consumes: ['multipart/form-data'],
    accepted: scanQueuedSchema,
  },
  'GET /api/scans': {
    roles: ['organizator', 'coordinator', 'admin'],
    meaning: "the caller's own scan batches, newest first, with their state and page counts",
    ours: true,
    query: scanBatchListQuerySchema,
    response: scanBatchListSchema,
  },
  'GET /api/scans/{id}': {
    roles: ['organizator', 'coordinator', 'admin'],
    meaning: "a scan batch's state and what was read off each page",
    ours: true,
    params: z.object({ id: idParamSchema }),
    response: scanBatchSchema,
  },
  // one screen for doubt (issue 25, item 3)
  'GET /api/scans/review': {
    roles: ['organizator', 'coordinator', 'admin'],
    meaning:
      'scan review items within reach (doubtful marks, text boxes to key, unread pages) and open counts per class',
    ours: true,
    query: scanReviewQuerySchema,
    response: scanReviewListSchema,
  },
  // A PNG: the task's area, the text box, or the whole page, cut from the straightened scan.
  'GET /api/scans/review/{id}/crop': {
    roles: ['organizator', 'coordinator', 'admin'],
    meaning: "a review item's crop of the scan (PNG)",
    ours: true,
    params: z.object({ id: idParamSchema }),
    raw: 'file',
  },
  // The uploaded file of a page whose pixels could not be decoded, as it was uploaded.
  'GET /api/scans/review/{id}/file': {
    roles: ['organizator', 'coordinator', 'admin'],
    meaning: 'the uploaded file of a review item whose page could not be decoded',
    ours: true,
    params: z.object({ id: idParamSchema }),
    raw: 'file',
  },
  'POST /api/scans/review/{id}': {
    roles: ['organizator', 'coordinator', 'admin'],
    meaning: 'resolve a review item: accept, set or key its answer, identify its page, or dismiss it',
    ours: true,
    params: z.object({ id: idParamSchema }),
    body: scanReviewActionSchema,
    response: scanReviewItemSchema,
  },
} as const satisfies CallTable;
