import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { and, sql } from 'drizzle-orm';
import type {
  ReportConsQuery,
  ReportDetailedQuery,
  ReportExportQuery,
  ReportQuery,
  ReportQueued,
  ReportSpecificationQuery,
  Role,
} from '@attesta/contract';
import { jobAuthOf } from '../../auth/job-auth.js';
import type { AuthContext } from '../../auth/types.js';
import type { Db } from '../../db/client.js';
import { activeCountOf, activeItemOf, enqueue } from '../../jobs/queue.js';
import { PermanentJobError, type JobContext, type JobOutcome } from '../../jobs/runner.js';
import { AppError } from '../../lib/errors.js';
import { XLSX_MIME } from '../../lib/xlsx.js';
import { controlFile } from './control.service.js';
import { DETAILED_FILE_NAME, detailedCount, writeDetailedXlsx } from './detailed.service.js';
import {
  auditExport,
  EXPORT_FILE_NAMES,
  exportWhere,
  writeExportFile,
  type ExportActor,
} from './exports.service.js';
import { CSV_MIME, type ReportFile } from './report-files.js';
import { filterCondition, reportFilters } from './report-filters.js';
import { reportIdsReachable, reportRowScope, STAFF_REPORT_ROLES, type ReportIds } from './reports.access.js';
import { countRegistrations } from './reports.repo.js';
import { specificationFile, specificationOf } from './specification.service.js';
import { commonFile, consFile, type ReportCaller } from './summary.service.js';

/*
 * Big downloads as queue items (docs/reports.md, "Large reports"). A download request counts the
 * rows it would read first; above the threshold (REPORT_QUEUE_THRESHOLD, default 5,000
 * registrations) it answers 202 with a queue item — `report`, or `export` for attesta and mrko —
 * instead of the file. The job runs in whichever server instance claims it: it checks the
 * requester's scope again with their roles as they are now, reads the rows in keyset pages (the
 * event loop gets a turn between pages and between slices of writing), streams the xlsx or CSV to
 * a temporary file, reports its progress, and leaves the file as the item's result file (owned
 * by the queue item, downloadable by the requester: GET /api/files/{id}).
 */

export const REPORT_JOB = 'report';
export const EXPORT_JOB = 'export';
export const DEFAULT_QUEUE_THRESHOLD = 5000;
/**
 * Reports and exports one user may have queued or running at once: a sixth different request is
 * 429 `too_many_queued_reports` (asking again for one already queued answers that item).
 */
export const MAX_QUEUED_REPORTS_PER_USER = 5;
/** Key space of the per-user lock under which a report request counts and queues. */
const REPORT_QUEUE_LOCK = 0x7e9047;

export type QueuedReport = 'common' | 'cons' | 'control' | 'detailed' | 'specification' | 'attesta' | 'mrko';

/** Rows (registrations) above which a download is queued: REPORT_QUEUE_THRESHOLD, default 5,000. */
export function reportQueueThreshold(): number {
  const raw = process.env.REPORT_QUEUE_THRESHOLD?.trim();
  const n = raw ? Number(raw) : NaN;
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_QUEUE_THRESHOLD;
}

/** Every report a queue item may build (the record makes a new QueuedReport fail to compile until listed). */
const QUEUED: Record<QueuedReport, true> = {
  common: true,
  cons: true,
  control: true,
  detailed: true,
  specification: true,
  attesta: true,
  mrko: true,
};

const isExport = (report: QueuedReport): report is 'attesta' | 'mrko' =>
  report === 'attesta' || report === 'mrko';

/** Whom the job works for: the requester's scope anchors when they asked. */
interface Requester {
  userId: number;
  roles: Role[];
  schoolId: number | null;
  ooId: number | null;
}

/** What a queued report carries (never shown: QUEUE_PUBLIC_PAYLOAD_KEYS has none of it). */
interface ReportJobPayload {
  report: QueuedReport;
  /** The query as the route parsed it (format included). */
  query: Record<string, unknown>;
  requester: Requester;
  ip: string | null;
  /** The rows counted when it was asked for (the progress counts towards it). */
  rows: number;
}

