/*
 * Owns: the regional supervision authority's calls over its area.
 * Calls: create-diagnostic, participant-test (each through its index.ts).
 * Other modules and the route registry (modules/index.ts) import this file only.
 */
export { ugnikRoutes } from './ugnik.routes.js';
