/*
 * Owns: participant tests: cards, lists, sessions, impersonal codes, XML import, restore, queue and planning.
 * Calls: create-diagnostic (each through its index.ts).
 *
 * The participant-test module's public face: the list of participant tests (the supervision
 * authority lists its own through it) and the queue item as staff see it. Other modules import
 * this file only.
 */
export { listParticipantTests } from './list.repo.js';
export { presentQueueItem } from './queue.service.js';
export { participantTestInfoRoutes } from './info.routes.js';
export { participantTestListRoutes } from './list.routes.js';
export { participantTestSessionRoutes } from './session.routes.js';
export { participantTestImpersonalRoutes } from './impersonal.routes.js';
export { participantTestImportRoutes } from './import-xml.routes.js';
export { participantTestRestoreRoutes } from './restore.routes.js';
export { participantTestQueueRoutes } from './queue.routes.js';
