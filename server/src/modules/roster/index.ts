/*
 * Owns: roster imports of students and staff from one .xlsx or .csv.
 * Calls: account, coordinator, files, integration (each through its index.ts).
 * Other modules and the route registry (modules/index.ts) import this file only.
 */
export { rosterRoutes } from './roster.routes.js';
