/*
 * Owns: integrations by API key: the admin's keys, their scopes and the calls they open.
 * Calls: reports (each through its index.ts).
 *
 * The integration module's public face: what other modules may use of its rules. Other modules
 * import this file only.
 */
export { positionIdsByName } from './integration.service.js';
// The API-key scope rule and the key's ОО: the upstream push (signed-integration) is a key call too.
export { keyScope, ooOf } from './integration.access.js';
export { integrationRoutes } from './integration.routes.js';
