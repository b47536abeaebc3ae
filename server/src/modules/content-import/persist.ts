import type { ContentImportItem } from '@attesta/contract';
import { fileStorageOf } from '../../lib/file-storage/index.js';
import type { Db } from '../../db/client.js';
import { JobLockLost } from '../../jobs/runner.js';
import type { QueueItemRow } from '../../jobs/queue.js';
import { audit } from '../../lib/audit.js';
import { cleanFileName } from '../../lib/file-sniff.js';
import { noteCode } from './notes.js';
import { ImportRefusal, type SourceFormat } from './parsers/types.js';
import type { PreparedBatch, PreparedItem } from './prepare.js';
import * as repo from './content-import.repo.js';

/*
 * Storing one prepared file, all or nothing: ONE transaction creates the tasks (in the subject's
 * pool, with category path, title, source id and format), their media as task files (the html's
 * references rewritten to /api/files/{id}, in the content's html fields too, and a hotspot picture's
 * package path replaced by its file id), a draft subject test with one variant per test of the
 * file, removes the upload and audits the import. Any failure rolls all of it back. The queue item is
 * locked for the transaction, so a worker that lost it to stale-lock recovery writes nothing.
 */

export interface ImportReport {
  [key: string]: unknown;
  format: SourceFormat;
  subjectId: number | null;
  items: ContentImportItem[];
  subjectTestIds: number[];
}

export interface PersistOptions {
  item: QueueItemRow;
  /** The subject chosen in the call; null: named after the top category or the file. */
  subjectId: number | null;
  fileName: string;
}

const decodeAttr = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** src/href attributes whose value is exactly a media ref become the stored file's URL. */
export function rewriteRefs(html: string, urls: ReadonlyMap<string, string>): string {
  if (!urls.size) return html;
  return html.replace(
    /(\s(?:src|href)\s*=\s*)(["'])([^"']*)\2/gi,
    (whole, pre: string, q: string, value: string) => {
      const url = urls.get(value) ?? urls.get(decodeAttr(value));
      return url ? `${pre}${q}${url}${q}` : whole;
    },
  );
}

/** Media ref → the stored file's URL. */
const urlsOf = (fileIds: ReadonlyMap<string, number>) =>
  new Map([...fileIds].map(([ref, id]) => [ref, `/api/files/${id}`]));

/**
 * A task's content with its package media resolved: every `html` field (options, words, items,
 * spans, matching sides, the parts of a composite task, at any depth) has its src/href references
 * rewritten as the task html is, and an `image` whose package `src` was stored as a task file (a
 * hotspot's picture, in a composite part too) names that file instead (`fileId`, the `src` dropped).
 * An image whose file was left out keeps its `src` (the report says why).
 */
export function resolveContentMedia(
  value: unknown,
  fileIds: ReadonlyMap<string, number>,
  urls: ReadonlyMap<string, string> = urlsOf(fileIds),
): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveContentMedia(v, fileIds, urls));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => {
      if (k === 'html' && typeof v === 'string') return [k, rewriteRefs(v, urls)];
      if (k === 'image' && v && typeof v === 'object' && !Array.isArray(v)) {
        const { src, ...rest } = v as Record<string, unknown>;
        const fileId = typeof src === 'string' ? fileIds.get(src) : undefined;
        if (fileId !== undefined) return [k, { ...rest, fileId }];
      }
      return [k, resolveContentMedia(v, fileIds, urls)];
    }),
  );
}

const withTask = (item: PreparedItem): item is PreparedItem & { task: NonNullable<PreparedItem['task']> } =>
  !!item.task;

/** The subject of the file's tasks, and whether its name is the items' shared top category. */
function subjectChoice(batch: PreparedBatch, fileName: string): { name: string; fromCategory: boolean } {
  const tops = new Set(batch.items.filter(withTask).map((i) => i.category[0] ?? ''));
  const [top] = [...tops];
  if (tops.size === 1 && top) return { name: top, fromCategory: true };
  const stem = cleanFileName(fileName, 'Импорт').replace(/\.[A-Za-z0-9]{1,10}$/, '');
  return { name: stem.slice(0, 200) || 'Импорт', fromCategory: false };
}

