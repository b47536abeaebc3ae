/** Schemas of the admin's calls that no area's schema file holds: a path's `{id}` and the regrade's request and answer. */
import { z } from 'zod';
import { idParamSchema } from './user.js';

/** `{id}` of a path (the same shape as `idPathSchema`; the admin's calls have always used this object). */
export const idPath = z.strictObject({ id: idParamSchema });

/** POST /api/results/regrade: what to score again after a key was corrected. */
export const regradeRequestSchema = z
  .strictObject({
    subjectTestId: z.number().int().positive().optional(),
    variantTaskId: z.number().int().positive().optional(),
    reason: z.string().trim().max(500).optional(),
  })
  .refine((b) => b.subjectTestId !== undefined || b.variantTaskId !== undefined, {
    message: 'name a subjectTestId or a variantTaskId',
  })
  .meta({ id: 'RegradeRequest' });
export type RegradeRequest = z.infer<typeof regradeRequestSchema>;

export const regradeQueuedSchema = z
  .object({
    queueItemId: z.number().int(),
    status: z.string(),
    created: z.boolean().describe('false: an equal regrade was already waiting, and this is it'),
  })
  .meta({ id: 'RegradeQueued' });
export type RegradeQueued = z.infer<typeof regradeQueuedSchema>;
