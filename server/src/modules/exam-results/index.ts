/*
 * Owns: results of finished works: scoring jobs, regrade, publication, result PDFs and their verification.
 * Calls: create-diagnostic, exam-test, expert, participant-test, reports, scoring (each through its index.ts).
 * (reports: the scaled score of a result under an adopted equating table.)
 *
 * The exam-results module's public face: what other modules may use of results. The open tests of
 * guests (modules/open-tests) read an attempt's result with the same rules and presenters as the
 * participant's result page, and score a finished attempt at once instead of waiting for its job.
 */
export { getResult, resultVariant, toExamResult } from './results.read.js';
export { scoreWork } from './results.service.js';
export { resultVerifyRoutes } from './verify.js';
export { regradeRoutes } from './regrade.routes.js';
export { examResultsRoutes } from './exam-results.routes.js';
