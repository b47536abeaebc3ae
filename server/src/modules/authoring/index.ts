/*
 * Owns: content authoring: subjects, exams, test groups, subject tests, variants, tasks and their publication checks.
 * Calls: content-import, exam-test, expert, files, kim, scoring (each through its index.ts).
 *
 * The authoring module's public face: what other modules may use of content authoring. Guests' open
 * tests (modules/open-tests) refuse a new attempt at a test whose items a secure test still uses.
 * Other modules import this file only.
 */
export { assertNoSecureItems, openTestConflicts } from './open-exposure.js';
export { authoringRoutes } from './authoring.routes.js';
