/**
 * The task as the participant's runner shows it (its card, text, pictures and files, the shared
 * answer input), answered here; «Проверить» scores the answer with the score call, as a
 * participant's answer would be scored, and shows «score / max».
 */
import type { FileInfo, TaskScoreResult } from '@attesta/contract';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import {
  AnswerInput,
  ownImageFileIds,
  showsOwnHtml,
  type AnswerInputTask,
} from '../../../../components/answers/answer-input';
import { emptyValue } from '../../../../components/answers/answer-value';
import type { UploadedFile } from '../../../../components/answers/file-input';
import { RichHtml } from '../../../../components/answers/rich-html';
import { describeApiError } from '../../../../lib/form-errors';
import { formatNumber } from '../../../../lib/format';
import { taskFileUrl } from '../api/files';
import { scoreTask } from '../api/tasks';
import { cleanContent, type TaskDraft } from '../model/draft';
import { useTaskEditorT } from '../locales';
import { ContainerPreviewFrame } from './container-picker';

interface TaskPreviewProps {
  draft: TaskDraft;
  files: FileInfo[];
  /** The saved task the score call scores; absent before the first save. */
  taskId: number | undefined;
  /** The draft differs from what is saved: the score would be of the saved task. */
  dirty: boolean;
}

export function TaskPreview({ draft, files, taskId, dirty }: TaskPreviewProps) {
  const { t, i18n } = useTaskEditorT();
  const lang = i18n.language === 'en' ? 'en' : 'ru';
  const content = useMemo(() => {
    try {
      return cleanContent(draft.content);
    } catch {
      return draft.content;
    }
  }, [draft.content]);
  const shape = JSON.stringify([draft.answerType, content]);
  const [answer, setAnswer] = useState<{ shape: string; value: unknown }>({ shape, value: undefined });
  const value = answer.shape === shape ? answer.value : undefined;
  const [result, setResult] = useState<TaskScoreResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [known, setKnown] = useState<Record<number, UploadedFile>>({});

  const task: AnswerInputTask = {
    answerType: draft.answerType,
    html: draft.html,
    content,
  };
  // As the runner: a picture an input draws itself (a hotspot's) is not listed again.
  const drawn = ownImageFileIds(draft.answerType, content);
  const images = files.filter((f) => f.mime.startsWith('image/') && !drawn.includes(f.id));
  const documents = files.filter((f) => !f.mime.startsWith('image/'));
  const headingId = 'task-preview-heading';

  const change = (next: unknown) => {
    setAnswer({ shape, value: next });
    setResult(null);
  };

  const check = async () => {
    if (taskId === undefined) return;
    setChecking(true);
    setError(null);
    setResult(null);
    try {
      setResult(await scoreTask(taskId, value ?? emptyValue(draft.answerType)));
    } catch (e) {
      setError(describeApiError(e, t));
    } finally {
      setChecking(false);
    }
  };

  /** Files chosen in the preview are not sent anywhere: they only stand in the answer. */
  const upload = async (picked: File[], current: number[]) => {
    let next = Math.max(0, ...current) + 1;
    const added = picked.map((f) => ({ id: next++, name: f.name, size: f.size }));
    setKnown((k) => ({ ...k, ...Object.fromEntries(added.map((f) => [f.id, f])) }));
    change({ fileIds: [...current, ...added.map((f) => f.id)] });
    return added;
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('taskEditor.preview.hint')}
      </Text>
      <Paper
        withBorder
        radius="md"
        p={{ base: 'md', sm: 'lg' }}
        component="section"
        aria-labelledby={headingId}
        data-testid="task-preview"
      >
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
            <Title order={2} id={headingId} className="task-heading">
              {t('runner.taskOf', { n: 1, total: 1 })}
            </Title>
            <Badge variant="light" color="gray" size="lg" radius="sm">
              {t('runner.maxScore', { count: draft.maxScore ?? 0 })}
            </Badge>
          </Group>
          {!showsOwnHtml(draft.answerType) && <RichHtml html={draft.html} className="task-html" />}
          {images.map((f) => (
            <img key={f.id} src={taskFileUrl(f.id)} alt={f.name} className="task-image" />
          ))}
          {documents.length > 0 && (
            <Group gap="sm">
              {documents.map((f) => (
                <Anchor key={f.id} href={taskFileUrl(f.id)} target="_blank" rel="noopener noreferrer">
                  {f.name}
                </Anchor>
              ))}
            </Group>
          )}
          <div className="answer-area" data-testid="answer-input">
            {draft.htmlContainerId !== null ? (
              // As the runner: a task with a container is answered in the container's frame.
              <ContainerPreviewFrame
                key={`${draft.htmlContainerId}:${shape}`}
                containerId={draft.htmlContainerId}
                answerType={draft.answerType}
                content={content}
                value={value}
                onChange={change}
              />
            ) : (
              <AnswerInput
                key={shape}
                task={task}
                value={value}
                onChange={change}
                labelledBy={headingId}
                upload={upload}
                knownFiles={known}
                waitingFiles={[]}
              />
            )}
          </div>
        </Stack>
      </Paper>
      {taskId === undefined ? (
        <Alert color="blue" variant="light">
          {t('taskEditor.preview.saveFirst')}
        </Alert>
      ) : (
        dirty && (
          <Alert color="orange" variant="light">
            {t('taskEditor.preview.unsaved')}
          </Alert>
        )
      )}
      <Group>
        <Button
          onClick={() => void check()}
          loading={checking}
          disabled={taskId === undefined || dirty}
          data-testid="check-answer"
        >
          {t('taskEditor.preview.check')}
        </Button>
        {result && (
          <Text fw={600} role="status" data-testid="score-result">
            {result.status === 'manual'
              ? t('taskEditor.preview.manual')
              : t(result.status === 'empty' ? 'taskEditor.preview.empty' : 'taskEditor.preview.score', {
                  score: formatNumber(result.score ?? 0, lang),
                  max: formatNumber(result.maxScore, lang),
                })}
          </Text>
        )}
      </Group>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
