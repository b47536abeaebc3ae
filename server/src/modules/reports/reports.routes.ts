import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { reportQueuedSchema } from '@attesta/contract';
import { authOf, contractRoute } from '../../auth/access.js';
import { hasRole } from '../../auth/types.js';
import { findQueueItem } from '../../jobs/queue.js';
import { registerJobHandler } from '../../jobs/runner.js';
import { notFound } from '../../lib/errors.js';
import { attachmentDisposition } from '../../lib/xlsx.js';
import { presentQueueItem } from '../participant-test/index.js';
import { controlData, controlFile } from './control.service.js';
import { detailedData, detailedFile } from './detailed.service.js';
import { exportResults } from './exports.service.js';
import { protocolData, protocolFile } from './protocol.service.js';
import type { ReportFile } from './report-files.js';
import { errorResponses } from '../../lib/route-docs.js';
import {
  EXPORT_JOB,
  MAX_QUEUED_REPORTS_PER_USER,
  queueIfLarge,
  REPORT_JOB,
  runReportJob,
  type QueuedReport,
} from './report-queue.js';
import { PROTOCOL_ROLES, reportQueryInScope, STAFF_REPORT_ROLES } from './reports.access.js';
import { specificationData, specificationFile } from './specification.service.js';
import { commonData, commonFile, consData, consFile, type ReportCaller } from './summary.service.js';

const tags = ['reports'];

function sendFile(reply: FastifyReply, file: ReportFile) {
  // A Buffer goes out as-is (no serializer), so the JSON schema of 200 does not apply to it.
  const body: unknown = file.body;
  return reply
    .type(file.mime)
    .header('content-disposition', attachmentDisposition(file.fileName))
    .header('cache-control', 'private, no-store')
    .send(body as never);
}

const SCOPE =
  'Scope: an admin every registration, a coordinator those of their school, an ugnik those of its ' +
  'diagnostics (403 for an id outside it, 404 for an unknown one). Counts scored results, published ' +
  'or not (docs/reports.md). Dates are test days (yyyy-mm-dd, school calendar): 400 `invalid_date`, ' +
  '`invalid_date_range`. ';

const QUEUED =
  ' A download of more than 5,000 rows (REPORT_QUEUE_THRESHOLD) answers 202 `{queueItemId}` instead: ' +
  'the file is built by a queue item (follow it with GET /api/reports/queue/{queueItemId}; once done, ' +
  'its `resultFileId` downloads with GET /api/files/{id}). Scope and filters are checked before ' +
  `anything is queued. A user has at most ${MAX_QUEUED_REPORTS_PER_USER} reports and exports queued or ` +
  'running: another one is 429 `too_many_queued_reports` (the same request again answers its item).';

/**
 * A download route's schema also declares the 202 of a queued download (rows hold 200 answers
 * only) and the 429 of one too many queued.
 */
function queueable<R extends { schema: { response: object } }>(route: R): R {
  return {
    ...route,
    schema: {
      ...route.schema,
      response: { ...route.schema.response, 202: reportQueuedSchema, ...errorResponses(429) },
    },
  };
}