export async function persistBatch(
  db: Db,
  batch: PreparedBatch,
  options: PersistOptions,
): Promise<ImportReport> {
  const { item } = options;
  const createdBy = item.createdBy;
  const storage = fileStorageOf(db);
  let dropped: (string | null)[] = [];
  // The media's bytes go to the file storage (removed again if the transaction fails).
  const result = await storage.staged((put) =>
    db.transaction(async (tx) => {
      if (!(await repo.holdQueueItem(tx, item.id, item.lockedBy))) throw new JobLockLost(item.id);

      let subjectId = options.subjectId;
      let fromCategory = false;
      if (subjectId !== null) {
        if (!(await repo.subjectExists(tx, subjectId)))
          throw new ImportRefusal('not_found', 'The subject chosen for the import no longer exists');
      } else {
        const choice = subjectChoice(batch, options.fileName);
        subjectId = await repo.subjectNamed(tx, choice.name);
        fromCategory = choice.fromCategory;
      }

      const report: ContentImportItem[] = [];
      const created = new Map<string, { id: number; maxScore: number }>();
      for (const prepared of batch.items) {
        const base = {
          sourceId: prepared.sourceId,
          ...(prepared.file ? { file: prepared.file } : {}),
          title: prepared.title,
          outcome: prepared.outcome,
          notes: prepared.notes.map((n) => n.text),
          noteCodes: prepared.notes.map(noteCode),
        };
        if (!withTask(prepared)) {
          report.push({ ...base, taskId: null, answerType: null });
          continue;
        }
        const { task } = prepared;
        const path = fromCategory ? prepared.category.slice(1) : prepared.category;
        const taskId = await repo.insertTask(tx, {
          answerType: task.answerType,
          html: task.html,
          content: task.content as Record<string, unknown>,
          reference: task.reference,
          scoring: task.scoring as Record<string, unknown>,
          solutionHtml: task.solutionHtml,
          criteria: task.criteria ?? null,
          maxScore: task.maxScore,
          subjectId,
          category: path.length ? path.join('/') : null,
          title: prepared.title,
          sourceId: prepared.sourceId,
          sourceFormat: batch.format,
          sourceChoiceIds: prepared.choiceIds ?? null,
          createdBy,
        });
        if (prepared.media.length) {
          const fileIds = new Map<string, number>();
          for (const m of prepared.media)
            fileIds.set(
              m.ref,
              await repo.insertTaskFile(tx, taskId, m.media, await put(m.media.data), createdBy),
            );
          const urls = urlsOf(fileIds);
          await repo.updateTaskHtml(tx, taskId, {
            html: rewriteRefs(task.html, urls),
            solutionHtml: task.solutionHtml === null ? null : rewriteRefs(task.solutionHtml, urls),
            content: resolveContentMedia(task.content, fileIds, urls) as Record<string, unknown>,
          });
        }
        // A task waiting for its full marks is not put in the file's test (the report asks for them).
        if (prepared.fullMarksNeeded)
          report.push({ ...base, taskId, answerType: task.answerType, fullMarksNeeded: true });
        else {
          created.set(prepared.key, { id: taskId, maxScore: task.maxScore });
          report.push({ ...base, taskId, answerType: task.answerType });
        }
      }

      const subjectTestIds: number[] = [];
      if (batch.tests.length) {
        const subjectExamId = await repo.diagnosticExamOf(tx, subjectId);
        for (const test of batch.tests) {
          const inTest = new Set<number>();
          const testTasks = test.itemKeys
            .map((key) => created.get(key))
            .filter(
              (t): t is { id: number; maxScore: number } => !!t && !inTest.has(t.id) && !!inTest.add(t.id),
            );
          subjectTestIds.push(
            await repo.insertDraftTest(tx, {
              subjectExamId,
              name: test.title,
              sourceId: test.sourceId,
              tasks: testTasks,
            }),
          );
        }
      }

      dropped = await repo.dropUploads(tx, item.id);
      const count = (outcome: string) => report.filter((r) => r.outcome === outcome).length;
      await audit(tx, {
        userId: createdBy,
        action: 'content.import',
        entity: 'queue_item',
        entityId: item.id,
        details: {
          format: batch.format,
          file: cleanFileName(options.fileName),
          subjectId,
          imported: count('imported'),
          converted: count('converted'),
          refused: count('refused'),
          taskIds: [...created.values()].map((t) => t.id),
          subjectTestIds,
        },
      });
      return { format: batch.format, subjectId, items: report, subjectTestIds };
    }),
  );
  // The upload's bytes go once the rows that named them are gone for good.
  await storage.release(db, dropped);
  return result;
}
