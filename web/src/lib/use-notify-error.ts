import { notifications } from '../components/lite/notify';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { isSessionGone } from './api-client';
import { describeApiError } from './form-errors';

/**
 * For actions outside forms: a refusal is a notice said by its code. A gone session has already
 * left for the unauthorized page (the API client's rule), so it gets no notice.
 */
export function useNotifyError() {
  const { t } = useTranslation();
  return useCallback(
    (error: unknown) => {
      if (isSessionGone(error)) return;
      notifications.show({ color: 'red', message: describeApiError(error, t) });
    },
    [t],
  );
}
