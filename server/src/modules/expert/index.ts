/*
 * The expert module's public face: results hand finished works to graders, and a grader's new
 * profile takes the answers waiting for it. Other modules import this file only.
 */
export { assignExperts, assignPending, expertProfileOf } from './grading.service.js';
