import { Button, Group, Stack, Text } from '../../../components/lite/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageTitle data-testid="not-found-title">{t('pages.notFound.title')}</PageTitle>
      <Text>{t('pages.notFound.text')}</Text>
      <Group>
        <Button component={Link} to="/">
          {t('pages.notFound.home')}
        </Button>
      </Group>
    </Stack>
  );
}
