/*
 * Owns: users' feedback messages (with at most one file and the page they came from) and their answers.
 * Calls: files (each through its index.ts).
 * Other modules and the route registry (modules/index.ts) import this file only.
 */
export { feedbackRoutes } from './feedback.routes.js';
