import { z } from 'zod';
import { idParamSchema } from './user.js';

/*
 * Scanned answer sheets (issue 25, item 2; docs/paper-forms.md): POST /api/scans takes files of
 * scanned pages and answers 202 with a batch id; GET /api/scans/{id} tells how the batch stands and
 * what was read off each page.
 */

export const SCAN_BATCH_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const SCAN_PAGE_STATUSES = ['recognized', 'needs_review', 'unidentified', 'duplicate'] as const;

export const scanQueuedSchema = z
  .object({ scanBatchId: z.number().int().positive() })
  .meta({ id: 'ScanQueued' })
  .describe('A batch of scans taken: poll GET /api/scans/{scanBatchId}');
export type ScanQueued = z.infer<typeof scanQueuedSchema>;

export const scanAnswerSchema = z
  .object({
    variantTaskId: z.number().int().positive(),
    value: z
      .array(z.string())
      .describe(
        'The layout values of the marked bubbles of the task (docs/paper-forms.md), in layout order; [] none',
      ),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .describe(
        'How sure the reading is: the least of its bubbles; 0 for a double mark where one is allowed',
      ),
  })
  .describe('What was read of one task on the page');

export const scanPageSchema = z.object({
  file: z.string().describe('the file name as uploaded'),
  page: z.number().int().positive().describe('page of the file, from 1'),
  status: z
    .enum(SCAN_PAGE_STATUSES)
    .describe(
      'recognized: every mark clear; needs_review: a doubtful mark, a double mark, a sheet printed with another ' +
        'layout or without findable corner marks; unidentified: no readable page code, or one of a form out of ' +
        'reach; duplicate: the uploader had this page of the same file read before',
    ),
  registrationCode: z.string().nullable(),
  formPage: z.number().int().positive().nullable().describe('page of the answer form its code names'),
  answers: z.array(scanAnswerSchema),
});

export const scanBatchSchema = z
  .object({
    status: z.enum(SCAN_BATCH_STATUSES),
    pages: z.array(scanPageSchema).describe('pages read so far, file by file, page by page'),
  })
  .meta({ id: 'ScanBatch' });
export type ScanBatch = z.infer<typeof scanBatchSchema>;

export const SCAN_CALL_SCHEMAS = {
  // A multipart form of files (read as it streams in, no JSON body); it answers 202 scanQueuedSchema,
  // which the route declares (rows hold 200 answers only).
  'POST /api/scans': {},
  'GET /api/scans/{id}': { params: z.object({ id: idParamSchema }), response: scanBatchSchema },
} as const;
