/*
 * Owns: the exam work's lifecycle and zero-loss saves, the catalog, paper answer forms and proctoring tokens.
 * Calls: files (each through its index.ts).
 *
 * The exam-test module's public face: what other modules may use of exam works. Results read a
 * work's variant, answers and participant; monitoring shows the clock by the same deadline rules.
 * Other modules import this file only.
 */
export {
  answersOf,
  answersOfWorks,
  findParticipantPerson,
  findVariant,
  findWork,
  lockWorkForUpdate,
  lockWorksForUpdate,
  taskFilesOf,
  variantTasksOf,
} from './exam-work.repo.js';
export { toParticipantVariant, type TaskRow } from './presenter.js';
export { effectiveDeadline, isPastDeadline, secondsLeft } from '../../lib/work-clock.js';
export { forgetContent } from './content-cache.js';
export { forgetVariantUse } from './variant-spread.js';
export { verifyProctoringToken, type ProctoringClaims } from './proctoring.service.js';
// The open tests of guests start (or resume) the work of an attempt as the runner's start does.
export { startWork, subjectTestSummary, type Actor as WorkActor } from './exam-work.service.js';
export { deviceIdOf } from './work.routes.js';
// The scan reader reads the page codes and the layouts of the answer forms.
export { parseBlankCode, type BlankCode } from './blanks.code.js';
export { layoutVersionOf } from './blanks.sheet.js';
export { blankFormForScan, type BlankFormForScan } from './blanks.service.js';
// Scanned forms' answers are saved as keyed forms are (modules/scans).
export {
  attachPaperScanFile,
  attachPaperScanText,
  finishPaperWork,
  PAPER_TEXT_PLACEHOLDER,
  paperScanState,
  savePaperScan,
  storedPaperAnswers,
} from './paper-scan.service.js';
export { examWorkRoutes } from './work.routes.js';
export { examCatalogRoutes } from './catalog.routes.js';
export { blanksRoutes } from './blanks.routes.js';
export { proctoringRoutes } from './proctoring.routes.js';
