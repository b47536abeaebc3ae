/**
 * The admin's exports to other systems (docs/reports.md, "Exports to other systems"): published
 * results for the upstream Attesta and marks for the MRKO journal, as CSV or xlsx.
 */
import { callPath } from '../../../lib/call';
import type { ReportFilterValues } from '../lib/filters';
import type { ReportFile } from './reports';

export type ExportKind = 'attesta' | 'mrko';

const PATHS: Record<ExportKind, () => string> = {
  attesta: () => callPath('GET /api/reports/attesta'),
  mrko: () => callPath('GET /api/reports/mrko'),
};

/** The exports take every filter but the class. */
export function exportFile(
  kind: ExportKind,
  format: 'csv' | 'xlsx',
  filters: ReportFilterValues,
): ReportFile {
  const query: Record<string, string | number> = {};
  if (filters.diagnosticId) query.diagnosticId = filters.diagnosticId;
  if (filters.subjectTestId) query.subjectTestId = filters.subjectTestId;
  if (filters.schoolId) query.schoolId = filters.schoolId;
  if (filters.startDate) query.startDate = filters.startDate;
  if (filters.endDate) query.endDate = filters.endDate;
  return { path: PATHS[kind](), query: { ...query, format }, fallbackName: `${kind}.${format}` };
}
