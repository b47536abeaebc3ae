import { z } from 'zod';

/** Stable, machine-readable error codes (DESIGN.md §8). */
export const ERROR_CODES = [
  'bad_request',
  'validation_failed',
  'malformed_json',
  'unsupported_media_type',
  'unauthorized',
  'session_expired',
  'invalid_credentials',
  'invalid_activation_code',
  'account_blocked',
  'email_not_confirmed',
  'invalid_token',
  'forbidden',
  'csrf',
  'bad_signature',
  'not_found',
  'conflict',
  'login_taken',
  'email_taken',
  'deadline_passed',
  'work_finished',
  'stale_sequence',
  'payload_too_large',
  'unprocessable',
  'too_many_requests',
  'not_implemented',
  'not_configured',
  'internal_error',
  'service_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number] | (string & {});

export const fieldErrorSchema = z.object({
  path: z.string().describe('dotted path of the offending field, e.g. `body.login`'),
  message: z.string(),
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