/** `/api/reports/*` except the participant codes: the screens' JSON and the downloads. */
export const reportRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const caller = (req: FastifyRequest): ReportCaller => ({ db, auth: authOf(req) });
  const staffScope = reportQueryInScope(STAFF_REPORT_ROLES);
  registerJobHandler(REPORT_JOB, runReportJob);
  registerJobHandler(EXPORT_JOB, runReportJob);

  /** The file at once, or 202 with the queue item building it when the report is big. */
  const download = async (
    req: FastifyRequest,
    reply: FastifyReply,
    report: QueuedReport,
    file: () => Promise<ReportFile>,
  ) => {
    const queued = await queueIfLarge(caller(req), report, req.query as Record<string, unknown>, {
      ip: req.ip ?? null,
    });
    if (queued) return reply.code(202).send(queued);
    return sendFile(reply, await file());
  };

  app.route({
    ...queueable(
      contractRoute(
        'GET /api/reports/common',
        {
          summary:
            'Summary per subject test over a period: attendance, mean score and percent, marks, levels',
          description: `${SCOPE}format=json (default), xlsx or pdf (a download).${QUEUED}`,
          tags,
          errors: [400, 401, 403, 404],
        },
        staffScope,
      ),
    ),
    handler: async (req, reply) =>
      req.query.format === 'json'
        ? commonData(caller(req), req.query)
        : download(req, reply, 'common', () => commonFile(caller(req), req.query)),
  });

  app.route({
    ...queueable(
      contractRoute(
        'GET /api/reports/cons',
        {
          summary: 'The summary by school and class, with the total of your scope',
          description: `${SCOPE}\`sort\` orders the schools and the classes in each (nulls last), \`dir\` asc or desc. format=json (default), xlsx or pdf.${QUEUED}`,
          tags,
          errors: [400, 401, 403, 404],
        },
        staffScope,
      ),
    ),
    handler: async (req, reply) =>
      req.query.format === 'json'
        ? consData(caller(req), req.query)
        : download(req, reply, 'cons', () => consFile(caller(req), req.query)),
  });

  app.route({
    ...queueable(
      contractRoute(
        'GET /api/reports/control',
        {
          summary: 'Attendance, works not finished, and works worth an inspector’s look',
          description:
            `${SCOPE}Anomalies: finished within 10 % of the time, offline gaps of 5 minutes or more, three or ` +
            'more departures from the test page, proctoring verdicts, and pairs of works of one room sharing ' +
            'identical wrong answers (docs/reports.md says how each is measured). format=json (default), xlsx or pdf.' +
            QUEUED,
          tags,
          errors: [400, 401, 403, 404],
        },
        staffScope,
      ),
    ),
    handler: async (req, reply) =>
      req.query.format === 'json'
        ? controlData(caller(req), req.query)
        : download(req, reply, 'control', () => controlFile(caller(req), req.query)),
  });

  app.route({
    ...queueable(
      contractRoute(
        'GET /api/reports/detailed',
        {
          summary: 'One row per scored result with its task scores',
          description:
            `${SCOPE}\`code\` is the registration code; \`surname\` is there when the registration has a person ` +
            '(every role of this call may see the names of the rows it reaches). format=json (default): a page ' +
            `of rows (\`page\` from 1, \`pageSize\` up to 5,000, default 1,000) with \`total\`; or xlsx (one sheet ` +
            `per subject test).${QUEUED}`,
          tags,
          errors: [400, 401, 403, 404],
        },
        staffScope,
      ),
    ),
    handler: async (req, reply) =>
      req.query.format === 'json'
        ? detailedData(caller(req), req.query)
        : download(req, reply, 'detailed', () => detailedFile(caller(req), req.query)),
  });

  app.route({
    ...queueable(
      contractRoute(
        'GET /api/reports/specification',
        {
          summary: 'Mastery of each specification element, in total, by school and by class',
          description:
            `${SCOPE}The share of the points earned on the tasks mapped to an element or to any element below ` +
            'it (each task once). `specId`, else the subject test’s specification, else the diagnostic’s; ' +
            '400 `validation_failed` when there is none. format=json (default) or xlsx.' +
            QUEUED,
          tags,
          errors: [400, 401, 403, 404],
        },
        staffScope,
      ),
    ),
    handler: async (req, reply) =>
      req.query.format === 'json'
        ? specificationData(caller(req), req.query)
        : download(req, reply, 'specification', () => specificationFile(caller(req), req.query)),
  });

  app.route({
    ...contractRoute(
      'GET /api/reports/diagnostic/protocol',
      {
        summary: 'The protocol of a sitting in one room (PDF to sign, or its data)',
        description:
          'A room is a class (`classId`) or a whole building (`buildingId`) of a diagnostic; one section per ' +
          'subject test and day: organizers, participants present and absent, start and finish, pauses and ' +
          'time changes with their reasons, incidents, and lines for the signatures. Scope: an admin any ' +
          'room, a coordinator those of their school, an ugnik those of its diagnostics, an organizator the ' +
          'classes and buildings assigned to them (403 outside, 404 unknown). format=pdf (default) or json.',
        tags,
        errors: [400, 401, 403, 404],
      },
      reportQueryInScope(PROTOCOL_ROLES),
    ),
    handler: async (req, reply) =>
      req.query.format === 'json'
        ? protocolData(caller(req), req.query)
        : sendFile(reply, await protocolFile(caller(req), req.query)),
  });

  const exportDocs = (what: string, layout: string) => ({
    summary: what,
    description:
      `Published results only: scored results of diagnostics whose results are published. ${layout} ` +
      'format=json (default), csv (UTF-8 with BOM, `;`, formula-safe) or xlsx; the layouts are in docs/reports.md. ' +
      'Filters: diagnosticId, subjectTestId, schoolId, startDate, endDate. Audited (a queued file when it is ' +
      `built).${QUEUED}`,
    tags,
    errors: [400, 401, 403, 404] as const,
  });

  app.route({
    ...queueable(
      contractRoute(
        'GET /api/reports/attesta',
        exportDocs(
          'Published results for the upstream Attesta instance',
          'One item per result: codes and external ids, no names; per-task scores.',
        ),
        reportQueryInScope(['admin']),
      ),
    ),
    handler: async (req, reply) => {
      if (req.query.format !== 'json') {
        const queued = await queueIfLarge(caller(req), 'attesta', req.query, { ip: req.ip ?? null });
        if (queued) return reply.code(202).send(queued);
      }
      const out = await exportResults(caller(req), { ip: req.ip ?? null }, 'attesta', req.query);
      return 'file' in out ? sendFile(reply, out.file) : out.data;
    },
  });

  app.route({
    ...queueable(
      contractRoute(
        'GET /api/reports/mrko',
        exportDocs(
          'Published marks of students for the MRKO journal',
          'One item per student result with a mark: school, class, external id, name, subject, date, mark, scores.',
        ),
        reportQueryInScope(['admin']),
      ),
    ),
    handler: async (req, reply) => {
      if (req.query.format !== 'json') {
        const queued = await queueIfLarge(caller(req), 'mrko', req.query, { ip: req.ip ?? null });
        if (queued) return reply.code(202).send(queued);
      }
      const out = await exportResults(caller(req), { ip: req.ip ?? null }, 'mrko', req.query);
      return 'file' in out ? sendFile(reply, out.file) : out.data;
    },
  });

  app.route({
    ...contractRoute(
      'GET /api/reports/queue/{queueItemId}',
      {
        summary: 'A report or export you queued: its progress, then its file',
        description:
          'The queue item a download answered 202 with (type `report` or `export`): `status` queued, running, ' +
          'done or failed, `progress` 0–100 with `progressText`; once done `resultFileId` (GET /api/files/{id}) ' +
          'and `result` `{report, format, rows, fileName}`; when failed `errorCode`. Only the user who asked ' +
          '(an admin any): 404 for an id that is not a report or export, 403 for another user’s.',
        tags,
        errors: [400, 401, 403, 404],
      },
      async (req, auth) => {
        const item = await findQueueItem(db, (req.params as { queueItemId: number }).queueItemId);
        if (!item || (item.type !== REPORT_JOB && item.type !== EXPORT_JOB)) throw notFound('No such report');
        return hasRole(auth, 'admin') || item.createdBy === auth.userId;
      },
    ),
    handler: async (req) => presentQueueItem((await findQueueItem(db, req.params.queueItemId))!),
  });
};
