/*
 * The integration module's public face: what other modules may use of its rules. Other modules
 * import this file only.
 */
export { positionIdsByName } from './integration.service.js';
// The API-key scope rule and the key's ОО: the upstream push (signed-integration) is a key call too.
export { keyScope, ooOf } from './integration.access.js';
