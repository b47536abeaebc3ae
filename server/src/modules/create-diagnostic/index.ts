/*
 * Owns: diagnostics: their creation, Excel, which are live and whom they include.
 * Calls: no other module.
 *
 * The create-diagnostic module's public face: which diagnostics are live and whom they include
 * (planning, queues, publication and code slips ask), and the participant rows of a diagnostic.
 * Other modules import this file only.
 */
export {
  coordinatorReaches,
  diagnosticIncludesSchool,
  includesSchool,
  liveDiagnostic,
  type DiagnosticRow,
} from './create-diagnostic.access.js';
export { PARTICIPANT_COLUMNS, participantRows, type ParticipantRow } from './participants.repo.js';
export { diagnosticFields } from './create-diagnostic.service.js';
export { createDiagnosticRoutes } from './create-diagnostic.routes.js';
