/**
 * `/admin/content/tasks/new` and `/admin/content/tasks/:taskId`: the task editor's route. The
 * editor itself (forms per answer type, preview and score) lives in ../task-editor; until it is
 * there, the task is shown read-only.
 */
import { Alert, Anchor, Badge, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { RichHtml } from '../../../components/answers/rich-html';
import { PageTitle } from '../../../components/ui/page-title';
import { taskQuery } from '../api/tasks';
import { useLabels } from '../hooks/use-labels';
import { useContentT } from '../locales';
import { CONTENT_BASE } from './content-layout';
import { LoadError } from './load-error';

function TaskEditorPending({ taskId }: { taskId?: number; subjectId?: number }) {
  const t = useContentT();
  const labels = useLabels();
  const task = useQuery({ ...taskQuery(taskId ?? 0), enabled: taskId !== undefined });
  return (
    <Stack gap="md">
      <PageTitle>{taskId === undefined ? t('editor.newTitle') : t('editor.title', { id: taskId })}</PageTitle>
      <Alert color="blue" variant="light" data-testid="task-editor-pending">
        {t('editor.pending')}
      </Alert>
      {task.isFetching && <Loader size="sm" />}
      {task.error && <LoadError error={task.error} onRetry={() => void task.refetch()} />}
      {task.data && (
        <Stack gap="sm">
          <Group gap="xs">
            <Badge variant="light">{labels.answerType(task.data.answerType)}</Badge>
            <Text size="sm" c="dimmed">
              {task.data.title}
            </Text>
          </Group>
          <RichHtml html={task.data.html} className="task-html" />
        </Stack>
      )}
      <Anchor component={Link} to={`${CONTENT_BASE}/tasks`}>
        {t('editor.back')}
      </Anchor>
    </Stack>
  );
}

const positive = (value: string | null | undefined) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

export function TaskEditorRoute() {
  const params = useParams();
  const [search] = useSearchParams();
  const taskId = positive(params.taskId);
  const subjectId = positive(search.get('subjectId'));
  return <TaskEditorPending key={taskId ?? 'new'} taskId={taskId} subjectId={subjectId} />;
}
