import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, isSessionGone } from './api-client';
import {
  describeApiError,
  fieldErrorMap,
  zodFieldErrors,
  type FieldErrors,
  type IssueLike,
} from './form-errors';
import { useIsLoading } from './use-is-loading';

/** The shape of a zod `safeParse` result, structurally. */
export type Checked<T> =
  { success: true; data: T } | { success: false; error: { issues: readonly IssueLike[] } };

/** Codes meaning "the session is gone": even a form that handles its own errors sends the user to log in. */
export interface SubmitOptions {
  /** Errors found outside the schema (e.g. the two passwords differ). */
  extraErrors?: FieldErrors;
  /** Field errors for known error codes (e.g. `email_taken` → the email field). */
  codeToField?: Record<string, { field: string; message: string }>;
}

/**
 * State of a form that validates with a contract schema before sending and shows the server's
 * answer inline: field errors under fields, anything else in one alert. After a failed attempt the
 * first invalid field gets focus, so keyboard and screen-reader users land on what to fix.
 */
export function useApiForm() {
  const { t } = useTranslation();
  const { isLoading, run } = useIsLoading();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // A callback ref kept in state: the returned object then holds no ref object read during render.
  const [formElement, attachForm] = useState<HTMLFormElement | null>(null);

  useEffect(() => {
    if (attempt === 0) return;
    formElement?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt, formElement]);

  const submit = useCallback(
    async <T>(checked: Checked<T>, send: (data: T) => Promise<void>, options: SubmitOptions = {}) => {
      const errors: FieldErrors = {
        ...(checked.success ? {} : zodFieldErrors(checked.error, t)),
        ...options.extraErrors,
      };
      setFormError(null);
      setFieldErrors(errors);
      if (!checked.success || Object.keys(errors).length > 0) {
        setAttempt((n) => n + 1);
        return;
      }
      await run(async () => {
        try {
          await send(checked.data);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          // A gone session has left for the unauthorized page (the API client's rule).
          if (isSessionGone(error)) return;
          const byCode = options.codeToField?.[error.code];
          const serverErrors = {
            ...fieldErrorMap(error.fieldErrors, t),
            ...(byCode ? { [byCode.field]: byCode.message } : {}),
          };
          setFieldErrors(serverErrors);
          if (!byCode) setFormError(describeApiError(error, t));
          setAttempt((n) => n + 1);
        }
      });
    },
    [run, t],
  );

  const clearFieldError = useCallback((field: string) => {
    setFieldErrors((current) => {
      if (!(field in current)) return current;
      const next = { ...current };
      delete next[field];
      return next;
    });
  }, []);

  return { attachForm, isLoading, fieldErrors, formError, submit, clearFieldError };
}
