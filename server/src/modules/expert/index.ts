/*
 * The expert module's public face: results hand finished works to graders, a grader's new profile
 * takes the answers waiting for it, and result pages show what a final mark is made of. Other
 * modules import this file only.
 */
export { assignExperts, assignExpertsMany, assignPending, expertProfileOf } from './grading.service.js';
export { finalGradingOf, type FinalGrading } from './final-grading.js';
