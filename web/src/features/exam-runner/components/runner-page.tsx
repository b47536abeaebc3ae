/** /participant/work: loads the participant test, the variant and the work, then runs it. */
import { Alert, Button, Group, Loader, Stack, Text } from '../../../components/lite/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { createExamApi, type ExamApi } from '../api/exam-api';
import { defaultOutboxStore } from '../lib/default-store';
import {
  clearRunnerSnapshot,
  loadRunnerSnapshot,
  loadRunnerVariant,
  saveRunnerSnapshot,
  saveRunnerVariant,
  saveRunnerWork,
} from '../../../lib/runner-snapshot';
import type { OutboxStore } from '../lib/outbox-store';
import { FinishedScreen } from './finished-screen';
import { OpenElsewhere } from './open-elsewhere';
import { PausedGate } from './paused-gate';
import { Runner } from './runner';
import { describeApiError } from '../../../lib/form-errors';
import { isAppShell } from '../../../lib/device';
import { RunnerFrame } from './runner-frame';
import { hasTex, loadKatex } from '../../../components/answers/katex-loader';

const isOffline = (error: unknown) => error instanceof ApiError && error.isNetworkError;
const isPausedError = (error: unknown) => error instanceof ApiError && error.code === 'work_paused';

interface RunnerPageProps {
  api?: ExamApi;
  store?: OutboxStore;
  /** The app's tools for the runner's header (help, feedback): features never import each other. */
  tools?: ReactNode;
}

export function RunnerPage({ api: injected, store, tools }: RunnerPageProps) {
  const { t } = useTranslation();
  const kiosk = useMemo(() => isAppShell(), []);
  const api = useMemo(() => injected ?? createExamApi(), [injected]);
  const outboxStore = useMemo(() => store ?? defaultOutboxStore(), [store]);

  const current = useQuery({
    queryKey: ['exam', 'current-test'],
    queryFn: async ({ signal }) => {
      try {
        const test = await api.currentParticipantTest(signal);
        await saveRunnerSnapshot(test);
        return test;
      } catch (error) {
        // Offline reload: the local copy lets the runner open with its local outbox, its clock
        // counting down to the stored deadline on this browser's clock.
        const snapshot = isOffline(error) ? await loadRunnerSnapshot() : null;
        if (snapshot?.examWork) return snapshot;
        throw error;
      }
    },
    staleTime: 0,
  });
  const examWork = current.data?.examWork ?? null;
  const running =
    examWork !== null &&
    (examWork.status === 'in_progress' || examWork.status === 'paused' || examWork.status === 'new');
  const variant = useQuery({
    queryKey: ['exam', 'variant', examWork?.variantId],
    queryFn: async ({ signal }) => {
      try {
        const fetched = await api.variant(signal);
        // Kept before anything else can happen: the connection may drop the next second.
        await saveRunnerVariant(fetched);
        return await withFormulas(fetched);
      } catch (error) {
        const copy = isOffline(error) && examWork ? await loadRunnerVariant(examWork.variantId) : null;
        if (copy) return await withFormulas(copy);
        throw error;
      }
    },
    enabled: running && !current.data?.openElsewhere,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const work = useQuery({
    queryKey: ['exam', 'work', examWork?.id],
    queryFn: async ({ signal }) => {
      try {
        const state = await api.work(examWork!.id, signal);
        await saveRunnerWork(state);
        return state;
      } catch (error) {
        if (isOffline(error) && examWork) return examWork;
        throw error;
      }
    },
    enabled: running && !current.data?.openElsewhere,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });

  // A finished work needs no local copy: the next person at this computer must not find its tasks.
  const over = examWork !== null && !running;
  useEffect(() => {
    if (over) void clearRunnerSnapshot();
  }, [over]);

  // A reload during a pause: the tasks stay on the server until the work resumes.
  if (isPausedError(variant.error) && examWork) {
    return (
      <RunnerFrame>
        <PausedGate api={api} onResumed={() => void variant.refetch()} />
      </RunnerFrame>
    );
  }

  const failed = current.error ?? variant.error ?? work.error;
  if (failed) {
    return (
      <RunnerFrame>
        <Alert color="orange" variant="light" title={t('runner.loadFailed')} data-testid="runner-load-failed">
          <Stack gap="sm">
            <Text>{describeApiError(failed, t)}</Text>
            <Group>
              <Button
                onClick={() => {
                  void current.refetch();
                  void variant.refetch();
                  void work.refetch();
                }}
              >
                {t('runner.reload')}
              </Button>
              {/* The app shell's kiosk has no way out of the runner but the finish. */}
              {!kiosk && (
                <Button component={Link} to="/participant" variant="default">
                  {t('runner.toStart')}
                </Button>
              )}
            </Group>
          </Stack>
        </Alert>
      </RunnerFrame>
    );
  }
  if (current.data && !examWork) return <Navigate to="/participant" replace />;
  if (current.data?.openElsewhere && running)
    return (
      <RunnerFrame>
        <OpenElsewhere onRecheck={() => void current.refetch()} busy={current.isFetching} />
      </RunnerFrame>
    );
  if (current.data && examWork && !running) {
    return (
      <RunnerFrame>
        <FinishedScreen
          participantTestId={current.data.id}
          finishedAt={examWork.finishedAt}
          reason={examWork.finishReason}
          answered={null}
          total={null}
        />
      </RunnerFrame>
    );
  }
  if (!current.data || !variant.data || !work.data) {
    return (
      <RunnerFrame>
        <Group role="status" gap="sm" p="lg">
          <Loader size="sm" />
          <Text>{t('runner.loading')}</Text>
        </Group>
      </RunnerFrame>
    );
  }
  if (work.data.status === 'finished' || work.data.status === 'scored') {
    return (
      <RunnerFrame>
        <FinishedScreen
          participantTestId={current.data.id}
          finishedAt={work.data.finishedAt}
          reason={work.data.finishReason}
          answered={null}
          total={null}
        />
      </RunnerFrame>
    );
  }
  return (
    <Runner
      key={work.data.id}
      test={current.data}
      variant={variant.data}
      work={work.data}
      api={api}
      store={outboxStore}
      tools={tools}
    />
  );
}

/**
 * A variant with TeX waits for KaTeX (loaded on first need), so its tasks and their labels are drawn
 * with formulas from the start; without it (offline, not cached) the TeX shows as its source.
 */
async function withFormulas<T>(variant: T): Promise<T> {
  if (hasTex(JSON.stringify(variant))) await loadKatex().catch(() => undefined);
  return variant;
}
