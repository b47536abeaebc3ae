/*
 * The participant-test module's public face: the list of participant tests (the supervision
 * authority lists its own through it) and the queue item as staff see it. Other modules import
 * this file only.
 */
export { listParticipantTests } from './list.repo.js';
export { presentQueueItem } from './queue.service.js';
