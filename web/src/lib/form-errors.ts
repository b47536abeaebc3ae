/** Turns contract validation issues and server errors into messages in the interface language. */
import type { TFunction } from 'i18next';
import { ApiError } from './api-client';
import { formatDuration } from './format';
import { currentLanguage } from './i18n';

export type FieldErrors = Record<string, string>;

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

/** A sentence for an error of the API, for a form's alert. */
export function describeApiError(error: unknown, t: TFunction): string {
  if (!(error instanceof ApiError)) return t('apiErrors.generic', { message: String(error) });
  if (error.isNetworkError) return t('apiErrors.network');
  switch (error.code) {
    case 'invalid_credentials':
      return t('apiErrors.invalidCredentials');
    case 'invalid_activation_code':
      return t('apiErrors.invalidActivationCode');
    case 'too_many_requests':
      return error.retryAfterSeconds !== null
        ? t('apiErrors.tooManyRequests', { time: formatDuration(error.retryAfterSeconds, currentLanguage()) })
        : t('apiErrors.tooManyRequestsNoTime');
    case 'account_blocked':
      return t('apiErrors.accountBlocked');
    case 'email_not_confirmed':
      return t('apiErrors.emailNotConfirmed');
    case 'invalid_token':
      return t('apiErrors.invalidToken');
    case 'email_taken':
      return t('apiErrors.emailTaken');
    case 'login_taken':
      return t('apiErrors.loginTaken');
    case 'validation_failed':
      return t('apiErrors.validationFailed');
    default:
      return t('apiErrors.generic', { message: error.message });
  }
}
