/*
 * Owns: the school work places' shared records: students, places, registrations, and the organizator's assignment scope.
 * Calls: no other module.
 *
 * The school-data module's public face: the students, places and registrations that coordinators
 * and organizators keep. Both work places mount the shared routes; the admin's organisation writes
 * use the same student rows; other modules reuse the organizator's assignment scope. Other modules
 * import this file only.
 */
export { actorOf, registerSchoolDataRoutes } from './school-data.routes.js';
export { deleteStudent, getParticipantTest, getStudent, type Actor } from './school-data.service.js';
export { assignedClassIds, assignedWholeBuildingIds, coordinatorHasSchool } from './school-data.access.js';
export { diagnosticState, hasSubjectTest } from './diagnostics.repo.js';
/** Student rows as the admin's organisation writes keep them (inside the caller's transaction). */
export * as studentStore from './students.repo.js';
