import { Alert, Button, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { apiClient, ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import { useContentT } from '../locales';

/** A read that failed: said by its code (a gone session goes to log in), with a retry. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const t = useContentT();
  const { t: appT } = useTranslation();
  useEffect(() => {
    if (error instanceof ApiError && error.status === 401) apiClient.redirectFor(error);
  }, [error]);
  return (
    <Alert color="red" role="alert" data-testid="load-error">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t('common.loadFailed', { message: describeApiError(error, appT) })}</Text>
        {onRetry && (
          <Button size="xs" variant="light" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
