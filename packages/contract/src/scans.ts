import { z } from 'zod';
import { answerTypeSchema } from './content.js';

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

/*
 * One screen for doubt (issue 25, item 3): what reading scans could not settle waits as a review
 * item until a person resolves it. Nothing an item holds is saved as an answer before then.
 */
export const SCAN_REVIEW_KINDS = ['doubtful', 'key_text', 'unidentified', 'unreadable', 'replace'] as const;
export const scanReviewKindSchema = z
  .enum(SCAN_REVIEW_KINDS)
  .describe(
    'doubtful: a task read under the confidence threshold or with a double mark; key_text: a text box ' +
      'whose crop a person types in; unidentified: a page whose code could not be read (or names no form ' +
      'the uploader reaches); unreadable: a page identified but not read (another layout version, a ' +
      'corner mark missing); replace: a newer scan of a task whose answer an earlier scan already saved',
  );
export type ScanReviewKind = z.infer<typeof scanReviewKindSchema>;

export const scanReviewChoiceSchema = z.object({
  value: z
    .string()
    .describe('a layout value (docs/paper-forms.md): option id, `<column>:<digit>`, `<row>:<column>`…'),
  label: z.string().describe('what the sheet prints for it: «Б», «3», «А–2», «−», «,»…'),
});

const scanLegendEntrySchema = z.object({
  label: z.string().describe('what the sheet prints at the row or column: «А», «3»'),
  text: z.string().describe('what it stands for, as plain text ("" for an ordering position)'),
});

export const scanReviewLegendSchema = z
  .object({
    rows: z.array(scanLegendEntrySchema).describe('matching: the left items (letters); ordering: the items'),
    columns: z
      .array(scanLegendEntrySchema)
      .describe('matching: the right items (numbers); ordering: the positions 1…n'),
  })
  .describe("what a matching or ordering grid's rows and columns are, as the form lists them");

export const scanReviewItemSchema = z
  .object({
    id: z.number().int().positive(),
    kind: scanReviewKindSchema,
    status: z.enum(['open', 'resolved']),
    scanBatchId: z.number().int().positive(),
    file: z.string(),
    page: z.number().int().positive().describe('page of the file, from 1'),
    createdAt: z.string().describe('ISO 8601'),
    registrationCode: z.string().nullable(),
    formPage: z.number().int().positive().nullable(),
    participantName: z.string().nullable(),
    classId: z.number().int().positive().nullable(),
    className: z.string().nullable(),
    schoolName: z.string().nullable(),
    variantTaskId: z.number().int().positive().nullable(),
    taskNumber: z
      .number()
      .int()
      .positive()
      .nullable()
      .describe("the task's number on the form («Задание N»)"),
    answerType: answerTypeSchema.nullable(),
    choices: z
      .array(scanReviewChoiceSchema)
      .describe(
        'the bubbles of the task in layout order, for a person to choose from; [] for a text box or a page',
      ),
    digitColumns: z
      .number()
      .int()
      .positive()
      .nullable()
      .describe(
        'digit grid columns of a number or digit-sequence task (sign and comma bubbles besides); else null',
      ),
    recognized: z.array(z.string()).describe('the layout values read off the scan; [] none'),
    confidence: z.number().min(0).max(1).nullable(),
    doubleMark: z.boolean().describe('two marks where the task allows one'),
    savedValue: z
      .array(z.string())
      .nullable()
      .describe('replace: the layout values the earlier scan saved; else null'),
    resolution: z
      .enum(['accepted', 'set', 'keyed', 'identified', 'dismissed'])
      .nullable()
      .describe('how a resolved item was settled; null while open'),
    problem: z
      .string()
      .nullable()
      .describe(
        'why a page item was not read: no_code, unknown_form, layout_changed, marks_not_found; or its ' +
          'pixels could not be decoded (invalid_image, invalid_pdf, image_too_large: no crop, the file ' +
          'is kept instead); null for a task item',
      ),
    legend: scanReviewLegendSchema
      .nullable()
      .describe('matching and ordering: what the rows and columns of the grid are; else null'),
    crop: z
      .boolean()
      .describe(
        'whether a crop can be shown (GET …/crop): false when the page was not decoded or its image is deleted',
      ),
    sourceFile: z
      .boolean()
      .describe('whether the uploaded file of a page not decoded is kept for download (GET …/file)'),
  })
  .meta({ id: 'ScanReviewItem' });
