/*
 * Owns: the audit trail read back for the admin (rows are written by each change's own transaction through lib/audit.ts).
 * Calls: no other module.
 * Other modules and the route registry (modules/index.ts) import this file only.
 */
export { auditTrailRoutes } from './audit-trail.routes.js';
