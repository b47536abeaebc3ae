/**
 * The answer area of an interactive task: loads the container's signed entry URL and shows the
 * sandboxed frame. When the container cannot be loaded, the task's ordinary answer input stands
 * in, so the participant can always answer.
 */
import type { ParticipantTask } from '@attesta/contract';
import { Alert, Button, Group, Loader, Stack, Text } from '../../../components/lite/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { HtmlContainerInfo } from '../api/exam-api';
import { HtmlContainerFrame } from '../../../components/html-container/html-container-frame';

export type ContainerLoader = (id: number, signal?: AbortSignal) => Promise<HtmlContainerInfo>;

interface ContainerAnswerProps {
  task: ParticipantTask & { htmlContainerId: number };
  load: ContainerLoader;
  value: unknown;
  readOnly: boolean;
  onChange: (value: unknown) => void;
  /** The ordinary input of the task's answer type, shown when the container does not load. */
  fallback: ReactNode;
}

/** Signed links live 30 minutes; a task opened later asks for a fresh one. */
const FRESH_MS = 20 * 60_000;

export function ContainerAnswer({ task, load, value, readOnly, onChange, fallback }: ContainerAnswerProps) {
  const { t } = useTranslation();
  const id = task.htmlContainerId;
  const container = useQuery({
    queryKey: ['exam', 'html-container', id],
    queryFn: ({ signal }) => load(id, signal),
    staleTime: FRESH_MS,
    gcTime: FRESH_MS,
    retry: 1,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const hintId = `container-hint-${task.variantTaskId}`;

  if (container.isPending) {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" />
        <Text size="sm">{t('runner.container.loading')}</Text>
      </Group>
    );
  }
  if (container.isError) {
    return (
      <Stack gap="md">
        <Alert color="orange" variant="light" role="alert" data-testid="container-failed">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('runner.container.failed')}</Text>
            <Button size="xs" variant="light" onClick={() => void container.refetch()}>
              {t('runner.container.retry')}
            </Button>
          </Stack>
        </Alert>
        {fallback}
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed" id={hintId}>
        {t('runner.container.hint')}
      </Text>
      <HtmlContainerFrame
        src={container.data.url}
        title={t('runner.container.title', { n: task.position })}
        describedBy={hintId}
        answerType={task.answerType}
        content={task.content}
        value={value}
        readOnly={readOnly}
        onChange={onChange}
      />
    </Stack>
  );
}
