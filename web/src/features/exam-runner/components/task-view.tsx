import type { AnswerMode, ParticipantTask } from '@attesta/contract';
import { Alert, Anchor, Button, Group, Paper, Stack, Title } from '../../../components/lite/core';
import { Badge } from '../../../components/lite/badge';
import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';
import { AnswerInput, ownImageFileIds, showsOwnHtml } from '../../../components/answers/answer-input';
import type { FileUploader, UploadedFile, WaitingFile } from '../../../components/answers/file-input';
import { RichHtml } from '../../../components/answers/rich-html';
import { Segmented } from '../../../components/lite/choice';
import { callPath } from '../../../lib/call';
import { ContainerAnswer, type ContainerLoader } from './container-answer';
import { ReadAloudButton } from './read-aloud-button';

interface TaskViewProps {
  task: ParticipantTask;
  index: number;
  total: number;
  value: unknown;
  flagged: boolean;
  mode: AnswerMode;
  allowBlank: boolean;
  blanksHref: string;
  disabled: boolean;
  knownFiles: Record<number, UploadedFile>;
  waitingFiles: WaitingFile[];
  onChange: (value: unknown) => void;
  onCommit: () => void;
  onToggleFlag: () => void;
  onMode: (mode: AnswerMode) => void;
  onPrev: () => void;
  onNext: () => void;
  upload: FileUploader;
  /** Loads an interactive task's container (its signed entry URL). */
  loadContainer: ContainerLoader;
  /** A read-aloud button for the task's text (the participant's accommodations). */
  readAloud?: boolean;
}

/** One task: its text, pictures and files, the answer input, the flag, previous / next. */
export const TaskView = forwardRef<HTMLHeadingElement, TaskViewProps>(function TaskView(props, headingRef) {
  const { t } = useTranslation();
  const { task, index, total } = props;
  const headingId = `task-heading-${task.variantTaskId}`;
  // A hotspot picture is drawn by its input, under its areas: not listed again with the files.
  const drawn = ownImageFileIds(task.answerType, task.content);
  const images = task.files.filter((f) => f.mime.startsWith('image/') && !drawn.includes(f.id));
  const documents = task.files.filter((f) => !f.mime.startsWith('image/'));
  const input = (
    <AnswerInput
      task={task}
      value={props.value}
      onChange={props.onChange}
      onCommit={props.onCommit}
      disabled={props.disabled}
      labelledBy={headingId}
      upload={props.upload}
      knownFiles={props.knownFiles}
      waitingFiles={props.waitingFiles}
    />
  );
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby={headingId}
      data-testid={`task-${task.position}`}
    >
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <Title order={2} id={headingId} ref={headingRef} tabIndex={-1} className="task-heading">
            {t('runner.taskOf', { n: task.position, total })}
          </Title>
          <Group gap="xs">
            {props.readAloud && <ReadAloudButton html={task.html} />}
            <Badge>{t('runner.maxScore', { count: task.maxScore })}</Badge>
            <Button
              variant={props.flagged ? 'filled' : 'default'}
              color={props.flagged ? 'orange.8' : undefined}
              size="sm"
              aria-pressed={props.flagged}
              onClick={props.onToggleFlag}
              data-testid="flag-task"
            >
              ⚑ {props.flagged ? t('runner.flagged') : t('runner.flag')}
            </Button>
          </Group>
        </Group>

        {/* Inputs with places in the text show it themselves (cloze, gap match…), not in a container task. */}
        {(!showsOwnHtml(task.answerType) || task.htmlContainerId !== null) && (
          <RichHtml html={task.html} className="task-html" />
        )}
        {images.map((f) => (
          <img
            key={f.id}
            src={callPath('GET /api/files/{id}', { id: f.id })}
            alt={f.name}
            className="task-image"
          />
        ))}
        {documents.length > 0 && (
          <Group gap="sm">
            {documents.map((f) => (
              <Anchor
                key={f.id}
                href={callPath('GET /api/files/{id}', { id: f.id })}
                target="_blank"
                rel="noopener noreferrer"
              >
                {f.name}
              </Anchor>
            ))}
          </Group>
        )}

        {props.allowBlank && (
          <Group gap="sm" wrap="wrap" align="flex-end">
            <Segmented<AnswerMode>
              legend={t('runner.mode.label')}
              value={props.mode}
              onChange={(m) => props.onMode(m)}
              data={[
                { value: 'online', label: t('runner.mode.online') },
                { value: 'blank', label: t('runner.mode.blank') },
              ]}
              data-testid="answer-mode"
            />
            <Anchor
              href={props.blanksHref}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
              data-testid="blanks-link"
            >
              {t('runner.mode.blanksPdf')}
            </Anchor>
          </Group>
        )}

        <div className="answer-area" data-testid="answer-input">
          {props.mode === 'blank' ? (
            <Alert color="blue" variant="light">
              {t('runner.mode.onBlank')}
            </Alert>
          ) : task.htmlContainerId !== null ? (
            <ContainerAnswer
              task={{ ...task, htmlContainerId: task.htmlContainerId }}
              load={props.loadContainer}
              value={props.value}
              readOnly={props.disabled}
              onChange={props.onChange}
              fallback={input}
            />
          ) : (
            input
          )}
        </div>

        <Group justify="space-between" mt="sm">
          <Button variant="default" onClick={props.onPrev} disabled={index === 0} data-testid="prev-task">
            ← {t('runner.prev')}
          </Button>
          <Button
            variant="light"
            onClick={props.onNext}
            disabled={index === total - 1}
            data-testid="next-task"
          >
            {t('runner.next')} →
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
});
