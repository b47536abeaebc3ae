import { JobLockLost, PermanentJobError, type JobContext, type JobOutcome } from '../../jobs/runner.js';
import { fileStorageOf } from '../../lib/file-storage/index.js';
import { ImportRefusal } from './parsers/types.js';
import { detectFile, parserFor } from './parsers/index.js';
import { prepareBatch } from './prepare.js';
import { persistBatch } from './persist.js';
import * as repo from './content-import.repo.js';

/*
 * The `import` job (issue 11): the upload stored by POST /api/admin/content/import is read back,
 * opened by the safety layer, parsed by its format's parser, checked item by item, and stored in one
 * transaction (persist.ts). A refused file (unsafe package, bad XML, unknown format) fails at once
 * with its code; a failure retrying may fix (the database) is retried. Once the import is done, or
 * can no longer be retried, the upload is removed: nothing of a failed file remains.
 */

export const IMPORT_JOB = 'import';
/** Attempts of an import: a transient database failure gets one more. */
export const IMPORT_MAX_ATTEMPTS = 2;

interface ImportPayload {
  subjectId: number | null;
  fileName: string;
}

const payloadOf = (payload: Record<string, unknown>): ImportPayload => ({
  subjectId: typeof payload.subjectId === 'number' ? payload.subjectId : null,
  fileName: typeof payload.fileName === 'string' ? payload.fileName : 'import',
});

export async function runImportJob(ctx: JobContext): Promise<JobOutcome> {
  const { db, item, log } = ctx;
  const payload = payloadOf(item.payload ?? {});
  try {
    const upload = await repo.uploadOf(db, item.id);
    const data = upload && (await fileStorageOf(db).read(db, upload));
    if (!upload || !data)
      throw new PermanentJobError('The uploaded file of this import is gone', 'not_found');
    await ctx.progress(5, 'reading');
    const { key, input } = await detectFile(upload.name, data);
    let batch;
    try {
      batch = await parserFor(key).parse(input);
    } catch (error) {
      if (error instanceof PermanentJobError) throw error;
      // A parser's own bug on a strange file: the same file fails again, so no retry.
      log.warn({ err: error, parser: key }, 'content import parser failed');
      throw new ImportRefusal('import_invalid', 'The file could not be read as its format requires');
    }
    await ctx.progress(40, 'checking');
    const prepared = prepareBatch(batch, input);
    await ctx.progress(60, 'saving');
    const result = await persistBatch(db, prepared, {
      item,
      subjectId: payload.subjectId,
      fileName: payload.fileName,
    });
    return { result };
  } catch (error) {
    const last = error instanceof PermanentJobError || item.attempts >= item.maxAttempts;
    if (last && !(error instanceof JobLockLost))
      await repo
        .dropUploads(db, item.id)
        .then((keys) => fileStorageOf(db).release(db, keys))
        .catch((err: unknown) => log.warn({ err }, 'upload not removed'));
    throw error;
  }
}
