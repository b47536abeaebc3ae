/**
 * The work is open on another device (the server says so before the runner opens): a runner here
 * would have every save refused, so none opens. The organizer moves the work by resetting the
 * device binding; then «Проверить снова» opens it here.
 */
import { Alert, Button, Stack, Text } from '../../../components/lite/core';
import { useTranslation } from 'react-i18next';

export function OpenElsewhere({ onRecheck, busy }: { onRecheck: () => void; busy?: boolean }) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" variant="light" title={t('runner.elsewhere.title')} data-testid="open-elsewhere">
      <Stack gap="sm" align="flex-start">
        <Text>{t('runner.elsewhere.text')}</Text>
        <Text size="sm">{t('runner.elsewhere.how')}</Text>
        <Button variant="default" onClick={onRecheck} loading={busy} data-testid="open-elsewhere-recheck">
          {t('runner.elsewhere.recheck')}
        </Button>
      </Stack>
    </Alert>
  );
}
