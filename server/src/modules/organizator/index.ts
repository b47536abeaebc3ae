/*
 * Owns: the organizator's work place: their assigned classes and registrations.
 * Calls: school-data (each through its index.ts).
 * Other modules and the route registry (modules/index.ts) import this file only.
 */
export { organizatorRoutes } from './organizator.routes.js';
