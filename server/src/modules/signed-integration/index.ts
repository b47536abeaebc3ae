/*
 * Owns: HMAC-signed machine calls: the proctoring webhooks.
 * Calls: exam-test, integration, reports (each through its index.ts).
 * Other modules and the route registry (modules/index.ts) import this file only.
 */
export { signedIntegrationRoutes } from './signed-integration.routes.js';