/** How many rows the report reads: its registrations, or for detailed and the exports its results. */
function rowsToRead(caller: ReportCaller, report: QueuedReport, query: Record<string, unknown>) {
  if (report === 'detailed') return detailedCount(caller, query);
  if (isExport(report)) return countRegistrations(caller.db, exportWhere(caller, report, query));
  return countRegistrations(
    caller.db,
    and(reportRowScope(caller.auth, STAFF_REPORT_ROLES), filterCondition(reportFilters(query))),
  );
}

/**
 * Queues the download when it is big: answers `{ queueItemId }` (the same item while an identical
 * request of the caller is queued or running), or null when the file is to be built at once. A
 * user has at most MAX_QUEUED_REPORTS_PER_USER reports and exports queued or running (429).
 * Bad filters and (for specification) a missing specification are refused here, before queueing.
 */
export async function queueIfLarge(
  caller: ReportCaller,
  report: QueuedReport,
  query: Record<string, unknown>,
  actor: ExportActor,
): Promise<ReportQueued | null> {
  const rows = await rowsToRead(caller, report, query);
  if (rows <= reportQueueThreshold()) return null;
  if (report === 'specification') await specificationOf(caller.db, query as ReportSpecificationQuery);
  const { auth } = caller;
  const payload: ReportJobPayload = {
    report,
    query,
    requester: { userId: auth.userId, roles: auth.roles, schoolId: auth.schoolId, ooId: auth.ooId },
    ip: actor.ip,
    rows,
  };
  const key = createHash('sha256')
    .update(JSON.stringify([auth.userId, report, Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1))]))
    .digest('hex')
    .slice(0, 32);
  const dedupeKey = `report:${key}`;
  const item = await caller.db.transaction(async (tx) => {
    // One request of a user at a time counts and queues, so concurrent ones cannot all slip under the bound.
    await tx.execute(sql`select pg_advisory_xact_lock(${REPORT_QUEUE_LOCK}::int, ${auth.userId}::int)`);
    const same = await activeItemOf(tx, dedupeKey);
    if (same) return same;
    if ((await activeCountOf(tx, auth.userId, [REPORT_JOB, EXPORT_JOB])) >= MAX_QUEUED_REPORTS_PER_USER)
      throw new AppError(
        429,
        'too_many_queued_reports',
        `At most ${MAX_QUEUED_REPORTS_PER_USER} large reports of yours may wait or run at once; wait for one to finish`,
      );
    const queued = await enqueue(tx, {
      type: isExport(report) ? EXPORT_JOB : REPORT_JOB,
      // No diagnostic: the queue pages show an item of a diagnostic to its schools' coordinators,
      // and a report belongs to whoever asked for it.
      diagnosticId: null,
      payload: payload as unknown as Record<string, unknown>,
      dedupeKey,
      createdBy: auth.userId,
      maxAttempts: 2,
    });
    return queued.item;
  });
  return { queueItemId: item.id };
}

/** The requester as the job acts for them: the roles they had when they asked and still have (auth/job-auth.ts). */
async function requesterAuth(db: Db, r: Requester, itemId: number): Promise<AuthContext> {
  const auth = await jobAuthOf(db, r.userId, `queue-item:${itemId}`, r.roles);
  if (!auth) throw new PermanentJobError('The requester may no longer read this report', 'forbidden');
  return auth;
}

/**
 * Progress at most once a second (and once the rows counted are done). The text is a code the
 * queue screens put in the reader's words and number format: `rows:<done>:<total>` («Строк:
 * 12 000 из 300 000»). `done()` tells how many rows were reported.
 */
const rowsProgress = (done: number, total: number) => `rows:${done}:${total}`;

