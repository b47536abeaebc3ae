/**
 * `/admin/content/tests/:id/variants/:variantId/preview`: a variant as the participant's runner
 * shows it — one task at a time with its text, pictures and the answer input of its type — where
 * the admin answers a task and sees the points the scoring engine gives (nothing is saved).
 */
import { TASK_ANSWER_TYPES, type AuthoringVariant } from '@attesta/contract';
import { Alert, Anchor, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import {
  AnswerInput,
  ownImageFileIds,
  showsOwnHtml,
  type AnswerInputTask,
} from '../../../components/answers/answer-input';
import { RichHtml } from '../../../components/answers/rich-html';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { describeApiError } from '../../../lib/form-errors';
import { subjectTestQuery } from '../api/subject-tests';
import { filePath, scoreTask, taskQuery, type TaskScore } from '../api/tasks';
import { variantsQuery } from '../api/variants';
import { useContentT } from '../locales';
import { CONTENT_BASE } from './content-layout';
import { LoadError } from './load-error';

const isTaskType = (type: string): type is AnswerInputTask['answerType'] =>
  (TASK_ANSWER_TYPES as readonly string[]).includes(type);

type Outcome = { score: TaskScore } | { error: string };

function ScoreResult({ outcome }: { outcome: Outcome }) {
  const t = useContentT();
  if ('error' in outcome)
    return (
      <Alert color="red" role="alert" data-testid="score-error">
        {outcome.error}
      </Alert>
    );
  const { score } = outcome;
  if (score.status === 'manual')
    return (
      <Alert color="blue" role="status" data-testid="score-result">
        {t('preview.manual')}
      </Alert>
    );
  if (score.status === 'empty')
    return (
      <Alert color="gray" role="status" data-testid="score-result">
        {t('preview.empty')}
      </Alert>
    );
  const value = score.score ?? 0;
  const verdict =
    score.correct === true || value >= score.maxScore
      ? { color: 'green', text: t('preview.correct') }
      : value > 0
        ? { color: 'yellow', text: t('preview.partial') }
        : { color: 'red', text: t('preview.incorrect') };
  return (
    <Alert color={verdict.color} role="status" data-testid="score-result">
      <Group gap="sm">
        <Text fw={600}>{t('preview.result', { score: value, max: score.maxScore })}</Text>
        <Badge color={verdict.color}>{verdict.text}</Badge>
      </Group>
    </Alert>
  );
}

function PreviewTask({
  slot,
  index,
  total,
  value,
  outcome,
  onChange,
  onOutcome,
}: {
  slot: AuthoringVariant['tasks'][number];
  index: number;
  total: number;
  value: unknown;
  outcome: Outcome | undefined;
  onChange: (value: unknown) => void;
  onOutcome: (outcome: Outcome) => void;
}) {
  const t = useContentT();
  const { t: appT } = useTranslation();
  const task = useQuery(taskQuery(slot.taskId));
  const headingId = `preview-task-${slot.variantTaskId}`;
  const check = async () => {
    try {
      onOutcome({ score: await scoreTask(slot.taskId, value ?? null) });
    } catch (error) {
      onOutcome({ error: describeApiError(error, appT) });
    }
  };
  const data = task.data;
  // A picture the input draws itself (a hotspot's) is not listed again, as in the runner.
  const drawn = data ? ownImageFileIds(data.answerType, data.content) : [];
  const images = data?.files.filter((f) => f.mime.startsWith('image/') && !drawn.includes(f.id)) ?? [];
  const documents = data?.files.filter((f) => !f.mime.startsWith('image/')) ?? [];
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby={headingId}
      data-testid={`preview-task-${slot.position}`}
    >
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <Title order={2} id={headingId} className="task-heading">
            {t('preview.taskOf', { n: index + 1, total })}
          </Title>
          <Group gap="xs">
            <Badge variant="light" color="gray" size="lg" radius="sm">
              {t('preview.maxScore', { score: slot.maxScore })}
            </Badge>
            <Anchor component={Link} to={`${CONTENT_BASE}/tasks/${slot.taskId}`} size="sm">
              {t('preview.editTask')}
            </Anchor>
          </Group>
        </Group>
        {task.isPending && <Loader size="sm" />}
        {task.error && (
          <Alert color="red" role="alert">
            {t('preview.taskLoadFailed', { message: describeApiError(task.error, appT) })}
          </Alert>
        )}
        {data && (
          <>
            {(!showsOwnHtml(data.answerType) || data.htmlContainerId !== null) && (
              <RichHtml html={data.html} className="task-html" />
            )}
            {images.map((f) => (
              <img key={f.id} src={filePath(f.id)} alt={f.name} className="task-image" />
            ))}
            {documents.length > 0 && (
              <Group gap="sm">
                {documents.map((f) => (
                  <Anchor key={f.id} href={filePath(f.id)} target="_blank" rel="noopener noreferrer">
                    {f.name}
                  </Anchor>
                ))}
              </Group>
            )}
            <div className="answer-area" data-testid="answer-input">
              {isTaskType(data.answerType) && (
                <AnswerInput
                  task={{ answerType: data.answerType, html: data.html, content: data.content }}
                  value={value}
                  onChange={onChange}
                  labelledBy={headingId}
                  upload={() => Promise.reject(new Error('preview'))}
                />
              )}
            </div>
            {data.answerType === 'file' && (
              <Text size="sm" c="dimmed">
                {t('preview.noFileUpload')}
              </Text>
            )}
            <Group>
              <LoadingButton onClick={check} data-testid="score-check">
                {t('preview.check')}
              </LoadingButton>
            </Group>
            {outcome && <ScoreResult outcome={outcome} />}
          </>
        )}
      </Stack>
    </Paper>
  );
}

