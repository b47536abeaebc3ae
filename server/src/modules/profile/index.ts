/*
 * Owns: guests' and experts' own profiles.
 * Calls: expert (each through its index.ts).
 * Other modules and the route registry (modules/index.ts) import this file only.
 */
export { profileRoutes } from './profile.routes.js';
