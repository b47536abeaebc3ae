/*
 * Owns: users: their records, the device check and login/e-mail uniqueness.
 * Calls: areas (each through its index.ts).
 *
 * The user module's public face: what other modules may use of users. Other modules import this
 * file only, never the module's repo or service directly.
 */
export { assertLoginAndEmailFree, rethrowAppError as rethrowUniqueConflict } from './user.service.js';
export { userRoutes } from './user.routes.js';
