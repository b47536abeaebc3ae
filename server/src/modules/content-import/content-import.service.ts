import type { Actor } from '../../auth/actor.js';
import {
  CONTENT_IMPORT_EXTENSIONS,
  CONTENT_IMPORT_MAX_BYTES,
  contentImportFormSchema,
  contentImportItemSchema,
  isErrorCode,
  type ContentImportFullMarks,
  type ContentImportQueued,
  type ContentImportStatus,
} from '@attesta/contract';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { enqueue } from '../../jobs/queue.js';
import { audit } from '../../lib/audit.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { cleanFileName, extensionOf } from '../../lib/file-sniff.js';
import { fileStorageOf } from '../../lib/file-storage/index.js';
import { fieldText, partsOf, tooLarge, type IncomingFile, type Spool } from '../../lib/multipart.js';
import { qti3Package, type ExportTask } from './export/qti3.js';
import { IMPORT_JOB, IMPORT_MAX_ATTEMPTS } from './job.js';
import { note, noteCode } from './notes.js';
import { looksLikeZip } from './safety/zip.js';
import * as repo from './content-import.repo.js';

/*
 * The calls of the content import (issue 11): the upload is checked as far as it can be without
 * reading it (fields, subject, kind of file, size while streaming), stored with its queue item in
 * one transaction, and the job does the rest. The state of an import is its queue item's.
 */

export type { Actor };

export interface ImportForm {
  file: IncomingFile;
  subjectId: number | null;
}

const MIME_BY_EXT: Record<string, string> = {
  zip: 'application/zip',
  xml: 'application/xml',
  gift: 'text/plain',
  txt: 'text/plain',
};

const unsupported = (name: string) =>
  new AppError(
    415,
    'unsupported_format',
    `${cleanFileName(name)}: send a QTI package (.zip), Moodle XML (.xml) or GIFT (.gift, .txt)`,
  );

/** The subject field, checked (400 malformed, 404 unknown) before any byte of the file is read. */
async function checkedSubject(db: Db, value: string | undefined): Promise<number | null> {
  const parsed = contentImportFormSchema.safeParse(value ? { subjectId: value } : {});
  if (!parsed.success)
    throw badRequest('validation_failed', 'subjectId must be a positive integer', [
      { path: 'subjectId', message: 'must be a positive integer', code: 'invalid_format' },
    ]);
  const id = parsed.data.subjectId ?? null;
  if (id !== null && !(await repo.subjectExists(db, id))) throw notFound('No such subject');
  return id;
}

/**
 * Reads the form: `subjectId` (optional) first, then one part `file`. Subject and kind of file are
 * settled before the file's first byte is read; the file is spooled to disk within the size limit.
 */
export async function readImportForm(db: Db, req: FastifyRequest, spool: Spool): Promise<ImportForm> {
  let subjectField: string | undefined;
  let subjectId: number | null = null;
  let file: IncomingFile | null = null;
  for await (const part of partsOf(req)) {
    if (part.type === 'field') {
      if (file)
        throw badRequest('validation_failed', `The field ${part.fieldname} must come before the file`, [
          { path: part.fieldname, message: 'text fields go before the file in the form' },
        ]);
      if (part.fieldname !== 'subjectId')
        throw badRequest('validation_failed', 'Unknown form field', [
          { path: 'form', message: 'the form has only `subjectId` and `file`', code: 'unrecognized_keys' },
        ]);
      subjectField = fieldText(part).trim();
      continue;
    }
    if (part.fieldname !== 'file')
      throw badRequest('validation_failed', 'The file goes in the form field `file`', [
        { path: 'file', message: 'is required' },
      ]);
    if (file) throw badRequest('too_many_files', 'One file per import');
    subjectId = await checkedSubject(db, subjectField);
    const name = part.filename ?? '';
    if (!(CONTENT_IMPORT_EXTENSIONS as readonly string[]).includes(extensionOf(name)))
      throw unsupported(name);
    file = await spool.file(part, {
      bytes: CONTENT_IMPORT_MAX_BYTES,
      error: () => tooLarge(CONTENT_IMPORT_MAX_BYTES),
    });
  }
  if (!file) throw badRequest('no_file', 'Send the file in the form field `file`');
  if (file.size === 0) throw badRequest('no_file', 'The file is empty');
  return { file, subjectId };
}

/** Stores the upload with its `import` queue item (one transaction) and audits it. */
export async function startImport(db: Db, actor: Actor, form: ImportForm): Promise<ContentImportQueued> {
  const name = cleanFileName(form.file.name, 'import');
  const ext = extensionOf(name);
  const data = await form.file.read();
  if (ext === 'zip' && !looksLikeZip(data)) throw unsupported(name);
  // The bytes go to the file storage (never through the embedded database: lib/file-storage).
  return fileStorageOf(db).staged((put) =>
    db.transaction(async (tx) => {
      const { item } = await enqueue(tx, {
        type: IMPORT_JOB,
        payload: { fileName: name, subjectId: form.subjectId },
        createdBy: actor.auth.userId,
        maxAttempts: IMPORT_MAX_ATTEMPTS,
      });
      await repo.storeUpload(tx, item.id, {
        name,
        mime: MIME_BY_EXT[ext] ?? 'application/octet-stream',
        size: data.length,
        sha256: form.file.sha256,
        bytes: await put(data),
        createdBy: actor.auth.userId,
      });
      await audit(tx, {
        userId: actor.auth.userId,
        action: 'content.import.queued',
        entity: 'queue_item',
        entityId: item.id,
        details: { file: name, size: data.length, subjectId: form.subjectId },
        ip: actor.ip,
      });
      return { importId: item.id };
    }),
  );
}

