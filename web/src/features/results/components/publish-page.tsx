/**
 * `/coordinator/results` and `/admin/results`: pick a diagnostic, see its window and where its
 * participants stand before the button (docs/design.md §3: results are published only when nobody
 * can still write), publish or unpublish with a confirmation naming the diagnostic — an admin may
 * publish before the window ends after an explicit confirmation — and browse the results. A
 * coordinator of someone else's diagnostic reads the state of their school: the admin publishes it.
 */
import type { EnableChangePublish } from '@attesta/contract';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '../../../components/lite/notify';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useBundleT, type LooseT } from '../../../components/data-table/use-bundle-t';
import { DiagnosticPicker } from '../../../components/diagnostic-picker/diagnostic-picker';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { isSessionGone } from '../../../lib/api-client';
import { formatDisplayDateTime, formatNumber } from '../../../lib/format';
import {
  changePublish,
  enableChangePublish,
  listResults,
  resultsKeys,
  type ResultSortField,
} from '../api/results-api';
import { resultsBundle } from '../locales';
import { describeApiError } from '../../../lib/form-errors';

type ResultRow = Awaited<ReturnType<typeof listResults>>['items'][number];
type Action = 'publish' | 'override' | 'unpublish';

const when = (iso: string) => formatDisplayDateTime(new Date(iso));

export function PublishPage({ role }: { role: 'coordinator' | 'admin' }) {
  const { t } = useBundleT(resultsBundle);
  // The admin's diagnostics pages link here with `?diagnosticId=`.
  const [params] = useSearchParams();
  const linked = /^\d{1,10}$/.test(params.get('diagnosticId') ?? '')
    ? Number(params.get('diagnosticId'))
    : null;
  const [diagnosticId, setDiagnosticId] = useState<number | null>(linked);

  return (
    <Stack gap="lg">
      <PageTitle>{t('results.publish.title')}</PageTitle>
      <DiagnosticPicker
        role={role}
        value={diagnosticId}
        onChange={setDiagnosticId}
        maw={520}
        data-testid="publish-diagnostic"
      />
      {diagnosticId ? (
        <PublishControls key={diagnosticId} diagnosticId={diagnosticId} t={t} />
      ) : (
        <Text c="dimmed">{t('results.publish.chooseFirst')}</Text>
      )}
    </Stack>
  );
}

/** The reason publication waits, in words, from its code and the counts (never the server's text). */
function reasonText(state: EnableChangePublish, t: LooseT): string {
  switch (state.reason) {
    case null:
      return t('results.publish.ready');
    case 'participants_unfinished':
      return t('results.publish.reasons.participantsUnfinished', { count: state.participants.inProgress });
    case 'window_open':
      return t('results.publish.reasons.windowOpen', {
        date: when(state.window.endsAt),
        count: state.participants.notStarted,
      });
    case 'awaiting_grading':
    case 'unscored':
      return t('results.publish.notReady', { awaiting: state.awaitingGrading, unscored: state.unscored });
  }
}

