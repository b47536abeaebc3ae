/**
 * `/expert/grading`: the queue by subject test and day, one anonymised answer at a time with its
 * task, reference and rubric, scores per criterion (keyboard: digits, Enter, N), progress, and a
 * zip of a date range. Blind marking: nothing here names the participant or another expert's marks.
 */
import type { ExpertAssignment, ExpertNextQuery } from '@attesta/contract';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Progress as ProgressBar,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { RichHtml } from '../../../components/answers/rich-html';
import { useDownload } from '../../../components/data-table/use-download';
import { useBundleT, type LooseT } from '../../../components/data-table/use-bundle-t';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { apiClient, ApiError } from '../../../lib/api-client';
import { formatDisplayDate, formatNumber, parsePlainDate } from '../../../lib/format';
import {
  ANSWERS_ZIP_PATH,
  expertKeys,
  getAnswerDates,
  getNext,
  getQueue,
  saveMarks,
} from '../api/grading-api';
import { AttachmentView } from './attachment-view';
import { expertBundle } from '../locales';
import { marksOf, scoreError, totalOf } from '../lib/marks';
import { describeApiError } from '../../../lib/form-errors';

const displayDate = (plain: string) => {
  const date = parsePlainDate(plain);
  return date ? formatDisplayDate(date) : plain;
};

function failureMessage(error: unknown, t: LooseT): string {
  if (error instanceof ApiError && error.status === 401) apiClient.redirectFor(error);
  if (error instanceof ApiError && error.code === 'grading_closed') return t('expert.grading.closed');
  return t('expert.grading.failed', { message: describeApiError(error, t) });
}

