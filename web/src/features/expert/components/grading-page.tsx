/**
 * `/expert/grading`: one anonymised answer at a time in the grading workspace (task, answer and
 * rubric side by side, keyboard marking; grading-workspace.tsx), progress, the queue by subject test
 * and day, and a zip of a date range. With nothing open the server first gives the expert answers of
 * their subjects that wait; «all graded» shows only when nothing of theirs waits. Blind marking: nothing here names the participant, and
 * another expert's marks appear only on a third check, as «Эксперт 1» / «Эксперт 2».
 */
import type { ExpertNextQuery, ExpertWaiting } from '@attesta/contract';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Progress as ProgressBar,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useDownload } from '../../../components/data-table/use-download';
import { useBundleT, type LooseT } from '../../../components/data-table/use-bundle-t';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { ApiError } from '../../../lib/api-client';
import { ANSWERS_ZIP_PATH, expertKeys, getAnswerDates, getNext, getQueue } from '../api/grading-api';
import { expertBundle } from '../locales';
import { describeApiError } from '../../../lib/form-errors';
import { displayDate, GradingWorkspace } from './grading-workspace';
import { ActionsTh } from '../../../components/ui/actions-header';

function failureMessage(error: unknown, t: LooseT): string {
  if (error instanceof ApiError && error.code === 'grading_closed') return t('expert.grading.closed');
  return t('expert.grading.failed', { message: describeApiError(error, t) });
}

