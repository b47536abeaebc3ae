import { z } from 'zod';

// The codes themselves are in a module without zod (error-codes.ts): the web's first chunks name
// them without loading zod (issue 24).
import { ERROR_CODES } from './error-codes.js';
export { ERROR_CODES, isErrorCode, type ErrorCode } from './error-codes.js';
export const errorCodeSchema = z.enum(ERROR_CODES).meta({ id: 'ErrorCode' });

export const fieldErrorSchema = z.object({
  path: z.string().describe('dotted path of the offending field, e.g. `body.login`'),
  message: z.string().describe('for developers (English); interfaces show a text chosen by `code`'),
  code: z
    .string()
    .optional()
    .describe('what is wrong, machine-readable: a validation issue (too_small, invalid_format…) or a rule'),
  params: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .optional()
    .describe('values the text of `code` names (minimum, maximum, format, row, name, grade…)'),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** The one error body every failed call answers with. */
export const errorBodySchema = z
  .object({
    status: z.number().int(),
    code: z.string(),
    message: z.string(),
    errors: z.array(fieldErrorSchema).optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorBodySchema>;
