/*
 * Owns: expert grading (blind double and third marking), the expert profile and the admin's assignment of experts.
 * Calls: create-diagnostic, files (each through its index.ts).
 *
 * The expert module's public face: results hand finished works to graders, a grader's new profile
 * takes the answers waiting for it, result pages show what a final mark is made of, and authoring
 * asks whether a subject test has experts enough. Other modules import this file only.
 */
export { assignExperts, assignExpertsMany, assignPending, expertProfileOf } from './grading.service.js';
export { finalGradingOf, type FinalGrading } from './final-grading.js';
// An expert's own profile is shown like the admin's view of it; a subject test's check before
// publication says whether experts can grade its expert-graded tasks.
export { expertProfileView, subjectTestCoverage } from './assignment.service.js';
export { expertRoutes } from './expert.routes.js';
export { expertAssignmentRoutes } from './assignment.routes.js';
