/*
 * Owns: the region's areas: the admin's list and the ugnik's read-only view of its area's school diagnostics.
 * Calls: no other module.
 *
 * The areas module's public face: whether an area exists (the admin's school and user forms).
 */
export { areaExists } from './areas.service.js';
export { areaRoutes } from './areas.routes.js';
