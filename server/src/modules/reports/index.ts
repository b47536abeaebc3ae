/**
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