/**
 * A stored item of a report. One stored before the notes had codes (no `noteCodes`) gets its notes
 * as `unclassified` codes: interfaces show them by their English text.
 */
const storedItemSchema = contentImportItemSchema
  .extend({ noteCodes: contentImportItemSchema.shape.noteCodes.optional() })
  .transform((item) => ({
    ...item,
    noteCodes:
      item.noteCodes && item.noteCodes.length === item.notes.length
        ? item.noteCodes
        : item.notes.map((text) => noteCode(note('unclassified', { text }))),
  }));

const reportSchema = z.object({
  items: z.array(storedItemSchema).catch([]),
  subjectTestIds: z.array(z.number().int()).catch([]),
});

/** The state of an import (404 for an id that is not an import). */
export async function importStatus(db: Db, importId: number): Promise<ContentImportStatus> {
  const row = await repo.importItem(db, importId);
  if (!row) throw notFound('No such import');
  const status =
    row.status === 'queued' || row.status === 'running' || row.status === 'done' ? row.status : 'failed';
  const report =
    row.status === 'done' ? reportSchema.parse(row.result ?? {}) : { items: [], subjectTestIds: [] };
  const code = row.errorCode ?? (status === 'failed' ? 'job_failed' : null);
  return {
    status,
    ...(code
      ? {
          error: { code: isErrorCode(code) ? code : 'job_failed', message: row.error ?? 'The import failed' },
        }
      : {}),
    items: report.items,
    subjectTestIds: report.subjectTestIds,
  };
}

/**
 * The full marks of a task the import held because its rules did not say them (issue 27, Deliver
 * 5): the task gets them, the report item no longer waits and says who gave them. 404 when the
 * import has no item waiting with this task; 409 `conflict` when the task was edited meanwhile (its
 * editor sets full marks then). Audited.
 */
export async function giveFullMarks(
  db: Db,
  actor: Actor,
  importId: number,
  body: ContentImportFullMarks,
): Promise<ContentImportStatus> {
  await db.transaction(async (tx) => {
    const row = await repo.importItemForUpdate(tx, importId);
    if (!row || row.status !== 'done') throw notFound('No such finished import');
    const result = (row.result ?? {}) as { items?: Record<string, unknown>[] };
    const items = Array.isArray(result.items) ? result.items : [];
    const at = items.findIndex((i) => i.taskId === body.taskId && i.fullMarksNeeded === true);
    if (at < 0) throw notFound('No item of this import waits for full marks with this task');
    if (!(await repo.setTaskMaxScore(tx, body.taskId, body.maxScore)))
      throw conflict(
        'conflict',
        'The task was edited since the import: set its full marks in the task editor',
      );
    const given = note('full_marks_given', { points: body.maxScore });
    const { fullMarksNeeded: _, ...item } = items[at]!;
    const stored = storedItemSchema.parse(item);
    items[at] = {
      ...item,
      notes: [...stored.notes, given.text],
      noteCodes: [...stored.noteCodes, noteCode(given)],
    };
    await repo.setImportReport(tx, importId, { ...result, items });
    await audit(tx, {
      userId: actor.auth.userId,
      action: 'content.import.full_marks',
      entity: 'task',
      entityId: body.taskId,
      details: { importId, maxScore: body.maxScore },
      ip: actor.ip,
    });
  });
  return importStatus(db, importId);
}

/** A subject test as a QTI 3.0 package (404 unknown). */
export async function exportSubjectTest(db: Db, id: number): Promise<{ fileName: string; zip: Buffer }> {
  const test = await repo.subjectTestForExport(db, id);
  if (!test) throw notFound('No such subject test');
  const rows = await repo.variantTasksForExport(db, id);
  const tasks = new Map<number, ExportTask>();
  const variants = new Map<number, { number: number; taskIds: number[] }>();
  for (const row of rows) {
    const t = row.task;
    if (!tasks.has(t.id))
      tasks.set(t.id, {
        id: t.id,
        answerType: t.answerType,
        html: t.html,
        content: t.content ?? {},
        reference: t.reference,
        scoring: t.scoring ?? {},
        solutionHtml: t.solutionHtml,
        criteria: t.criteria,
        maxScore: row.maxScore,
        title: t.title,
        sourceId: t.sourceId,
        ...(t.sourceChoiceIds ? { choiceIds: t.sourceChoiceIds } : {}),
      });
    const variant = variants.get(row.variantId) ?? { number: row.number, taskIds: [] };
    variant.taskIds.push(t.id);
    variants.set(row.variantId, variant);
  }
  const storage = fileStorageOf(db);
  const files = [];
  for (const file of await repo.taskFiles(db, [...tasks.keys()])) {
    const data = await storage.read(db, file);
    if (data) files.push({ ...file, data });
  }
  const zip = await qti3Package(
    { id: test.id, name: test.name, sourceId: test.sourceId, variants: [...variants.values()] },
    [...tasks.values()],
    files,
  );
  const stem = cleanFileName(test.name, 'test').replace(/\.[A-Za-z0-9]{1,10}$/, '');
  return { fileName: `${stem}-qti3.zip`, zip };
}