function progressOf(ctx: JobContext, total: number) {
  let done = 0;
  let last = 0;
  const report = async (rows: number) => {
    done += rows;
    const now = Date.now();
    if (now - last < 1000 && done < total) return;
    last = now;
    const percent = total > 0 ? Math.min(99, (done / total) * 100) : 99;
    await ctx.progress(percent, rowsProgress(done, total));
  };
  return Object.assign(report, { done: () => done });
}

/** Writes into a temporary file and takes its bytes; the file is removed whatever happens. */
async function viaTempFile(
  itemId: number,
  extension: string,
  write: (out: Writable) => Promise<number>,
): Promise<{ data: Buffer; rows: number }> {
  const path = join(tmpdir(), `attesta-report-${itemId}-${randomBytes(6).toString('hex')}.${extension}`);
  try {
    const rows = await write(createWriteStream(path));
    return { data: await readFile(path), rows };
  } finally {
    await rm(path, { force: true });
  }
}

async function build(ctx: JobContext, payload: ReportJobPayload, caller: ReportCaller, actor: ExportActor) {
  const { report, query } = payload;
  // Counted when it was asked for: the job does not scan the region once more to say how far it got.
  const total = payload.rows ?? (await rowsToRead(caller, report, query));
  await ctx.progress(0, rowsProgress(0, total));
  const onRows = progressOf(ctx, total);
  const paced: ReportCaller = { ...caller, onPage: onRows };
  const id = ctx.item.id;
  if (report === 'detailed') {
    const q = query as ReportDetailedQuery;
    const { data, rows } = await viaTempFile(id, 'xlsx', (out) => writeDetailedXlsx(caller, q, out, onRows));
    return { file: { fileName: DETAILED_FILE_NAME, mime: XLSX_MIME, body: data }, rows };
  }
  if (isExport(report)) {
    const q = query as ReportExportQuery & { format: 'csv' | 'xlsx' };
    const { data, rows } = await viaTempFile(id, q.format, (out) =>
      writeExportFile(caller, report, q, out, onRows),
    );
    await auditExport(caller, actor, report, q, rows, id);
    const fileName = `${EXPORT_FILE_NAMES[report]}.${q.format}`;
    return { file: { fileName, mime: q.format === 'csv' ? CSV_MIME : XLSX_MIME, body: data }, rows };
  }
  const files: Record<typeof report, () => Promise<ReportFile>> = {
    common: () => commonFile(paced, query as ReportQuery),
    cons: () => consFile(paced, query as ReportConsQuery),
    control: () => controlFile(paced, query as ReportQuery),
    specification: () => specificationFile(paced, query as ReportSpecificationQuery),
  };
  return { file: await files[report](), rows: onRows.done() };
}

/** The job of `report` and `export` queue items. */
export async function runReportJob(ctx: JobContext): Promise<JobOutcome> {
  const payload = ctx.item.payload as unknown as ReportJobPayload;
  if (!payload?.report || !(payload.report in QUEUED) || !payload.requester)
    throw new PermanentJobError('Not a report job');
  try {
    const auth = await requesterAuth(ctx.db, payload.requester, ctx.item.id);
    const caller: ReportCaller = { db: ctx.db, auth };
    const allowed = isExport(payload.report) ? (['admin'] as const) : STAFF_REPORT_ROLES;
    if (!(await reportIdsReachable(ctx.db, auth, allowed, payload.query as ReportIds)))
      throw new PermanentJobError('The report is outside the requester’s scope now', 'forbidden');
    const { file, rows } = await build(ctx, payload, caller, { ip: payload.ip });
    ctx.log.info({ report: payload.report, rows, bytes: file.body.length }, 'report file built');
    return {
      file: { name: file.fileName, mime: file.mime, data: file.body },
      result: {
        report: payload.report,
        format: payload.query.format ?? null,
        rows,
        fileName: file.fileName,
      },
    };
  } catch (err) {
    // A refusal (an id gone, no specification) will not change on a retry.
    if (err instanceof AppError) throw new PermanentJobError(err.message, err.code);
    throw err;
  }
}
