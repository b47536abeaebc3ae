/*
 * Owns: guests' open tests: the list, attempts and their results.
 * Calls: authoring, exam-results, exam-test (each through its index.ts).
 * Other modules and the route registry (modules/index.ts) import this file only.
 */
export { openTestRoutes } from './open-tests.routes.js';
