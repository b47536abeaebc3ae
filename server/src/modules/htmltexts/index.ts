/*
 * Owns: html texts and help sections by role and page, and the admin's editing of both.
 * Calls: no other module.
 * Other modules and the route registry (modules/index.ts) import this file only.
 */
export { htmlTextsRoutes } from './htmltexts.routes.js';
export { helpRoutes } from './help.routes.js';
