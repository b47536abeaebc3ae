/**
 * `/coordinator/results` and `/admin/results`: pick a diagnostic, see whether its results may be
 * published (and why not), publish or unpublish with a confirmation, and browse the results.
 */
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useBundleT, type LooseT } from '../../../components/data-table/use-bundle-t';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { apiClient, ApiError } from '../../../lib/api-client';
import { formatDisplayDateTime, formatNumber } from '../../../lib/format';
import {
  changePublish,
  coordinatorDiagnostics,
  enableChangePublish,
  listResults,
  resultsKeys,
  type ResultSortField,
} from '../api/results-api';
import { resultsBundle } from '../locales';
import { describeApiError } from '../../../lib/form-errors';

type PublishState = Awaited<ReturnType<typeof changePublish>>;
type ResultRow = Awaited<ReturnType<typeof listResults>>['items'][number];

function reportError(error: unknown, t: LooseT) {
  if (error instanceof ApiError && error.status === 401) {
    apiClient.redirectFor(error);
    return;
  }
  notifications.show({
    color: 'red',
    message: t('results.publish.failed', { message: describeApiError(error, t) }),
  });
}

export function PublishPage({ role }: { role: 'coordinator' | 'admin' }) {
  const { t } = useBundleT(resultsBundle);
  // The admin's diagnostics pages link here with `?diagnosticId=`.
  const [params] = useSearchParams();
  const linked = /^\d{1,10}$/.test(params.get('diagnosticId') ?? '')
    ? Number(params.get('diagnosticId'))
    : null;
  const [diagnosticId, setDiagnosticId] = useState<number | null>(linked);
  const [idInput, setIdInput] = useState<string | number>(linked ?? '');
  const diagnostics = useQuery({
    queryKey: resultsKeys.diagnostics,
    queryFn: ({ signal }) => coordinatorDiagnostics(signal),
    enabled: role === 'coordinator',
  });
  const chosen = diagnostics.data?.items.find((d) => d.id === diagnosticId) ?? null;

  return (
    <Stack gap="lg">
      <PageTitle>{t('results.publish.title')}</PageTitle>
      {role === 'coordinator' ? (
        <Select
          label={t('results.publish.diagnostic')}
          placeholder={t('results.publish.diagnosticPlaceholder')}
          searchable
          maw={520}
          data-testid="publish-diagnostic"
          data={(diagnostics.data?.items ?? []).map((d) => ({
            value: String(d.id),
            label: `${d.code} — ${d.name}`,
          }))}
          value={diagnosticId ? String(diagnosticId) : null}
          onChange={(value) => setDiagnosticId(value ? Number(value) : null)}
        />
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const id = Number(idInput);
            setDiagnosticId(Number.isInteger(id) && id > 0 ? id : null);
          }}
        >
          <Group align="flex-end">
            <NumberInput
              label={t('results.publish.diagnosticId')}
              min={1}
              allowDecimal={false}
              value={idInput}
              onChange={setIdInput}
              data-testid="publish-diagnostic-id"
            />
            <Button type="submit" variant="light">
              {t('results.publish.show')}
            </Button>
          </Group>
        </form>
      )}
      {diagnosticId ? (
        <PublishControls
          key={diagnosticId}
          diagnosticId={diagnosticId}
          name={chosen?.name ?? `#${diagnosticId}`}
          knownPublished={chosen ? chosen.resultsPublished : null}
          t={t}
        />
      ) : (
        <Text c="dimmed">{t('results.publish.chooseFirst')}</Text>
      )}
    </Stack>
  );
}

