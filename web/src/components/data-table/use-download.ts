import { notifications } from '../lite/notify';
import { useCallback } from 'react';
import { ApiError, type QueryValue, isSessionGone } from '../../lib/api-client';
import { downloadFile } from './download';
import { dataTableBundle } from './locales';
import { useBundleT } from './use-bundle-t';
import { describeApiError } from '../../lib/form-errors';

/** A download for a LoadingButton: a failure is a notice (a gone session has left for the unauthorized page). */
export function useDownload() {
  const { t } = useBundleT(dataTableBundle);
  return useCallback(
    async (path: string, query: Record<string, QueryValue> | undefined, fallbackName: string) => {
      try {
        await downloadFile(path, query, fallbackName);
      } catch (error) {
        if (isSessionGone(error)) return;
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