function Counts({ state, t }: { state: EnableChangePublish; t: LooseT }) {
  const p = state.participants;
  const cells: [string, number][] = [
    ['registered', p.registered],
    ['finished', p.finished],
    ['inProgress', p.inProgress],
    ['notStarted', p.notStarted],
    ['absent', p.absent],
    ['annulled', p.annulled],
    ['awaitingGrading', state.awaitingGrading],
    ['unscored', state.unscored],
  ];
  return (
    <Stack gap={4}>
      <Text fw={600}>
        {t(
          state.participantsScope === 'school'
            ? 'results.publish.counts.titleSchool'
            : 'results.publish.counts.title',
        )}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" data-testid="publish-counts">
        {cells.map(([key, value]) => (
          <Stack key={key} gap={0} data-testid={`count-${key}`}>
            <Text size="sm" c="dimmed">
              {t(`results.publish.counts.${key}`)}
            </Text>
            <Text fw={700}>{formatNumber(value)}</Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function PublishControls({ diagnosticId, t }: { diagnosticId: number; t: LooseT }) {
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState<Action | null>(null);
  const [acknowledged, setAcknowledged] = useState(false);
  const [refusal, setRefusal] = useState<unknown>(null);
  const enable = useQuery({
    queryKey: resultsKeys.enable(diagnosticId),
    queryFn: ({ signal }) => enableChangePublish(diagnosticId, signal),
    retry: false,
  });
  const state = enable.data;

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: resultsKeys.enable(diagnosticId) }),
      queryClient.invalidateQueries({ queryKey: resultsKeys.list(diagnosticId) }),
    ]);

  const run = async (action: Action) => {
    setRefusal(null);
    try {
      await changePublish(diagnosticId, action !== 'unpublish', action === 'override');
      notifications.show({
        color: 'green',
        message: t(action === 'unpublish' ? 'results.publish.doneUnpublish' : 'results.publish.donePublish'),
      });
    } catch (error) {
      if (isSessionGone(error)) return;
      // Said by its code on the page, with the state read again (the counts may have moved).
      setRefusal(error);
    }
    setConfirm(null);
    setAcknowledged(false);
    await refresh();
  };

  if (enable.isPending) return <Loader aria-label={t('results.publish.title')} />;
  if (!state)
    return (
      <Alert color="red" variant="light" data-testid="publish-load-failed">
        {t('results.publish.failed', { message: describeApiError(enable.error, t) })}
      </Alert>
    );

  const published = state.resultsPublished;
  const name = state.diagnostic.name;
  const code = state.diagnostic.code;
  return (
    <Stack gap="lg">
      <Paper withBorder p="lg" radius="md">
        <Stack gap="sm">
          <Group>
            <Badge
              size="lg"
              color={published ? 'green' : 'gray'}
              data-testid="publish-state"
              data-published={String(published)}
            >
              {published
                ? state.publishedAt
                  ? t('results.publish.publishedAt', { date: when(state.publishedAt) })
                  : t('results.publish.published')
                : t('results.publish.notPublished')}
            </Badge>
          </Group>
          {!state.mayPublish && (
            <Alert color="blue" variant="light" data-testid="publish-read-only">
              {t('results.publish.readOnly')}
            </Alert>
          )}
          <Text data-testid="publish-window">
            {t(state.window.open ? 'results.publish.windowOpen' : 'results.publish.windowClosed', {
              from: when(state.window.startsAt),
              to: when(state.window.endsAt),
            })}
          </Text>
          <Counts state={state} t={t} />
          {!published && (
            <Alert color={state.enabled ? 'green' : 'yellow'} variant="light" data-testid="publish-reason">
              {reasonText(state, t)}
            </Alert>
          )}
          {refusal !== null && (
            <Alert color="red" variant="light" role="alert" data-testid="publish-refused">
              {t('results.publish.failed', { message: describeApiError(refusal, t) })}
            </Alert>
          )}
          {state.mayPublish && (
            <Group>
              <Button
                data-testid="publish-button"
                disabled={!state.enabled || published}
                onClick={() => setConfirm('publish')}
              >
                {t('results.publish.publishButton')}
              </Button>
              {state.overridable && !published && (
                <Button
                  data-testid="publish-early-button"
                  color="red"
                  variant="light"
                  onClick={() => setConfirm('override')}
                >
                  {t('results.publish.earlyButton')}
                </Button>
              )}
              <Button
                data-testid="unpublish-button"
                variant="default"
                disabled={!published}
                onClick={() => setConfirm('unpublish')}
              >
                {t('results.publish.unpublishButton')}
              </Button>
            </Group>
          )}
        </Stack>
      </Paper>

      <Modal
        opened={confirm !== null}
        onClose={() => {
          setConfirm(null);
          setAcknowledged(false);
        }}
        title={t(confirm === 'override' ? 'results.publish.earlyTitle' : 'results.publish.confirmTitle')}
      >
        <Stack>
          <Text data-testid="publish-confirm-text">
            {confirm === 'override'
              ? t('results.publish.confirmEarly', {
                  name,
                  code,
                  date: when(state.window.endsAt),
                  count: state.participants.notStarted,
                })
              : t(
                  confirm === 'publish'
                    ? 'results.publish.confirmPublish'
                    : 'results.publish.confirmUnpublish',
                  {
                    name,
                    code,
                  },
                )}
          </Text>
          {confirm === 'override' && (
            <Checkbox
              data-testid="override-ack"
              checked={acknowledged}
              onChange={(event) => setAcknowledged(event.currentTarget.checked)}
              label={t('results.publish.earlyAck', { name })}
            />
          )}
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                setConfirm(null);
                setAcknowledged(false);
              }}
            >
              {t('results.publish.cancel')}
            </Button>
            <LoadingButton
              data-testid="publish-confirm"
              color={confirm === 'override' ? 'red' : undefined}
              disabled={confirm === 'override' && !acknowledged}
              onClick={() => run(confirm!)}
            >
              {t('results.publish.confirm')}
            </LoadingButton>
          </Group>
        </Stack>
      </Modal>

      <Title order={2}>{t('results.publish.list')}</Title>
      <ResultsTable diagnosticId={diagnosticId} t={t} />
    </Stack>
  );
}

