/*
 * Owns: worker tests: staff who take tests as participants.
 * Calls: no other module.
 * Other modules and the route registry (modules/index.ts) import this file only.
 */
export { workerRoutes } from './worker.routes.js';
