/*
 * Owns: the coordinator's school work place: staff, students, classes and registrations of their own school.
 * Calls: school-data, user (each through its index.ts).
 *
 * The coordinator module's public face: what other modules may use of its staff rules (who a
 * coordinator may manage, how a staff member's worker row and account are written). Other modules
 * import this file only.
 */
export {
  createStaffAccount,
  manageableByCoordinator,
  saveStaffWorker,
  updateStaffAccount,
  type StaffAccountValues,
  type StaffWorkerValues,
} from './organizator.service.js';
export { coordinatorRoutes } from './coordinator.routes.js';
