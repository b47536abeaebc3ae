import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function FullPageLoader() {
  const { t } = useTranslation();
  return (
    <Center mih="60vh" role="status" aria-live="polite">
      <Loader aria-label={t('app.loading')} />
    </Center>
  );
}
