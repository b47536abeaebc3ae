import { z } from 'zod';

/** Stable, machine-readable error codes (docs/design.md §8). */
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
  'storage_quota_exceeded',
  'payload_too_large',
  'unprocessable',
  'too_many_requests',
  'not_implemented',
  'not_configured',
  'internal_error',
  'invalid_text',
  'request_header_too_large',
  'request_timeout',
  'service_unavailable',
  // Codes of particular calls (each module's rules; the type makes a code outside this list a
  // compile error, so the list is complete).
  'account_conflict',
  'activation_code_not_active',
  'blank_not_allowed',
  'card_locked',
  'class_exists',
  'class_has_students',
  'class_in_use',
  'code_taken',
  'container_file_refused',
  'container_no_entry',
  'content_invalid',
  'device_mismatch',
  'duplicate_student',
  'grading_closed',
  'grading_incomplete',
  'has_exam_work',
  'has_exam_works',
  'has_participant_tests',
  'https_required',
  'import_invalid',
  'invalid_answer',
  'invalid_date',
  'invalid_date_range',
  'invalid_external_token',
  'invalid_marks',
  'invalid_pdf',
  'invalid_quiz_answer',
  'invalid_score',
  'invalid_task',
  'invalid_time_span',
  'invalid_url',
  'job_failed',
  'job_interrupted',
  'live_work_exists',
  'no_exam_work',
  'no_file',
  'no_finished_work',
  'no_participant_test',
  'no_result',
  'no_variant',
  'not_allowed',
  'not_deleted',
  'package_too_large',
  'package_unsafe',
  'participant_test_annulled',
  'participant_test_started',
  'password_not_set',
  'password_unchanged',
  'pause_limit',
  'paused_by_staff',
  'pool_too_small',
  'proof_of_work_invalid',
  'proof_of_work_required',
  'results_not_published',
  'school_code_taken',
  'self_lockout',
  'student_has_participant_tests',
  'task_not_in_variant',
  'too_many_files',
  'too_many_pages',
  'unknown_provider',
  'unknown_subject',
  'unsupported_file_type',
  'unsupported_format',
  'upstream_failed',
  'upstream_timeout',
  'url_not_allowed',
  'window_closed',
  'window_not_open',
  'work_deleted',
  'work_in_progress',
  'work_not_finished',
  'work_paused',
  'worker_blocked',
  'wrong_password',
  'xml_doctype_forbidden',
  'xml_encoding',
  'xml_invalid',
  'xml_malformed',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
/** One of ERROR_CODES: what went wrong, machine-readable; interfaces show a text chosen by it. */
export const errorCodeSchema = z.enum(ERROR_CODES).meta({ id: 'ErrorCode' });
const ERROR_CODE_SET: ReadonlySet<string> = new Set(ERROR_CODES);
/** Whether a stored or received text is one of ERROR_CODES. */
export const isErrorCode = (code: string): code is ErrorCode => ERROR_CODE_SET.has(code);

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
