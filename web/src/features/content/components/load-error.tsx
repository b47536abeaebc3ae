import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../../lib/form-errors';
import { useContentT } from '../locales';

/** A read that failed: said by its code (a gone session goes to log in), with a retry. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const t = useContentT();
  const { t: appT } = useTranslation();
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
