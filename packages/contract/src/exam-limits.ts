// Without zod: imported by the web's first chunks (issue 24); exam.ts re-exports them.

/**
 * The largest answer file the runner sends and the server stores: a file task's maxSizeMb is
 * capped by it (server exam-test/upload.ts), and the runner refuses a larger file before sending.
 */
export const ANSWER_FILE_MAX_BYTES = 20 * 1024 * 1024;

/**
 * The largest answer value (its JSON, in UTF-8 bytes) the runner queues and sends. Far below the
 * server's body limit (BODY_LIMIT_BYTES, 1 MB by default), so no save is refused for its size: the
 * runner tells the participant instead of queuing it, and sends batches of at most
 * SAVE_BATCH_MAX_BYTES.
 */
export const ANSWER_VALUE_MAX_BYTES = 256 * 1024;
export const SAVE_BATCH_MAX_BYTES = 512 * 1024;

/** Header the runner sends so a work stays on one device until staff clear the session. */
export const DEVICE_HEADER = 'x-device-id';
