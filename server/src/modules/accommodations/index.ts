/*
 * Owns: students' and workers' accommodations profiles (extra time, large text, theme, line reader, magnifier, read-aloud, rest breaks), set by admins and by coordinators for their own school.
 * Calls: no other module.
 * Other modules and the route registry (modules/index.ts) import this file only.
 */
export { accommodationRoutes } from './accommodations.routes.js';
