/**
 * Owns: every report with one scope rule and one filter parser, participant code slips and item analysis.
 * Calls: create-diagnostic, participant-test, school-data, scoring (each through its index.ts).
 *
 * The public face of the reports module: what other modules may use. The integration calls read
 * the admin's exports (published results, the attesta and MRKO layouts) through it.
 */
export {
  attestaData,
  machineExportCsv,
  machineExportPage,
  type ExportTarget,
  type MachineExportScope,
} from './exports.service.js';
export type { ReportFile } from './report-files.js';
export type { ReportCaller } from './summary.service.js';
export { participantCodesRoutes } from './participant-codes.routes.js';
export { itemAnalysisRoutes } from './item-analysis/item-analysis.routes.js';
/** The scaled score of results under an adopted equating table (issue 28), for the results reads. */
export { scaledScores, type ScaledTarget } from './item-analysis/equating.service.js';
export { reportRoutes } from './reports.routes.js';
