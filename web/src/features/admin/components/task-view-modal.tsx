import { Alert, Badge, Group, List, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useAnswerTypeLabel } from '../../../components/answers/answer-type-labels';
import { SafeHtml } from '../../../components/ui/safe-html';
import { adminKeys, getStaffTask } from '../api/admin-api';
import { useAdminT } from '../i18n';
import { TaskKeyWords } from './task-key-words';
import { describeApiError } from '../../../lib/form-errors';

/** A task of a variant as staff see it: text (sanitized), key, scoring, rubric, solution, classifiers. */
export function TaskViewModal({
  variantId,
  variantNumber,
  position,
  onClose,
}: {
  variantId: number;
  variantNumber: number;
  position: number;
  onClose: () => void;
}) {
  const t = useAdminT();
  const answerTypeLabel = useAnswerTypeLabel();
  const task = useQuery({
    queryKey: [...adminKeys.content, 'task', variantId, position],
    queryFn: () => getStaffTask(variantId, position),
  });
  const data = task.data;
  const hasReference = data && data.reference !== null && data.reference !== undefined;

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={t('content.taskTitle', { variant: variantNumber, n: position })}
    >
      {task.isLoading && <Loader size="sm" />}
      {task.error && (
        <Alert color="red" role="alert">
          {describeApiError(task.error, t)}
        </Alert>
      )}
      {data && (
        <Stack data-testid="task-view">
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('content.answerType')}:
            </Text>
            <Badge variant="light" data-testid="task-answer-type">
              {answerTypeLabel(data.answerType)}
            </Badge>
            <Text size="sm" c="dimmed">
              {t('content.maxScore')}: {data.maxScore}
            </Text>
          </Group>
          <SafeHtml html={data.html} className="task-html" />
          <Title order={3} size="h4">
            {t('content.reference')}
          </Title>
          {hasReference ? (
            <TaskKeyWords value={data.reference} testId="task-reference" />
          ) : (
            <Alert color="orange">{t('content.noReference')}</Alert>
          )}
          {Object.keys(data.scoring).length > 0 && (
            <>
              <Title order={3} size="h4">
                {t('content.scoring')}
              </Title>
              <TaskKeyWords value={data.scoring} testId="task-scoring" />
            </>
          )}
          {data.criteria && data.criteria.length > 0 && (
            <>
              <Title order={3} size="h4">
                {t('content.criteria')}
              </Title>
              <TaskKeyWords value={data.criteria} testId="task-criteria" />
            </>
          )}
          {data.solutionHtml && (
            <>
              <Title order={3} size="h4">
                {t('content.solution')}
              </Title>
              <SafeHtml html={data.solutionHtml} />
            </>
          )}
          {data.classifiers && data.classifiers.length > 0 && (
            <>
              <Title order={3} size="h4">
                {t('content.classifiers')}
              </Title>
              <List size="sm">
                {data.classifiers.map((c) => (
                  <List.Item key={c.id}>
                    {c.code} — {c.name} ({c.kind})
                  </List.Item>
                ))}
              </List>
            </>
          )}
          {data.files.length > 0 && (
            <>
              <Title order={3} size="h4">
                {t('content.files')}
              </Title>
              <List size="sm">
                {data.files.map((f) => (
                  <List.Item key={f.id}>{f.name}</List.Item>
                ))}
              </List>
            </>
          )}
        </Stack>
      )}
    </Modal>
  );
}
