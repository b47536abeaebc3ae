/*
 * Owns: scanned answer sheets: upload, recognition, saving what is read and the review of doubtful marks.
 * Calls: exam-test, files (each through its index.ts).
 * Other modules and the route registry (modules/index.ts) import this file only.
 */
export { scansRoutes } from './scans.routes.js';
