/** The calls of the reports area (server/src/modules/reports), each with its roles, meaning and schemas. */
import { participantCodesQuerySchema } from '../diagnostic.js';
import { itemAnalysisQuerySchema, itemAnalysisSchema } from '../item-analysis.js';
import {
  equatingAdoptBodySchema,
  equatingCutScoresBodySchema,
  equatingQuerySchema,
  equatingSchema,
} from '../equating.js';
import { queueItemSchema } from '../queue.js';
import {
  reportAttestaSchema,
  reportCommonSchema,
  reportConsQuerySchema,
  reportConsSchema,
  reportControlSchema,
  reportDetailedQuerySchema,
  reportDetailedSchema,
  reportExportQuerySchema,
  reportMrkoSchema,
  reportProtocolQuerySchema,
  reportProtocolSchema,
  reportQuerySchema,
  reportQueueItemParamsSchema,
  reportSpecificationQuerySchema,
  reportSpecificationSchema,
} from '../reports.js';
import type { CallTable } from '../call-schema.js';

export const REPORTS_CALLS = {
  // reports (issue 12)
  'GET /api/reports/common': {
    roles: ['coordinator', 'ugnik', 'admin'],
    meaning:
      'summary by diagnostic / subject test; query startDate, endDate, subjectTestId (xlsx with format=xlsx)',
    query: reportQuerySchema,
    response: reportCommonSchema,
  },
  'GET /api/reports/cons': {
    roles: ['coordinator', 'ugnik', 'admin'],
    meaning: 'consolidated by school and class',
    query: reportConsQuerySchema,
    response: reportConsSchema,
  },
  'GET /api/reports/control': {
    roles: ['coordinator', 'ugnik', 'admin'],
    meaning: 'control report: who took, who is missing, anomalies',
    query: reportQuerySchema,
    response: reportControlSchema,
  },
  'GET /api/reports/detailed': {
    roles: ['coordinator', 'ugnik', 'admin'],
    meaning: 'per participant, per task',
    query: reportDetailedQuerySchema,
    response: reportDetailedSchema,
  },
  'GET /api/reports/attesta': {
    roles: ['admin'],
    meaning: 'export for the upstream Attesta instance',
    query: reportExportQuerySchema,
    response: reportAttestaSchema,
  },
  'GET /api/reports/mrko': {
    roles: ['admin'],
    meaning: 'export for the MRKO journal',
    query: reportExportQuerySchema,
    response: reportMrkoSchema,
  },
  'GET /api/reports/diagnostic/protocol': {
    roles: ['coordinator', 'organizator', 'ugnik', 'admin'],
    meaning: 'PDF protocol of a diagnostic session',
    query: reportProtocolQuerySchema,
    response: reportProtocolSchema,
  },
  'GET /api/reports/coordinator/participantCodes': {
    roles: ['coordinator'],
    meaning: 'participant codes of own school (print)',
    query: participantCodesQuerySchema,
    raw: 'file',
  },
  'GET /api/reports/organizator/participantCodes': {
    roles: ['organizator'],
    meaning: 'participant codes of assigned rooms (print)',
    query: participantCodesQuerySchema,
    raw: 'file',
  },
  'GET /api/reports/specification': {
    roles: ['coordinator', 'ugnik', 'admin'],
    meaning: 'results by specification element (skills checked); query specId',
    query: reportSpecificationQuerySchema,
    response: reportSpecificationSchema,
  },
  // item analysis (issue 12)
  'GET /api/reports/itemAnalysis': {
    roles: ['coordinator', 'ugnik', 'admin'],
    meaning: 'item analysis of a subject test in a diagnostic: classical statistics and Rasch calibration',
    ours: true,
    query: itemAnalysisQuerySchema,
    response: itemAnalysisSchema,
  },
  // equating of variants (issue 28)
  'GET /api/reports/equating': {
    roles: ['ugnik', 'admin'],
    meaning: 'proposed and adopted equating tables of a subject test in a diagnostic, cut scores and levels',
    ours: true,
    query: equatingQuerySchema,
    response: equatingSchema,
  },
  'POST /api/reports/equating/adopt': {
    roles: ['admin'],
    meaning: 'adopt the proposed equating tables of a subject test in a diagnostic (a new version)',
    ours: true,
    body: equatingAdoptBodySchema,
    response: equatingSchema,
  },
  'PUT /api/reports/equating/cutScores': {
    roles: ['admin'],
    meaning: 'set the cut scores of the levels on the adopted scale',
    ours: true,
    body: equatingCutScoresBodySchema,
    response: equatingSchema,
  },
  // queued report downloads (issue 12)
  // A download too big for the request answers 202 reportQueuedSchema, which each route declares
  // (rows hold 200 answers only); its queue item is read here.
  'GET /api/reports/queue/{queueItemId}': {
    roles: ['coordinator', 'ugnik', 'admin'],
    meaning: 'a report or export queued by the caller: progress, then its file',
    ours: true,
    params: reportQueueItemParamsSchema,
    response: queueItemSchema,
  },
} as const satisfies CallTable;
