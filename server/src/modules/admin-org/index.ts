/*
 * Owns: the admin's organisation records beyond the specification: ОО, schools, buildings, classes, students and every diagnostic with its counts.
 * Calls: areas, school-data (each through its index.ts).
 * Other modules and the route registry (modules/index.ts) import this file only.
 */
export { adminOrgRoutes } from './admin-org.routes.js';