function ResultsTable({ diagnosticId, t }: { diagnosticId: number; t: LooseT }) {
  const columns = useMemo<Column<ResultRow, ResultSortField>[]>(
    () => [
      {
        key: 'participant',
        header: t('results.publish.participant'),
        sortField: 'participantName',
        render: (r) => r.participantName,
        csv: (r) => r.participantName,
      },
      {
        key: 'school',
        header: t('results.publish.school'),
        render: (r) => r.schoolName ?? '',
        csv: (r) => r.schoolName ?? '',
      },
      {
        key: 'class',
        header: t('results.publish.class'),
        render: (r) => r.className ?? '',
        csv: (r) => r.className ?? '',
      },
      {
        key: 'subjectTest',
        header: t('results.publish.subjectTest'),
        render: (r) => r.subjectTestName,
        csv: (r) => r.subjectTestName,
      },
      {
        key: 'score',
        header: t('results.publish.score'),
        sortField: 'primaryScore',
        render: (r) => `${formatNumber(r.primaryScore)} / ${formatNumber(r.maxScore)}`,
        csv: (r) => r.primaryScore,
      },
      {
        key: 'percent',
        header: t('results.publish.percent'),
        sortField: 'percent',
        render: (r) => formatNumber(r.percent),
        csv: (r) => r.percent,
      },
      {
        key: 'mark',
        header: t('results.publish.mark'),
        render: (r) => r.mark ?? '—',
        csv: (r) => r.mark ?? '',
      },
      {
        key: 'level',
        header: t('results.publish.level'),
        render: (r) => r.level ?? '—',
        csv: (r) => r.level ?? '',
      },
      {
        key: 'status',
        header: t('results.publish.status'),
        render: (r) => (
          <Group gap={4}>
            <Badge color={r.status === 'scored' ? 'blue' : 'yellow'} variant="light">
              {t(r.status === 'scored' ? 'results.publish.scored' : 'results.publish.awaiting')}
            </Badge>
            {r.published && (
              <Badge color="green" variant="light">
                {t('results.publish.yes')}
              </Badge>
            )}
          </Group>
        ),
        csv: (r) => r.status,
      },
    ],
    [t],
  );
  return (
    <DataTable<ResultRow, ResultSortField, { diagnosticId: number }>
      testId="results-list"
      queryKey={resultsKeys.list(diagnosticId)}
      fetchPage={listResults}
      filter={{ diagnosticId }}
      columns={columns}
      rowKey={(r) => r.participantTestId}
      exportName={`results-${diagnosticId}`}
    />
  );
}
