import { z } from 'zod';
import { errorCodeSchema } from './errors.js';
import { idParamSchema } from './user.js';

/*
 * Content import and export (issue 11): tasks and tests come in as a QTI 2.1/2.2/3.0 package, a
 * Moodle XML file or a GIFT file, through a queue item of type `import`; a subject test goes out as
 * a QTI 3.0 package. Shapes of POST /api/admin/content/import, GET /api/admin/content/import/{importId}
 * and GET /api/admin/content/subjectTests/{id}/export.
 */

/** Largest file `POST /api/admin/content/import` accepts. */
export const CONTENT_IMPORT_MAX_BYTES = 50 * 1024 * 1024;

/** Kinds of file the import reads, by extension. */
export const CONTENT_IMPORT_EXTENSIONS = ['zip', 'xml', 'gift', 'txt'] as const;

/**
 * The multipart form of `POST /api/admin/content/import` (documentation and the server's check of
 * the text field): `subjectId` first (optional), then the one `file`.
 */
export const contentImportFormSchema = z
  .strictObject({
    subjectId: idParamSchema
      .optional()
      .describe(
        'the subject whose task pool receives the tasks; absent: a subject named after the top category or the file',
      ),
  })
  .describe(
    'Form fields before the file part `file` (.zip QTI package, .xml Moodle XML or QTI item, .gift/.txt GIFT)',
  )
  .meta({ id: 'ContentImportForm' });
export type ContentImportForm = z.infer<typeof contentImportFormSchema>;

/** `202` of `POST /api/admin/content/import`: the queue item to poll. */
export const contentImportQueuedSchema = z
  .strictObject({
    importId: z
      .number()
      .int()
      .positive()
      .describe('the queue item (type `import`); poll GET .../import/{importId}'),
  })
  .meta({ id: 'ContentImportQueued' });
export type ContentImportQueued = z.infer<typeof contentImportQueuedSchema>;

export const contentImportParamsSchema = z.strictObject({ importId: idParamSchema });

export const CONTENT_IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const CONTENT_IMPORT_OUTCOMES = ['imported', 'converted', 'refused'] as const;

/** What became of one item of the source. */
export const contentImportItemSchema = z
  .strictObject({
    sourceId: z
      .string()
      .describe('its identifier in the source (QTI identifier, Moodle question, GIFT title)'),
    title: z.string(),
    taskId: z.number().int().nullable().describe('the task created; null when refused'),
    answerType: z.string().nullable().describe('the answer type it was mapped to; null when refused'),
    outcome: z
      .enum(CONTENT_IMPORT_OUTCOMES)
      .describe('imported: as written; converted: with losses (see notes); refused: not created (see notes)'),
    notes: z.array(z.string()).describe('what was lost or changed, or why it was refused (English)'),
  })
  .meta({ id: 'ContentImportItem' });
export type ContentImportItem = z.infer<typeof contentImportItemSchema>;

/** `GET /api/admin/content/import/{importId}`. */
export const contentImportStatusSchema = z
  .strictObject({
    status: z.enum(CONTENT_IMPORT_STATUSES),
    error: z
      .strictObject({
        code: errorCodeSchema,
        message: z.string().describe('for developers (English); interfaces show a text chosen by `code`'),
      })
      .optional()
      .describe('why the import failed (or why its last attempt failed, while a retry is queued)'),
    items: z
      .array(contentImportItemSchema)
      .describe('one per source item, in source order; empty until done'),
    subjectTestIds: z
      .array(z.number().int())
      .describe('the subject tests (drafts) created from the tests of the file; empty until done'),
  })
  .meta({ id: 'ContentImportStatus' });
export type ContentImportStatus = z.infer<typeof contentImportStatusSchema>;

export const CONTENT_EXPORT_FORMATS = ['qti3'] as const;

/** `GET /api/admin/content/subjectTests/{id}/export` query. */
export const contentExportQuerySchema = z.strictObject({
  format: z
    .enum(CONTENT_EXPORT_FORMATS)
    .default('qti3')
    .describe('qti3: an IMS QTI 3.0 content package (zip)'),
});
export type ContentExportQuery = z.infer<typeof contentExportQuerySchema>;
