import { Anchor, Stack, Text } from '@mantine/core';
import { PageTitle } from '../../../components/ui/page-title';
import { useAdminT } from '../i18n';

/** `/admin/api-docs`: the OpenAPI description is served by the server itself at /api/docs. */
export function ApiDocsPage() {
  const t = useAdminT();
  return (
    <Stack gap="md">
      <PageTitle>{t('apiDocs.title')}</PageTitle>
      <Text>{t('apiDocs.text')}</Text>
      <Anchor href="/api/docs" target="_blank" rel="noopener noreferrer" data-testid="api-docs-link">
        {t('apiDocs.open')}
      </Anchor>
    </Stack>
  );
}
