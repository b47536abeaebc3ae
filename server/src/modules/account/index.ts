/*
 * Owns: sign-in (password, activation code, OIDC), sessions and device cookies, registration, password reset and change.
 * Calls: no other module.
 *
 * The account module's public face: what other modules may use of accounts. Other modules import
 * this file only.
 */
export { sendPasswordSetupMails } from './account.service.js';
export { accountRoutes } from './account.routes.js';
