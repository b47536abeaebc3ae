/**
 * One anonymised answer laid out for grading. Wide screens: the task (with reference answer and
 * grading notes), the participant's answer and the rubric side by side, each pane scrolling on its
 * own within the window's height, so marking never scrolls the answer away; the task pane can be
 * hidden to give the answer room. Narrow screens: task and answer as tabs, the rubric below.
 */
import type { ExpertAssignment } from '@attesta/contract';
import { Badge, Button, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { RichHtml } from '../../../components/answers/rich-html';
import type { LooseT } from '../../../components/data-table/use-bundle-t';
import { formatDisplayDate, parsePlainDate } from '../../../lib/format';
import { answerText, referenceText } from '../lib/answer-text';
import { AttachmentView } from './attachment-view';
import { RubricForm } from './rubric-form';
import './grading.css';

/** Below this width the panes do not fit side by side. */
export const NARROW_QUERY = '(max-width: 61.99em)';

export const displayDate = (plain: string) => {
  const date = parsePlainDate(plain);
  return date ? formatDisplayDate(date) : plain;
};

function TaskContent({ assignment, t }: { assignment: ExpertAssignment; t: LooseT }) {
  const { solutionHtml } = assignment.task;
  const reference = referenceText(assignment.task.reference);
  return (
    <Stack gap="md">
      <section>
        <Title order={3} fz="md" mb={4}>
          {t('expert.grading.task')}
        </Title>
        <RichHtml html={assignment.task.html} />
      </section>
      {reference.trim() && (
        <section>
          <Title order={3} fz="md" mb={4}>
            {t('expert.grading.reference')}
          </Title>
          <Text style={{ whiteSpace: 'pre-wrap' }}>{reference}</Text>
        </section>
      )}
      {solutionHtml && (
        <section>
          <Title order={3} fz="md" mb={4}>
            {t('expert.grading.solution')}
          </Title>
          <RichHtml html={solutionHtml} />
        </section>
      )}
    </Stack>
  );
}

function AnswerContent({ assignment, t }: { assignment: ExpertAssignment; t: LooseT }) {
  // A file answer is its attachments, listed below by name; its stored value (file ids) is not text.
  const text = answerText(assignment.task.answerType, assignment.answer.value);
  const files = assignment.answer.files;
  return (
    <Stack gap="sm">
      <Title order={3} fz="md">
        {t('expert.grading.answer')}
      </Title>
      {text.trim() ? (
        <Paper bg="gray.0" p="sm" radius="sm">
          <Text style={{ whiteSpace: 'pre-wrap' }} data-testid="grading-answer-text">
            {text}
          </Text>
        </Paper>
      ) : (
        files.length === 0 && <Text c="dimmed">{t('expert.grading.noAnswer')}</Text>
      )}
      {files.length > 0 && (
        <Stack gap="sm">
          <Text fw={600} size="sm">
            {t('expert.grading.attachments')}
          </Text>
          {files.map((file) => (
            <AttachmentView key={file.id} file={file} t={t} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

export function GradingWorkspace({
  assignment,
  t,
  onNext,
  failureMessage,
}: {
  assignment: ExpertAssignment;
  t: LooseT;
  onNext: () => void;
  failureMessage: (error: unknown) => string;
}) {
  const narrow = useMediaQuery(NARROW_QUERY) ?? false;
  const [taskShown, setTaskShown] = useState(true);
  const third = assignment.round >= 3;
  const rubric = <RubricForm assignment={assignment} t={t} onNext={onNext} onSaved={failureMessage} />;

  const heading = (
    <Group justify="space-between" gap="xs" mb="xs" wrap="wrap">
      <Title order={2} fz="lg">
        {t('expert.grading.work', { code: assignment.anonCode, position: assignment.task.position })}
      </Title>
      <Group gap="xs">
        <Badge variant="light">{assignment.subjectTestName}</Badge>
        <Badge variant="light" color="gray">
          {displayDate(assignment.workDate)}
        </Badge>
        {third ? (
          <Badge color="orange" data-testid="grading-third-check">
            {t('expert.grading.thirdCheck')}
          </Badge>
        ) : (
          <Badge color="gray">{t('expert.grading.round', { round: assignment.round })}</Badge>
        )}
        {!narrow && (
          <Button
            size="compact-sm"
            variant="default"
            aria-expanded={taskShown}
            aria-controls="grading-task-pane"
            onClick={() => setTaskShown((shown) => !shown)}
            data-testid="grading-toggle-task"
          >
            {t(taskShown ? 'expert.layout.hideTask' : 'expert.layout.showTask')}
          </Button>
        )}
      </Group>
    </Group>
  );

  if (narrow)
    return (
      <Paper withBorder p="sm" radius="md" data-testid="grading-answer" data-layout="narrow">
        {heading}
        <Tabs defaultValue="answer" keepMounted>
          <Tabs.List grow>
            <Tabs.Tab value="task" data-testid="grading-tab-task">
              {t('expert.layout.taskTab')}
            </Tabs.Tab>
            <Tabs.Tab value="answer" data-testid="grading-tab-answer">
              {t('expert.layout.answerTab')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="task" pt="sm" data-testid="grading-task-pane">
            <TaskContent assignment={assignment} t={t} />
          </Tabs.Panel>
          <Tabs.Panel value="answer" pt="sm" data-testid="grading-answer-pane">
            <AnswerContent assignment={assignment} t={t} />
          </Tabs.Panel>
        </Tabs>
        <div className="grading-rubric-narrow">{rubric}</div>
      </Paper>
    );

  return (
    <div data-testid="grading-answer" data-layout="wide">
      {heading}
      <div className="grading-workspace" data-task-shown={taskShown}>
        {taskShown && (
          <section
            id="grading-task-pane"
            className="grading-pane"
            aria-label={t('expert.layout.taskPane')}
            tabIndex={0}
            data-testid="grading-task-pane"
          >
            <TaskContent assignment={assignment} t={t} />
          </section>
        )}
        <section
          className="grading-pane"
          aria-label={t('expert.layout.answerPane')}
          tabIndex={0}
          data-testid="grading-answer-pane"
        >
          <AnswerContent assignment={assignment} t={t} />
        </section>
        <section
          className="grading-pane grading-rubric-pane"
          aria-label={t('expert.layout.rubricPane')}
          data-testid="grading-rubric-pane"
        >
          {rubric}
        </section>
      </div>
    </div>
  );
}