export function VariantPreviewPage() {
  const t = useContentT();
  const params = useParams();
  const testId = Number(params.id);
  const variantId = Number(params.variantId);
  const test = useQuery(subjectTestQuery(testId));
  const variants = useQuery(variantsQuery(testId));
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<Record<number, unknown>>({});
  const [outcomes, setOutcomes] = useState<Record<number, Outcome>>({});
  const back = (
    <Anchor component={Link} to={`${CONTENT_BASE}/tests/${testId}`}>
      {t('preview.back')}
    </Anchor>
  );

  if (variants.error || test.error)
    return (
      <Stack>
        <LoadError
          error={variants.error ?? test.error}
          onRetry={() => {
            void variants.refetch();
            void test.refetch();
          }}
        />
        {back}
      </Stack>
    );
  if (!variants.data) return <Loader size="sm" />;
  const variant = variants.data.find((v) => v.id === variantId);
  if (!variant)
    return (
      <Stack>
        <Alert color="orange">{t('preview.variantGone')}</Alert>
        {back}
      </Stack>
    );
  const slots = variant.tasks;
  const current = slots[Math.min(index, slots.length - 1)];
  const scored = Object.entries(outcomes).flatMap(([, o]) => ('score' in o ? [o.score] : []));
  const points = scored.reduce((sum, s) => sum + (s.score ?? 0), 0);

  return (
    <Stack gap="md">
      <PageTitle>{t('preview.title', { n: variant.number, name: test.data?.name ?? '' })}</PageTitle>
      <Group justify="space-between">
        {back}
        <Text size="sm" c="dimmed" data-testid="preview-total">
          {t('preview.total', {
            checked: scored.length,
            count: slots.length,
            score: Math.round(points * 100) / 100,
          })}
        </Text>
      </Group>
      <Text size="sm" c="dimmed">
        {t('preview.hint')}
      </Text>
      <Group component="nav" aria-label={t('preview.nav')} gap={4}>
        {slots.map((slot, i) => {
          const outcome = outcomes[slot.variantTaskId];
          const color =
            outcome && 'score' in outcome && outcome.score.status === 'scored'
              ? (outcome.score.score ?? 0) >= outcome.score.maxScore
                ? 'green'
                : 'orange'
              : undefined;
          return (
            <Button
              key={slot.variantTaskId}
              size="compact-sm"
              variant={slot === current ? 'filled' : 'default'}
              color={slot === current ? undefined : color}
              aria-label={t('preview.goTo', { n: i + 1 })}
              aria-current={slot === current ? 'step' : undefined}
              onClick={() => setIndex(i)}
              data-testid={`preview-nav-${i + 1}`}
            >
              {i + 1}
            </Button>
          );
        })}
      </Group>
      {current && (
        <PreviewTask
          key={current.variantTaskId}
          slot={current}
          index={slots.indexOf(current)}
          total={slots.length}
          value={answers[current.variantTaskId]}
          outcome={outcomes[current.variantTaskId]}
          onChange={(value) => {
            setAnswers((a) => ({ ...a, [current.variantTaskId]: value }));
            setOutcomes(({ [current.variantTaskId]: _, ...rest }) => rest);
          }}
          onOutcome={(outcome) => setOutcomes((o) => ({ ...o, [current.variantTaskId]: outcome }))}
        />
      )}
      <Group justify="space-between">
        <Button
          variant="default"
          disabled={index === 0}
          onClick={() => setIndex((i) => i - 1)}
          data-testid="preview-prev"
        >
          ← {t('preview.prev')}
        </Button>
        <Button
          variant="light"
          disabled={index >= slots.length - 1}
          onClick={() => setIndex((i) => i + 1)}
          data-testid="preview-next"
        >
          {t('preview.next')} →
        </Button>
      </Group>
    </Stack>
  );
}
