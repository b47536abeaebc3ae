/*
 * The integration module's public face: what other modules may use of its rules. Other modules
 * import this file only.
 */
export { positionIdsByName } from './integration.service.js';