function PublishControls({
  diagnosticId,
  name,
  knownPublished,
  t,
}: {
  diagnosticId: number;
  name: string;
  knownPublished: boolean | null;
  t: LooseT;
}) {
  const queryClient = useQueryClient();
  const [changed, setChanged] = useState<PublishState | null>(null);
  const [confirm, setConfirm] = useState<boolean | null>(null);
  const enable = useQuery({
    queryKey: resultsKeys.enable(diagnosticId),
    queryFn: ({ signal }) => enableChangePublish(diagnosticId, signal),
    retry: false,
  });
  const [listPublished, setListPublished] = useState<boolean | null>(null);
  const published = changed?.resultsPublished ?? knownPublished ?? listPublished;

  const run = async (publish: boolean) => {
    try {
      const state = await changePublish(diagnosticId, publish);
      setChanged(state);
      setConfirm(null);
      notifications.show({
        color: 'green',
        message: t(publish ? 'results.publish.donePublish' : 'results.publish.doneUnpublish'),
      });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: resultsKeys.enable(diagnosticId) }),
        queryClient.invalidateQueries({ queryKey: resultsKeys.list(diagnosticId) }),
        queryClient.invalidateQueries({ queryKey: resultsKeys.diagnostics }),
      ]);
    } catch (error) {
      reportError(error, t);
    }
  };

  const enabled = enable.data?.enabled ?? false;
  const reason = enable.data
    ? enable.data.enabled
      ? t('results.publish.ready')
      : t('results.publish.notReady', {
          awaiting: enable.data.awaitingGrading,
          unscored: enable.data.unscored,
        })
    : null;

  return (
    <Stack gap="lg">
      <Paper withBorder p="lg" radius="md">
        <Stack gap="sm">
          <Group>
            <Badge
              size="lg"
              color={published ? 'green' : published === false ? 'gray' : 'yellow'}
              data-testid="publish-state"
              data-published={published === null ? 'unknown' : String(published)}
            >
              {published === null
                ? t('results.publish.unknown')
                : published
                  ? changed?.publishedAt
                    ? t('results.publish.publishedAt', {
                        date: formatDisplayDateTime(new Date(changed.publishedAt)),
                      })
                    : t('results.publish.published')
                  : t('results.publish.notPublished')}
            </Badge>
          </Group>
          {enable.error && (
            <Alert color="red" variant="light">
              {t('results.publish.failed', { message: describeApiError(enable.error, t) })}
            </Alert>
          )}
          {reason && (
            <Alert color={enabled ? 'green' : 'yellow'} variant="light" data-testid="publish-reason">
              {reason}
            </Alert>
          )}
          <Group>
            <Button
              data-testid="publish-button"
              disabled={!enabled || published === true}
              onClick={() => setConfirm(true)}
            >
              {t('results.publish.publishButton')}
            </Button>
            <Button
              data-testid="unpublish-button"
              variant="default"
              disabled={published === false}
              onClick={() => setConfirm(false)}
            >
              {t('results.publish.unpublishButton')}
            </Button>
          </Group>
        </Stack>
      </Paper>

      <Modal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={t('results.publish.confirmTitle')}
      >
        <Stack>
          <Text>
            {t(confirm ? 'results.publish.confirmPublish' : 'results.publish.confirmUnpublish', { name })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)}>
              {t('results.publish.cancel')}
            </Button>
            <LoadingButton data-testid="publish-confirm" onClick={() => run(confirm === true)}>
              {t('results.publish.confirm')}
            </LoadingButton>
          </Group>
        </Stack>
      </Modal>

      <Title order={2}>{t('results.publish.list')}</Title>
      <ResultsTable diagnosticId={diagnosticId} t={t} onPublished={setListPublished} />
    </Stack>
  );
}

function ResultsTable({
  diagnosticId,
  t,
  onPublished,
}: {
  diagnosticId: number;
  t: LooseT;
  onPublished: (published: boolean | null) => void;
}) {
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
      fetchPage={async (request, signal) => {
        const page = await listResults(request, signal);
        onPublished(page.items[0]?.published ?? null);
        return page;
      }}
      filter={{ diagnosticId }}
      columns={columns}
      rowKey={(r) => r.participantTestId}
      exportName={`results-${diagnosticId}`}
    />
  );
}
