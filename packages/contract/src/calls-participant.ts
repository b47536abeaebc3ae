/**
 * Small schemas many areas' calls share (`calls/<area>.ts`): a path's `{id}`, a staff reason, a
 * registration code, a list of work ids. Free of the calls themselves, so any area may import it.
 */
import { z } from 'zod';
import { idParamSchema } from './user.js';

/** `{id}` of a path, as a positive integer. */
export const idPathSchema = z.strictObject({ id: idParamSchema });
/** An optional reason staff give for an action (audited). */
export const reasonTextSchema = z.string().trim().max(500).optional();
/** Staff keying in a paper answer form name the participant test by its registration code. */
export const registrationQuerySchema = z.strictObject({
  registrationCode: z.string().trim().min(1).max(32).optional().describe('staff keying in a paper form'),
});
/** `ids=1,2,3`: exam work ids, each once. */
export const workIdListSchema = z
  .string()
  .regex(/^\d{1,10}(,\d{1,10}){0,999}$/, 'comma-separated exam work ids')
  .transform((s) => [...new Set(s.split(',').map(Number))])
  .pipe(z.array(z.number().int().positive().max(2_147_483_647)));
