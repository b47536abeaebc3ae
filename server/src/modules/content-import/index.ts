/**
 * Owns: content import (QTI 2.x/3.0 packages, Moodle XML, GIFT) as queue items, and the QTI 3.0 export.
 * Calls: scoring (each through its index.ts).
 *
 * The content import and export (issue 11): its routes (and the `import` job they register), the
 * parser interface and registry format parsers plug into, and the QTI 3.0 package writer.
 */
export { contentImportRoutes } from './content-import.routes.js';
export { IMPORT_JOB } from './job.js';
export * from './parsers/index.js';
export {
  qti3Package,
  ITEM_WRITERS,
  type ItemWriter,
  type ExportTask,
  type ExportFile,
  type ExportTest,
} from './export/qti3.js';
// The zip safety layer and the SVG allowlist, which the html container uploads reuse (authoring).
export { looksLikeZip, openSafePackage, ZIP_LIMITS, type ZipLimits } from './safety/zip.js';
export { sanitizeSvg } from './safety/media.js';
