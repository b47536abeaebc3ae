import { notifications } from '@mantine/notifications';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { apiClient, ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';

/** For actions outside forms: a lost session goes to log in, any other refusal is a notice. */
export function useNotifyError() {
  const { t } = useTranslation();
  return useCallback(
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 401) {
        apiClient.redirectFor(error);
        return;
      }
      notifications.show({ color: 'red', message: describeApiError(error, t) });
    },
    [t],
  );
}
