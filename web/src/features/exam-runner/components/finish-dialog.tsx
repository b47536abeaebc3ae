import { Alert, Button, Group, List, Stack, Text, UnstyledButton } from '../../../components/lite/core';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/lite/dialog';
import type { NavTask } from './task-nav';

interface FinishDialogProps {
  opened: boolean;
  tasks: readonly NavTask[];
  answered: ReadonlySet<number>;
  flagged: ReadonlySet<number>;
  unsentCount: number;
  busy: boolean;
  problem: string | null;
  onJump: (index: number) => void;
  onConfirm: () => void;
  onClose: () => void;
}

/** Before finishing: what is unanswered, what is flagged, what has not reached the server yet. */
export function FinishDialog(props: FinishDialogProps) {
  const { t } = useTranslation();
  const { tasks, answered, flagged } = props;
  const unanswered = tasks
    .map((task, index) => ({ task, index }))
    .filter(({ task }) => !answered.has(task.variantTaskId));
  const marked = tasks
    .map((task, index) => ({ task, index }))
    .filter(({ task }) => flagged.has(task.variantTaskId));
  const jumpList = (items: { task: NavTask; index: number }[], testId: string) => (
    <Group gap="xs" data-testid={testId}>
      {items.map(({ task, index }) => (
        <UnstyledButton
          key={task.variantTaskId}
          className="finish-jump"
          onClick={() => props.onJump(index)}
          aria-label={t('runner.finish.goTo', { n: task.position })}
          data-testid={`${testId}-${task.position}`}
        >
          {task.position}
        </UnstyledButton>
      ))}
    </Group>
  );
  return (
    <Dialog opened={props.opened} onClose={props.onClose} title={t('runner.finish.title')} size="lg">
      <Stack gap="md" data-testid="finish-summary">
        <Text>
          {t('runner.finish.answeredOf', { answered: tasks.length - unanswered.length, total: tasks.length })}
        </Text>
        {unanswered.length > 0 ? (
          <div>
            <Text fw={600} mb={4}>
              {t('runner.finish.unanswered', { count: unanswered.length })}
            </Text>
            {jumpList(unanswered, 'finish-unanswered')}
          </div>
        ) : (
          <Text c="teal.9">{t('runner.finish.allAnswered')}</Text>
        )}
        {marked.length > 0 && (
          <div>
            <Text fw={600} mb={4}>
              {t('runner.finish.flagged', { count: marked.length })}
            </Text>
            {jumpList(marked, 'finish-flagged')}
          </div>
        )}
        {props.unsentCount > 0 && (
          <Alert color="orange" variant="light" data-testid="finish-unsent">
            {t('runner.finish.unsent', { count: props.unsentCount })}
          </Alert>
        )}
        {props.problem && (
          <Alert color="red" variant="light" role="alert" data-testid="finish-problem">
            {props.problem}
          </Alert>
        )}
        <List size="sm" c="dimmed">
          <List.Item>{t('runner.finish.noReturn')}</List.Item>
        </List>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('runner.finish.back')}
          </Button>
          <Button color="red.8" onClick={props.onConfirm} loading={props.busy} data-testid="finish-confirm">
            {t('runner.finish.confirm')}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