export function GradingPage() {
  const { t } = useBundleT(expertBundle);
  const [filter, setFilter] = useState<ExpertNextQuery>({});
  const queue = useQuery({ queryKey: expertKeys.queue, queryFn: ({ signal }) => getQueue(signal) });
  const next = useQuery({
    queryKey: expertKeys.next(filter),
    queryFn: ({ signal }) => getNext(filter, signal),
    retry: false,
  });
  const progress = next.data?.progress;
  const assignment = next.data?.assignment ?? null;
  const { refetch } = next;
  const onNext = useCallback(() => void refetch(), [refetch]);

  return (
    <Stack gap="sm">
      <PageTitle>{t('expert.grading.title')}</PageTitle>
      {progress && (
        <Stack gap={4} data-testid="grading-progress" maw={480}>
          <Text size="sm">
            {t('expert.grading.progress', { done: progress.done, total: progress.total })}
          </Text>
          <ProgressBar
            value={progress.total ? (100 * progress.done) / progress.total : 100}
            aria-label={t('expert.grading.progress', { done: progress.done, total: progress.total })}
          />
        </Stack>
      )}

      {next.isPending && <Loader />}
      {next.error && (
        <Alert color="red" variant="light">
          {failureMessage(next.error, t)}
        </Alert>
      )}
      {next.data && !assignment && <NothingOpen waiting={next.data.waiting} t={t} />}
      {assignment && (
        <GradingWorkspace
          key={assignment.id}
          assignment={assignment}
          t={t}
          onNext={onNext}
          failureMessage={(error) => failureMessage(error, t)}
        />
      )}

      <Paper withBorder p="md" radius="md" data-testid="grading-queue">
        <Group justify="space-between" mb="sm">
          <Title order={2} fz="lg">
            {t('expert.grading.queue')}
          </Title>
          <Button
            size="xs"
            variant={filter.subjectTestId ? 'default' : 'filled'}
            onClick={() => setFilter({})}
            data-testid="grading-queue-all"
          >
            {t('expert.grading.all')}
          </Button>
        </Group>
        {queue.isPending && <Loader size="sm" />}
        {queue.error && (
          <Alert color="red" variant="light">
            {failureMessage(queue.error, t)}
          </Alert>
        )}
        {queue.data && queue.data.items.length === 0 && (
          <Text c="dimmed">{t('expert.grading.queueEmpty')}</Text>
        )}
        {queue.data && queue.data.items.length > 0 && (
          <Table.ScrollContainer minWidth={560}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('expert.grading.subjectTest')}</Table.Th>
                  <Table.Th>{t('expert.grading.date')}</Table.Th>
                  <Table.Th>{t('expert.grading.open')}</Table.Th>
                  <Table.Th>{t('expert.grading.graded')}</Table.Th>
                  <Table.Th>{t('expert.grading.thirdChecks')}</Table.Th>
                  <ActionsTh />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {queue.data.items.map((item) => {
                  const active = filter.subjectTestId === item.subjectTestId && filter.date === item.date;
                  return (
                    <Table.Tr key={`${item.subjectTestId}-${item.date}`} aria-selected={active || undefined}>
                      <Table.Td>
                        {item.subjectTestName}
                        <Text size="xs" c="dimmed">
                          {item.subjectName}
                        </Text>
                      </Table.Td>
                      <Table.Td>{displayDate(item.date)}</Table.Td>
                      <Table.Td>{item.assigned}</Table.Td>
                      <Table.Td>{item.graded}</Table.Td>
                      <Table.Td>
                        {item.thirdChecks ? <Badge color="orange">{item.thirdChecks}</Badge> : 0}
                      </Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant={active ? 'filled' : 'light'}
                          disabled={item.assigned === 0}
                          onClick={() => setFilter({ subjectTestId: item.subjectTestId, date: item.date })}
                        >
                          {t('expert.grading.pick')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>

      <ZipDownload t={t} />
    </Stack>
  );
}

/**
 * Nothing open: «all graded» only when nothing of the expert's subjects waits; otherwise what waits
 * and why it is not theirs now (answers they could take were given to them already).
 */
function NothingOpen({ waiting, t }: { waiting: ExpertWaiting | undefined; t: LooseT }) {
  if (!waiting || waiting.otherExpert + waiting.dailyLimit === 0)
    return (
      <Alert color="green" variant="light" data-testid="grading-done">
        {t('expert.grading.done')}
      </Alert>
    );
  return (
    <Alert
      color="blue"
      variant="light"
      title={t('expert.grading.waitingTitle')}
      data-testid="grading-waiting"
    >
      <Stack gap={4}>
        {waiting.otherExpert > 0 && (
          <Text size="sm">{t('expert.grading.waitingOther', { count: waiting.otherExpert })}</Text>
        )}
        {waiting.dailyLimit > 0 && (
          <Text size="sm">{t('expert.grading.waitingLimit', { count: waiting.dailyLimit })}</Text>
        )}
      </Stack>
    </Alert>
  );
}

function ZipDownload({ t }: { t: LooseT }) {
  const download = useDownload();
  const dates = useQuery({ queryKey: expertKeys.dates, queryFn: ({ signal }) => getAnswerDates(signal) });
  const [from, setFrom] = useState('');
  const [till, setTill] = useState('');
  const first = dates.data?.dates[0] ?? '';
  const date = from || first;
  return (
    <Paper withBorder p="md" radius="md" data-testid="grading-zip">
      <Title order={2} fz="lg" mb="sm">
        {t('expert.grading.zip')}
      </Title>
      {dates.data && dates.data.dates.length > 0 && (
        <Text size="sm" c="dimmed" mb="xs">
          {t('expert.grading.zipDates', { dates: dates.data.dates.map(displayDate).join(', ') })}
        </Text>
      )}
      <Group align="flex-end">
        <TextInput
          type="date"
          label={t('expert.grading.zipFrom')}
          value={date}
          onChange={(e) => setFrom(e.currentTarget.value)}
        />
        <TextInput
          type="date"
          label={t('expert.grading.zipTill')}
          value={till}
          min={date || undefined}
          onChange={(e) => setTill(e.currentTarget.value)}
        />
        <LoadingButton
          variant="light"
          disabled={!date}
          data-testid="grading-zip-button"
          onClick={() =>
            download(ANSWERS_ZIP_PATH, { date, dateTill: till || undefined }, `answers-${date}.zip`)
          }
        >
          {t('expert.grading.zipButton')}
        </LoadingButton>
      </Group>
    </Paper>
  );
}
