/** `/participant/result`: the participant's own result once the diagnostic's results are published. */
import { Alert, Badge, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ExamResult, ResultVariant } from '@attesta/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useDownload } from '../../../components/data-table/use-download';
import { useBundleT, type LooseT } from '../../../components/data-table/use-bundle-t';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { ApiError } from '../../../lib/api-client';
import { formatNumber, type Language } from '../../../lib/format';
import {
  currentParticipantTest,
  getResult,
  getResultVariant,
  resultPdfPath,
  resultsKeys,
} from '../api/results-api';
import { TaskReview } from './task-review';
import { resultsBundle } from '../locales';
import { describeApiError } from '../../../lib/form-errors';

const NOT_PUBLISHED = 'results_not_published';

function failureOf(error: unknown): ApiError | null {
  if (!(error instanceof ApiError)) return null;
  return error;
}

function NotPublished({ t }: { t: LooseT }) {
  return (
    <Alert
      color="blue"
      variant="light"
      data-testid="result-not-published"
      title={t('results.page.notPublished')}
    >
      {t('results.page.notPublishedHint')}
    </Alert>
  );
}

export function ResultPage() {
  const { t, i18n } = useBundleT(resultsBundle);
  const lang = (i18n.language === 'en' ? 'en' : 'ru') as Language;
  const current = useQuery({
    queryKey: resultsKeys.current,
    queryFn: ({ signal }) => currentParticipantTest(signal),
  });
  const pt = current.data;
  const published = pt?.diagnostic.resultsPublished ?? false;
  const result = useQuery({
    queryKey: resultsKeys.result(pt?.id ?? 0),
    queryFn: ({ signal }) => getResult(pt!.id, signal),
    enabled: Boolean(pt && published && pt.examWork),
    retry: false,
  });
  const variant = useQuery({
    queryKey: resultsKeys.variant(result.data?.examWorkId ?? 0),
    queryFn: ({ signal }) => getResultVariant(result.data!.examWorkId, signal),
    enabled: Boolean(result.data),
    retry: false,
  });

  const title = result.data
    ? t('results.page.titleOf', { name: result.data.subjectTestName })
    : t('results.page.title');
  let body: ReactNode;
  const error = failureOf(current.error) ?? failureOf(result.error);
  if (current.isPending || result.isLoading) {
    body = <Loader aria-label={t('results.page.title')} />;
  } else if (pt && !pt.examWork && pt.diagnostic.closedByPublication) {
    // Not started before the results were published: it never can be (docs/design.md §3).
    body = (
      <Alert color="blue" variant="light" data-testid="result-closed" title={t('results.page.closedTitle')}>
        {t('results.page.closed')}
      </Alert>
    );
  } else if (error?.code === NOT_PUBLISHED || (pt && !published)) {
    body = <NotPublished t={t} />;
  } else if (error) {
    body = (
      <Alert color={error.status === 404 ? 'blue' : 'red'} variant="light" data-testid="result-error">
        {error.status === 404
          ? t('results.page.noResult')
          : t('results.page.failed', { message: describeApiError(error, t) })}
      </Alert>
    );
  } else if (pt && !pt.examWork) {
    body = <Alert variant="light">{t('results.page.noWork')}</Alert>;
  } else if (result.data) {
    body = <ResultView result={result.data} variant={variant.data ?? null} t={t} lang={lang} />;
  }

  return (
    <Stack gap="lg" maw={960} data-testid="result-page">
      <PageTitle documentTitle={title}>{title}</PageTitle>
      {body}
    </Stack>
  );
}

/** The totals and the tasks of a result; `pdf`: offer its PDF report (a guest's attempt has none). */
export function ResultView({
  result,
  variant,
  t,
  lang,
  pdf = true,
}: {
  result: ExamResult;
  variant: ResultVariant | null;
  t: LooseT;
  lang: Language;
  pdf?: boolean;
}) {
  const download = useDownload();
  const num = (n: number) => formatNumber(n, lang);
  return (
    <>
      <Paper withBorder p="lg" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              {t('results.page.score')}
            </Text>
            <Text fz="xl" fw={700} data-testid="result-score">
              {t('results.page.scoreValue', { score: num(result.primaryScore), max: num(result.maxScore) })}
            </Text>
          </Stack>
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              {t('results.page.percent')}
            </Text>
            <Text fz="xl" fw={700} data-testid="result-percent">
              {num(result.percent)}&nbsp;%
            </Text>
          </Stack>
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              {t('results.page.mark')}
            </Text>
            <Text fz="xl" fw={700} data-testid="result-mark">
              {result.mark ?? t('results.page.none')}
            </Text>
          </Stack>
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              {t('results.page.level')}
            </Text>
            <Text fz="xl" fw={700} data-testid="result-level">
              {result.level ?? t('results.page.none')}
            </Text>
          </Stack>
        </SimpleGrid>
        {result.status === 'awaiting_experts' && (
          <Alert mt="md" variant="light" color="yellow">
            {t('results.page.awaiting')}
          </Alert>
        )}
        <Group mt="md" justify="space-between">
          <Text size="sm" c="dimmed">
            {t('results.page.verification', { code: result.verificationCode })}
          </Text>
          {pdf && (
            <LoadingButton
              data-testid="result-pdf"
              variant="light"
              onClick={() =>
                download(
                  resultPdfPath(result.participantTestId),
                  undefined,
                  `result-${result.participantTestId}.pdf`,
                )
              }
            >
              {t('results.page.pdf')}
            </LoadingButton>
          )}
        </Group>
      </Paper>

      <Title order={2}>{t('results.page.tasks')}</Title>
      <Stack gap="md">
        {result.tasks.map((task) => {
          const detail = variant?.tasks.find((v) => v.variantTaskId === task.variantTaskId) ?? null;
          return (
            <TaskResult
              key={task.variantTaskId}
              task={task}
              detail={detail}
              keys={variant?.withKeys ?? false}
              t={t}
              lang={lang}
              num={num}
              download={download}
            />
          );
        })}
      </Stack>
    </>
  );
}

function TaskResult({
  task,
  detail,
  keys,
  t,
  lang,
  num,
  download,
}: {
  task: ExamResult['tasks'][number];
  detail: ResultVariant['tasks'][number] | null;
  keys: boolean;
  t: LooseT;
  lang: Language;
  num: (n: number) => string;
  download: ReturnType<typeof useDownload>;
}) {
  const full = task.score !== null && task.score >= task.maxScore;
  return (
    <Paper withBorder p="md" radius="md" data-testid={`result-task-${task.position}`}>
      <Group justify="space-between" mb="xs">
        <Title order={3} fz="lg">
          {t('results.page.task', { position: task.position })}
        </Title>
        <Badge
          color={task.score === null ? 'gray' : full ? 'green' : task.score > 0 ? 'yellow' : 'red'}
          size="lg"
          tt="none"
        >
          {task.score === null
            ? t('results.page.pointsAwaiting')
            : t('results.page.points', { score: num(task.score), max: num(task.maxScore) })}
        </Badge>
      </Group>
      {detail && <TaskReview detail={detail} keys={keys} t={t} lang={lang} download={download} />}
    </Paper>
  );
}
