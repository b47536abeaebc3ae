import { z } from 'zod';

/**
 * A subject test's rules for a participant's own pauses (staff pauses are not limited): allowed at
 * all, at most `maxCount` pauses and `maxMinutes` minutes in all per work. Beyond them a pause
 * answers 409 `pause_limit`, and a pause in force ends by itself when the minutes run out.
 */
export const pausePolicySchema = z
  .strictObject({
    allowed: z.boolean(),
    maxCount: z.number().int().min(0).max(20).describe('pauses per work'),
    maxMinutes: z.number().int().min(0).max(240).describe('minutes of own pauses per work, in all'),
  })
  .meta({ id: 'PausePolicy' });
export type PausePolicy = z.infer<typeof pausePolicySchema>;

/** The defaults of a new subject test (the migration's column defaults). */
export const DEFAULT_PAUSE_POLICY: PausePolicy = { allowed: true, maxCount: 3, maxMinutes: 15 };

export * from './authoring-calls.js';
