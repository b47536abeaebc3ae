/*
 * The school-data repositories, by what they hold: students, places (classes, buildings,
 * parallels), diagnostics and participant tests. Re-exported here for the module's services.
 */
export * from './repo-support.js';
export * from './students.repo.js';
export * from './places.repo.js';
export * from './diagnostics.repo.js';
export * from './participant-tests.repo.js';
