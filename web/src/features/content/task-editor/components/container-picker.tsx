/**
 * The task's interactive container: chosen among the uploaded html containers (or none), and shown
 * in the preview in the runner's sandboxed frame (the shared components/html-container).
 */
import type { TaskAnswerType } from '@attesta/contract';
import { Alert, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { HtmlContainerFrame } from '../../../../components/html-container/html-container-frame';
import { describeApiError } from '../../../../lib/form-errors';
import { containerLinkQuery, containerListQuery } from '../api/containers';
import { useTaskEditorT } from '../locales';

const NONE = '';

export function ContainerPicker({
  value,
  onChange,
}: {
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const { t } = useTaskEditorT();
  const list = useQuery(containerListQuery);
  const options = (list.data ?? []).map((c) => ({
    value: String(c.id),
    label: t('taskEditor.container.option', { name: c.name, n: c.currentVersion }),
  }));
  // A container the list does not hold (yet): still named by its id rather than lost.
  if (value !== null && !options.some((o) => o.value === String(value)))
    options.push({ value: String(value), label: `#${value}` });
  return (
    <Select
      label={t('taskEditor.container.label')}
      description={t('taskEditor.container.hint')}
      value={value === null ? NONE : String(value)}
      onChange={(v) => onChange(v ? Number(v) : null)}
      data={[{ value: NONE, label: t('taskEditor.container.none') }, ...options]}
      allowDeselect={false}
      searchable
      error={
        list.error
          ? t('taskEditor.container.loadFailed', { message: describeApiError(list.error, t) })
          : undefined
      }
      rightSection={list.isLoading ? <Loader size="xs" /> : undefined}
      data-testid="task-container"
    />
  );
}

/** The preview's answer area of a task with a container: the frame, answered as a participant would. */
export function ContainerPreviewFrame({
  containerId,
  answerType,
  content,
  value,
  onChange,
}: {
  containerId: number;
  answerType: TaskAnswerType;
  content: Record<string, unknown>;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const { t } = useTaskEditorT();
  const link = useQuery(containerLinkQuery(containerId));
  if (link.isPending)
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" />
      </Group>
    );
  if (link.isError)
    return (
      <Alert color="orange" role="alert" data-testid="container-failed">
        {t('taskEditor.container.failed', { message: describeApiError(link.error, t) })}
      </Alert>
    );
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed" id="task-preview-container-hint">
        {t('taskEditor.container.frameHint')}
      </Text>
      <HtmlContainerFrame
        src={link.data.url}
        title={t('taskEditor.container.frameTitle')}
        describedBy="task-preview-container-hint"
        answerType={answerType}
        content={content}
        value={value ?? null}
        readOnly={false}
        onChange={onChange}
      />
    </Stack>
  );
}