export type ScanReviewItem = z.infer<typeof scanReviewItemSchema>;

export const scanReviewQuerySchema = z.strictObject({
  classId: z.coerce.number().int().positive().optional().describe('only the items of this class'),
  kind: scanReviewKindSchema.optional(),
  status: z.enum(['open', 'resolved']).default('open'),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type ScanReviewQuery = z.infer<typeof scanReviewQuerySchema>;

export const scanReviewListSchema = z
  .object({
    counts: z
      .array(
        z.object({
          classId: z
            .number()
            .int()
            .positive()
            .nullable()
            .describe('null: pages not tied to a class (unidentified)'),
          className: z.string().nullable(),
          schoolName: z.string().nullable(),
          open: z.number().int().min(0),
        }),
      )
      .describe("open items per class within the caller's reach, whatever the filter"),
    items: z.array(scanReviewItemSchema),
    total: z.number().int().min(0).describe('items matching the filter'),
  })
  .meta({ id: 'ScanReviewList' });
export type ScanReviewList = z.infer<typeof scanReviewListSchema>;

export const scanReviewActionSchema = z
  .discriminatedUnion('action', [
    z.strictObject({ action: z.literal('accept') }).describe('doubtful, replace: save what the scan read'),
    z
      .strictObject({ action: z.literal('set'), value: z.array(z.string().min(1).max(40)).max(400) })
      .describe('doubtful: save these layout values instead ([] no answer)'),
    z
      .strictObject({ action: z.literal('key'), text: z.string().max(2000) })
      .describe('key_text: the text the crop shows'),
    z
      .strictObject({
        action: z.literal('identify'),
        registrationCode: z.string().min(1).max(64),
        formPage: z.number().int().positive(),
      })
      .describe('unidentified: read the page again as this page of this form'),
    z
      .strictObject({ action: z.literal('dismiss') })
      .describe('unidentified, unreadable, replace: leave the answers as they are'),
  ])
  .meta({ id: 'ScanReviewAction' });
export type ScanReviewAction = z.infer<typeof scanReviewActionSchema>;

export const scanBatchListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type ScanBatchListQuery = z.infer<typeof scanBatchListQuerySchema>;

export const scanBatchSummarySchema = z
  .object({
    id: z.number().int().positive(),
    status: z.enum(SCAN_BATCH_STATUSES),
    createdAt: z.string().describe('when it was uploaded (ISO 8601)'),
    finishedAt: z
      .string()
      .nullable()
      .describe('when reading it ended (ISO 8601); null while queued or running'),
    files: z.array(z.string()).describe('names of its files with pages read so far, in upload order'),
    pages: z
      .object({
        recognized: z.number().int().min(0),
        needs_review: z.number().int().min(0),
        unidentified: z.number().int().min(0),
        duplicate: z.number().int().min(0),
      })
      .describe('its pages read so far, by status'),
    openReview: z.number().int().min(0).describe('review items of its pages still open'),
  })
  .meta({ id: 'ScanBatchSummary' });
export type ScanBatchSummary = z.infer<typeof scanBatchSummarySchema>;

export const scanBatchListSchema = z
  .object({
    items: z.array(scanBatchSummarySchema),
    total: z.number().int().min(0).describe("the caller's batches"),
  })
  .meta({ id: 'ScanBatchList' });
export type ScanBatchList = z.infer<typeof scanBatchListSchema>;
