/** Turns contract validation issues and server errors into messages in the interface language. */
import type { TFunction } from 'i18next';
import { ERROR_CODES, type ErrorCode, type FieldError } from '@attesta/contract';
import { ApiError } from './api-client';
import { formatDuration } from './format';
import { currentLanguage } from './i18n';

export type FieldErrors = Record<string, string>;

/** The app's `t`, or a feature's looser one over the same i18n instance. */
export type AnyT = TFunction | ((key: never, options?: never) => string);

/** The part of a zod issue we read; structural, so the web needs no direct zod dependency. */
export interface IssueLike {
  code: string;
  path: readonly PropertyKey[];
  minimum?: unknown;
  maximum?: unknown;
  format?: string;
}

const PASSWORD_FIELDS = new Set(['password', 'newPassword']);

function issueMessage(issue: IssueLike, t: TFunction): string {
  const field = String(issue.path[0] ?? '');
  switch (issue.code) {
    case 'too_small': {
      const min = Number(issue.minimum);
      if (min <= 1) return t('validation.required');
      return PASSWORD_FIELDS.has(field)
        ? t('validation.passwordMin', { min })
        : t('validation.minLength', { min });
    }
    case 'too_big':
      return t('validation.maxLength', { max: Number(issue.maximum) });
    case 'invalid_format':
      if (issue.format === 'email') return t('validation.email');
      if (field === 'activationCode') return t('validation.activationCode');
      return t('validation.invalid');
    case 'invalid_type':
      return t('validation.required');
    default:
      return t('validation.invalid');
  }
}

/** First message per top-level field of a failed contract schema check. */
export function zodFieldErrors(error: { issues: readonly IssueLike[] }, t: TFunction): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issueMessage(issue, t);
  }
  return errors;
}

const KNOWN_CODES = new Set<string>(ERROR_CODES);

/** Whether the code of an error has its own text (every code of the contract has). */
export const isKnownErrorCode = (code: string): code is ErrorCode => KNOWN_CODES.has(code);

/**
 * A sentence for an error of the API in the interface language, chosen by its `code` — never the
 * server's English `message`. A failure to reach the server says so; an unknown code says only
 * its status.
 */
export function describeApiError(error: unknown, anyT: AnyT): string {
  const t = anyT as unknown as TFunction;
  if (!(error instanceof ApiError)) return t('apiErrors.unexpected');
  if (error.isNetworkError) return t('apiErrors.network');
  if (error.code === 'too_many_requests' && error.retryAfterSeconds !== null)
    return t('apiErrors.tooManyRequests', {
      time: formatDuration(error.retryAfterSeconds, currentLanguage()),
    });
  if (error.code === 'proof_of_work_invalid') return t('apiErrors.proofOfWorkInvalid');
  if (isKnownErrorCode(error.code)) return t(`apiErrors.codes.${error.code}`);
  return t('apiErrors.unknown', { status: error.status });
}

/**
 * The sentence for an error code stored with a record (a queue item's `errorCode`) in the interface
 * language; a code this client does not know reads as an unexpected failure.
 */
export function describeErrorCode(code: string, anyT: AnyT): string {
  const t = anyT as unknown as TFunction;
  return isKnownErrorCode(code) ? t(`apiErrors.codes.${code}`) : t('apiErrors.unexpected');
}

/** Validation issue codes the form messages above know (zod's). */
const ISSUE_CODES = new Set([
  'too_small',
  'too_big',
  'invalid_format',
  'invalid_type',
  'invalid_value',
  'custom',
]);

/**
 * A field error of the API in the interface language: by its `code` (a validation issue or a rule
 * of the call) with its `params`, and the row of an import it belongs to; never the server's
 * English `message`.
 */
export function describeFieldError(error: FieldError, anyT: AnyT): string {
  const t = anyT as unknown as TFunction;
  // Calendar days the server names (yyyy-mm-dd: a window's first and last day) read as dd.mm.yyyy.
  const params = Object.fromEntries(
    Object.entries(error.params ?? {}).map(([k, v]) => [k, typeof v === 'string' ? displayDay(v) : v]),
  );
  const field = typeof params.field === 'string' ? params.field : (error.path.split('.').pop() ?? '');
  let text: string;
  if (error.code && ISSUE_CODES.has(error.code))
    text = issueMessage(
      {
        code: error.code,
        path: [field],
        minimum: params.minimum,
        maximum: params.maximum,
        format: params.format as string | undefined,
      },
      t,
    );
  else if (error.code && FIELD_CODES.has(error.code))
    text = t(`fieldErrors.codes.${error.code as FieldCode}`, params);
  else text = t('validation.invalid');
  // A refusal about someone names them, whether or not the code's text does.
  if (typeof params.name === 'string' && params.name && !text.includes(params.name))
    text = `${params.name}: ${text}`;
  if (params.row === undefined) return text;
  const label = t(`fieldErrors.fields.${field}`, { defaultValue: field });
  return field
    ? t('fieldErrors.row', { row: params.row, field: label, text })
    : t('fieldErrors.rowOnly', { row: params.row, text });
}

const displayDay = (v: string) => {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  return day ? `${day[3]}.${day[2]}.${day[1]}` : v;
};

/** Field errors keyed by field name (the server writes paths like `body.email`), in the interface language. */
export function fieldErrorMap(errors: readonly FieldError[], t: AnyT): FieldErrors {
  const map: FieldErrors = {};
  for (const e of errors) map[e.path.replace(/^body\./, '').split('.')[0]!] ??= describeFieldError(e, t);
  return map;
}

const FIELD_CODE_LIST = [
  'not_in_diagnostic',
  'outside_window',
  'no_school',
  'no_class',
  'other_school',
  'school_not_in_diagnostic',
  'student_without_class',
  'grade_not_in_test',
  'grade_not_in_diagnostic',
  'building_of_other_school',
] as const;
type FieldCode = (typeof FIELD_CODE_LIST)[number];
const FIELD_CODES = new Set<string>(FIELD_CODE_LIST);
