/**
 * The report calls (/api/reports/*, docs/reports.md): the JSON answers the screens read and the
 * paths of their downloads. Failures are shown on the page by their code, never by a redirect
 * (only a gone session still leaves for the unauthorized page).
 */
import type { QueryValue } from '../../../lib/api-client';
import { call, callPath } from '../../../lib/call';
import type { ReportFilterValues } from '../lib/filters';

const inline = { suppressRedirect: true } as const;

export type ConsSort = 'name' | 'registered' | 'tookPart' | 'scored' | 'meanScore' | 'meanPercent';
export type SortDir = 'asc' | 'desc';

/** The filters as query values: chosen ids and days only, nothing empty. */
export function filterQuery(filters: ReportFilterValues): Record<string, string | number> {
  const query: Record<string, string | number> = {};
  if (filters.diagnosticId) query.diagnosticId = filters.diagnosticId;
  if (filters.subjectTestId) query.subjectTestId = filters.subjectTestId;
  if (filters.schoolId) query.schoolId = filters.schoolId;
  if (filters.classId) query.classId = filters.classId;
  if (filters.startDate) query.startDate = filters.startDate;
  if (filters.endDate) query.endDate = filters.endDate;
  return query;
}

export const reportKeys = {
  all: ['reports'] as const,
  report: (kind: string, query: Record<string, QueryValue>) => ['reports', kind, query] as const,
  pick: (role: string, what: string, ...rest: unknown[]) => ['reports', 'pick', role, what, ...rest] as const,
};

export const commonReport = (filters: ReportFilterValues, signal?: AbortSignal) =>
  call('GET /api/reports/common', { query: filterQuery(filters) }, { ...inline, signal });

export const consReport = (
  filters: ReportFilterValues,
  sort: { sort: ConsSort; dir: SortDir },
  signal?: AbortSignal,
) => call('GET /api/reports/cons', { query: { ...filterQuery(filters), ...sort } }, { ...inline, signal });

export const controlReport = (filters: ReportFilterValues, signal?: AbortSignal) =>
  call('GET /api/reports/control', { query: filterQuery(filters) }, { ...inline, signal });

/** One page of the detailed rows (the server pages them; `total` counts every page). */
export const detailedReport = (
  filters: ReportFilterValues,
  paging: { page: number; pageSize: number },
  signal?: AbortSignal,
) =>
  call('GET /api/reports/detailed', { query: { ...filterQuery(filters), ...paging } }, { ...inline, signal });

export const specificationReport = (
  filters: ReportFilterValues,
  specId: number | null,
  signal?: AbortSignal,
) =>
  call(
    'GET /api/reports/specification',
    { query: { ...filterQuery(filters), ...(specId ? { specId } : {}) } },
    { ...inline, signal },
  );

export interface ProtocolRoom {
  diagnosticId: number;
  classId: number | null;
  buildingId: number | null;
  subjectTestId?: number | null;
}

const protocolQuery = (room: ProtocolRoom) => ({
  diagnosticId: room.diagnosticId,
  ...(room.classId ? { classId: room.classId } : {}),
  ...(room.buildingId ? { buildingId: room.buildingId } : {}),
  ...(room.subjectTestId ? { subjectTestId: room.subjectTestId } : {}),
});

/** The protocol's data as JSON, for the preview before the PDF. */
export const protocolReport = (room: ProtocolRoom, signal?: AbortSignal) =>
  call(
    'GET /api/reports/diagnostic/protocol',
    { query: { ...protocolQuery(room), format: 'json' } },
    { ...inline, signal },
  );

/** A download: the path of its call and the query that names the file. */
export interface ReportFile {
  path: string;
  query: Record<string, string | number>;
  fallbackName: string;
}

type FileReport = 'common' | 'cons' | 'control' | 'detailed' | 'specification';

const FILE_PATHS: Record<FileReport, () => string> = {
  common: () => callPath('GET /api/reports/common'),
  cons: () => callPath('GET /api/reports/cons'),
  control: () => callPath('GET /api/reports/control'),
  detailed: () => callPath('GET /api/reports/detailed'),
  specification: () => callPath('GET /api/reports/specification'),
};

export function reportFile(
  report: FileReport,
  format: 'xlsx' | 'pdf',
  filters: ReportFilterValues,
  extra: Record<string, string | number> = {},
): ReportFile {
  return {
    path: FILE_PATHS[report](),
    query: { ...filterQuery(filters), ...extra, format },
    fallbackName: `${report}.${format}`,
  };
}

export function protocolFile(room: ProtocolRoom): ReportFile {
  return {
    path: callPath('GET /api/reports/diagnostic/protocol'),
    query: { ...protocolQuery(room), format: 'pdf' },
    fallbackName: 'protocol.pdf',
  };
}
