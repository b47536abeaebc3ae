/*
 * The account module's public face: what other modules may use of accounts. Other modules import
 * this file only.
 */
export { sendPasswordSetupMails } from './account.service.js';
