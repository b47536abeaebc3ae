import { Alert, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { verifyKeys, verifyResult } from '../api/verify-api';
import { resultsBundle } from '../locales';

/** /verify/:code — where the QR code of a result PDF leads: anyone can check the document. */
export function VerifyPage() {
  const { t } = useBundleT(resultsBundle);
  const { code = '' } = useParams();
  const query = useQuery({
    queryKey: verifyKeys.verify(code),
    queryFn: ({ signal }) => verifyResult(code, signal),
  });
  const v = query.data;
  return (
    <Paper withBorder p="lg" radius="md" maw={640} mx="auto" data-testid="verify-page">
      <Stack gap="sm">
        <PageTitle>{t('results.verify.title')}</PageTitle>
        <Text c="dimmed">{t('results.verify.code', { code })}</Text>
        {query.isError && <Alert color="red">{t('results.verify.failed')}</Alert>}
        {v && !v.valid && (
          <Alert color="red" data-testid="verify-unknown">
            {t('results.verify.unknown')}
          </Alert>
        )}
        {v?.valid && !v.published && <Alert color="yellow">{t('results.verify.notPublished')}</Alert>}
        {v?.valid && v.published && (
          <Alert color="green" data-testid="verify-genuine">
            <Text fw={600}>{t('results.verify.genuine')}</Text>
            <Text>
              {t('results.verify.details', {
                participant: v.participant ?? '—',
                test: v.subjectTestName ?? '',
                date: v.testDate?.split('-').reverse().join('.') ?? '',
                score: String(v.primaryScore ?? '').replace('.', ','),
                max: String(v.maxScore ?? '').replace('.', ','),
                mark: v.mark ?? '—',
              })}
            </Text>
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