export function GradingPage() {
  const { t } = useBundleT(expertBundle);
  const [filter, setFilter] = useState<ExpertNextQuery>({});
  const queue = useQuery({ queryKey: expertKeys.queue, queryFn: ({ signal }) => getQueue(signal) });
  const next = useQuery({
    queryKey: expertKeys.next(filter),
    queryFn: ({ signal }) => getNext(filter, signal),
    retry: false,
  });
  const progress = next.data?.progress;
  const assignment = next.data?.assignment ?? null;

  return (
    <Stack gap="lg">
      <PageTitle>{t('expert.grading.title')}</PageTitle>
      <Text size="sm" c="dimmed">
        {t('expert.grading.shortcuts')}
      </Text>

      <Paper withBorder p="md" radius="md" data-testid="grading-queue">
        <Group justify="space-between" mb="sm">
          <Title order={2} fz="lg">
            {t('expert.grading.queue')}
          </Title>
          <Button
            size="xs"
            variant={filter.subjectTestId ? 'default' : 'filled'}
            onClick={() => setFilter({})}
            data-testid="grading-queue-all"
          >
            {t('expert.grading.all')}
          </Button>
        </Group>
        {queue.isPending && <Loader size="sm" />}
        {queue.error && (
          <Alert color="red" variant="light">
            {failureMessage(queue.error, t)}
          </Alert>
        )}
        {queue.data && queue.data.items.length === 0 && (
          <Text c="dimmed">{t('expert.grading.queueEmpty')}</Text>
        )}
        {queue.data && queue.data.items.length > 0 && (
          <Table.ScrollContainer minWidth={560}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('expert.grading.subjectTest')}</Table.Th>
                  <Table.Th>{t('expert.grading.date')}</Table.Th>
                  <Table.Th>{t('expert.grading.open')}</Table.Th>
                  <Table.Th>{t('expert.grading.graded')}</Table.Th>
                  <Table.Th>{t('expert.grading.thirdChecks')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {queue.data.items.map((item) => {
                  const active = filter.subjectTestId === item.subjectTestId && filter.date === item.date;
                  return (
                    <Table.Tr key={`${item.subjectTestId}-${item.date}`} aria-selected={active || undefined}>
                      <Table.Td>
                        {item.subjectTestName}
                        <Text size="xs" c="dimmed">
                          {item.subjectName}
                        </Text>
                      </Table.Td>
                      <Table.Td>{displayDate(item.date)}</Table.Td>
                      <Table.Td>{item.assigned}</Table.Td>
                      <Table.Td>{item.graded}</Table.Td>
                      <Table.Td>
                        {item.thirdChecks ? <Badge color="orange">{item.thirdChecks}</Badge> : 0}
                      </Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant={active ? 'filled' : 'light'}
                          disabled={item.assigned === 0}
                          onClick={() => setFilter({ subjectTestId: item.subjectTestId, date: item.date })}
                        >
                          {t('expert.grading.pick')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>

      {progress && (
        <Stack gap={4} data-testid="grading-progress">
          <Text size="sm">
            {t('expert.grading.progress', { done: progress.done, total: progress.total })}
          </Text>
          <ProgressBar
            value={progress.total ? (100 * progress.done) / progress.total : 100}
            aria-label={t('expert.grading.progress', { done: progress.done, total: progress.total })}
          />
        </Stack>
      )}

      {next.isPending && <Loader />}
      {next.error && (
        <Alert color="red" variant="light">
          {failureMessage(next.error, t)}
        </Alert>
      )}
      {next.data && !assignment && (
        <Alert color="green" variant="light" data-testid="grading-done">
          {t('expert.grading.done')}
        </Alert>
      )}
      {assignment && (
        <AnswerCard key={assignment.id} assignment={assignment} t={t} onNext={() => void next.refetch()} />
      )}

      <ZipDownload t={t} />
    </Stack>
  );
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.tagName === 'TEXTAREA' || target.isContentEditable);
}

function AnswerCard({
  assignment,
  t,
  onNext,
}: {
  assignment: ExpertAssignment;
  t: LooseT;
  onNext: () => void;
}) {
  const queryClient = useQueryClient();
  const { criteria, maxScore } = assignment.task;
  const [scores, setScores] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      (assignment.marks ?? []).map((m) => [m.criterionCode, String(m.score).replace('.', ',')]),
    ),
  );
  const [comment, setComment] = useState(assignment.comment ?? '');
  const [showErrors, setShowErrors] = useState(false);
  const [busy, setBusy] = useState(false);
  const inputs = useRef<Record<string, HTMLInputElement | null>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const active = useRef<string | null>(criteria[0]?.code ?? null);
  const total = totalOf(criteria, scores);

  useEffect(() => {
    const first = criteria[0];
    if (first) inputs.current[first.code]?.focus();
  }, [criteria]);

  // Shortcuts outside the fields: a digit sets the focused (last used) criterion, Enter saves, N moves on.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      const inField = event.target instanceof HTMLInputElement;
      if (/^[nNтТ]$/.test(event.key)) {
        event.preventDefault();
        onNext();
      } else if (!inField && /^\d$/.test(event.key) && active.current) {
        const code = active.current;
        setScores((s) => ({ ...s, [code]: event.key }));
        inputs.current[code]?.focus();
        event.preventDefault();
      } else if (!inField && event.key === 'Enter' && event.target === document.body) {
        formRef.current?.requestSubmit();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onNext]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const marks = marksOf(criteria, scores);
    if (!marks) {
      setShowErrors(true);
      const firstBad = criteria.find((c) => scoreError(scores[c.code] ?? '', c.maxScore, c.step));
      if (firstBad) inputs.current[firstBad.code]?.focus();
      return;
    }
    setBusy(true);
    try {
      const trimmed = comment.trim();
      await saveMarks(assignment.id, trimmed ? { marks, comment: trimmed } : { marks });
      notifications.show({ color: 'green', message: t('expert.grading.saved') });
      await queryClient.invalidateQueries({ queryKey: expertKeys.all });
    } catch (error) {
      notifications.show({ color: 'red', message: failureMessage(error, t) });
    } finally {
      setBusy(false);
    }
  };

  const value = assignment.answer.value;
  const text = typeof value === 'string' ? value : value == null ? '' : JSON.stringify(value, null, 2);
  const reference = assignment.task.reference;
  const third = assignment.round >= 3;

  return (
    <Paper withBorder p="lg" radius="md" data-testid="grading-answer">
      <Stack gap="md">
        <Group justify="space-between">
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
          </Group>
        </Group>

        <section>
          <Title order={3} fz="md" mb={4}>
            {t('expert.grading.task')}
          </Title>
          <RichHtml html={assignment.task.html} />
        </section>

        <section>
          <Title order={3} fz="md" mb={4}>
            {t('expert.grading.answer')}
          </Title>
          {text.trim() ? (
            <Paper bg="gray.0" p="sm" radius="sm">
              <Text style={{ whiteSpace: 'pre-wrap' }} data-testid="grading-answer-text">
                {text}
              </Text>
            </Paper>
          ) : (
            assignment.answer.files.length === 0 && <Text c="dimmed">{t('expert.grading.noAnswer')}</Text>
          )}
          {assignment.answer.files.length > 0 && (
            <Stack gap="sm" mt="sm">
              <Text fw={600} size="sm">
                {t('expert.grading.attachments')}
              </Text>
              {assignment.answer.files.map((file) => (
                <AttachmentView key={file.id} file={file} t={t} />
              ))}
            </Stack>
          )}
        </section>

        {reference != null && (
          <section>
            <Title order={3} fz="md" mb={4}>
              {t('expert.grading.reference')}
            </Title>
            <Text style={{ whiteSpace: 'pre-wrap' }}>
              {typeof reference === 'string' ? reference : JSON.stringify(reference, null, 2)}
            </Text>
          </section>
        )}
        {assignment.task.solutionHtml && (
          <section>
            <Title order={3} fz="md" mb={4}>
              {t('expert.grading.solution')}
            </Title>
            <RichHtml html={assignment.task.solutionHtml} />
          </section>
        )}

        <form ref={formRef} onSubmit={submit} noValidate aria-label={t('expert.grading.criteria')}>
          <Stack gap="sm">
            <Title order={3} fz="md">
              {t('expert.grading.criteria')}
            </Title>
            {criteria.map((criterion) => {
              const raw = scores[criterion.code] ?? '';
              const error = showErrors ? scoreError(raw, criterion.maxScore, criterion.step) : null;
              return (
                <Group key={criterion.code} align="flex-start" wrap="nowrap" gap="md">
                  <TextInput
                    ref={(el) => {
                      inputs.current[criterion.code] = el;
                    }}
                    w={120}
                    label={criterion.code}
                    description={t(
                      criterion.step === 1
                        ? 'expert.grading.criterionMax'
                        : 'expert.grading.criterionMaxStep',
                      { max: criterion.maxScore, step: formatNumber(criterion.step) },
                    )}
                    inputMode="decimal"
                    autoComplete="off"
                    value={raw}
                    disabled={!assignment.editable}
                    error={
                      error
                        ? t(`expert.grading.${error}`, {
                            max: criterion.maxScore,
                            step: formatNumber(criterion.step),
                          })
                        : undefined
                    }
                    data-testid={`criterion-${criterion.code}`}
                    onFocus={(event) => {
                      active.current = criterion.code;
                      event.currentTarget.select();
                    }}
                    onChange={(event) => {
                      const next = event.currentTarget.value;
                      setScores((s) => ({ ...s, [criterion.code]: next }));
                    }}
                  />
                  <Text size="sm" pt={4} style={{ flex: 1 }}>
                    {criterion.text}
                  </Text>
                </Group>
              );
            })}
            <Text fw={700} data-testid="grading-total" aria-live="polite">
              {t('expert.grading.total', { total: formatNumber(total), max: formatNumber(maxScore) })}
            </Text>
            <Textarea
              label={t('expert.grading.comment')}
              rows={3}
              maxLength={4000}
              value={comment}
              disabled={!assignment.editable}
              onChange={(event) => setComment(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && (event.ctrlKey || event.metaKey))
                  formRef.current?.requestSubmit();
              }}
            />
            {showErrors && !marksOf(criteria, scores) && (
              <Alert color="red" variant="light" data-testid="grading-errors">
                {t('expert.grading.fixErrors')}
              </Alert>
            )}
            <Group>
              <LoadingButton
                type="submit"
                loading={busy}
                disabled={!assignment.editable}
                data-testid="grading-submit"
              >
                {t('expert.grading.submit')}
              </LoadingButton>
              <Button variant="default" onClick={onNext} data-testid="grading-next">
                {t('expert.grading.next')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}

function ZipDownload({ t }: { t: LooseT }) {
  const download = useDownload();
  const dates = useQuery({ queryKey: expertKeys.dates, queryFn: ({ signal }) => getAnswerDates(signal) });
  const [from, setFrom] = useState('');
  const [till, setTill] = useState('');
  const first = dates.data?.dates[0] ?? '';
  const date = from || first;
  return (
    <Paper withBorder p="md" radius="md" data-testid="grading-zip">
      <Title order={2} fz="lg" mb="sm">
        {t('expert.grading.zip')}
      </Title>
      {dates.data && dates.data.dates.length > 0 && (
        <Text size="sm" c="dimmed" mb="xs">
          {t('expert.grading.zipDates', { dates: dates.data.dates.map(displayDate).join(', ') })}
        </Text>
      )}
      <Group align="flex-end">
        <TextInput
          type="date"
          label={t('expert.grading.zipFrom')}
          value={date}
          onChange={(e) => setFrom(e.currentTarget.value)}
        />
        <TextInput
          type="date"
          label={t('expert.grading.zipTill')}
          value={till}
          min={date || undefined}
          onChange={(e) => setTill(e.currentTarget.value)}
        />
        <LoadingButton
          variant="light"
          disabled={!date}
          data-testid="grading-zip-button"
          onClick={() =>
            download(ANSWERS_ZIP_PATH, { date, dateTill: till || undefined }, `answers-${date}.zip`)
          }
        >
          {t('expert.grading.zipButton')}
        </LoadingButton>
      </Group>
    </Paper>
  );
}
