/**
 * `/guest/attempts/:id`: a guest's finished attempt at an open test — shown as soon as it is
 * finished, with the answers given and the correct ones (docs/open-tests.md).
 */
import { Alert, Anchor, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { PageTitle } from '../../../components/ui/page-title';
import { ApiError } from '../../../lib/api-client';
import { formatDisplayDateTime, type Language } from '../../../lib/format';
import { describeApiError } from '../../../lib/form-errors';
import { getOpenAttempt, resultsKeys } from '../api/results-api';
import { resultsBundle } from '../locales';
import { ResultView } from './result-page';

export function OpenAttemptPage() {
  const { t, i18n } = useBundleT(resultsBundle);
  const lang = (i18n.language === 'en' ? 'en' : 'ru') as Language;
  const id = Number(useParams().id);
  const attempt = useQuery({
    queryKey: resultsKeys.attempt(id),
    queryFn: ({ signal }) => getOpenAttempt(id, signal),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
  const data = attempt.data;
  const title = data
    ? t('results.attempt.titleOf', { name: data.subjectTestName })
    : t('results.attempt.title');

  let body: ReactNode = null;
  const error = attempt.error instanceof ApiError ? attempt.error : null;
  if (attempt.isLoading) body = <Loader aria-label={t('results.attempt.title')} />;
  else if (error?.code === 'work_not_finished')
    body = (
      <Alert color="blue" variant="light" data-testid="attempt-not-finished">
        {t('results.attempt.notFinished')}
      </Alert>
    );
  else if (attempt.error)
    body = (
      <Alert color="red" variant="light" data-testid="attempt-error">
        {t('results.attempt.failed', { message: describeApiError(attempt.error, t) })}
      </Alert>
    );
  else if (data)
    body = (
      <>
        {data.attempt.finishedAt && (
          <Text c="dimmed" data-testid="attempt-finished-at">
            {t('results.attempt.finishedAt', {
              date: formatDisplayDateTime(new Date(data.attempt.finishedAt)),
            })}
          </Text>
        )}
        <ResultView result={data.result} variant={data.variant} t={t} lang={lang} pdf={false} />
      </>
    );

  return (
    <Stack gap="lg" maw={960} data-testid="open-attempt-page">
      <PageTitle documentTitle={title}>{title}</PageTitle>
      <Anchor component={Link} to="/guest" data-testid="attempt-back">
        {t('results.attempt.back')}
      </Anchor>
      {body}
    </Stack>
  );
}
