/*
 * Owns: the live room view, the participant's own stream, integrity events and a sitting's event log.
 * Calls: exam-test, school-data (each through its index.ts).
 * Other modules and the route registry (modules/index.ts) import this file only.
 */
export { monitoringRoutes } from './monitoring.routes.js';
