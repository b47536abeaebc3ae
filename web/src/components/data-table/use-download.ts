import { notifications } from '@mantine/notifications';
import { useCallback } from 'react';
import { apiClient, ApiError, type QueryValue } from '../../lib/api-client';
import { downloadFile } from './download';
import { dataTableBundle } from './locales';
import { useBundleT } from './use-bundle-t';
import { describeApiError } from '../../lib/form-errors';

/** A download for a LoadingButton: 401 goes to the unauthorized page, anything else is a notice. */
export function useDownload() {
  const { t } = useBundleT(dataTableBundle);
  return useCallback(
    async (path: string, query: Record<string, QueryValue> | undefined, fallbackName: string) => {
      try {
        await downloadFile(path, query, fallbackName);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          apiClient.redirectFor(error);
          return;
        }
        notifications.show({
          color: 'red',
          message: t('dataTable.downloadFailed', {
            message:
              error instanceof ApiError && error.status === 403
                ? t('dataTable.forbidden')
                : describeApiError(error, t),
          }),
        });
      }
    },
    [t],
  );
}
