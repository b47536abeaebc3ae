/**
 * The rubric column: a score per criterion (typed, or a quick button per allowed score), the
 * total, a comment and «save and next». Keyboard marking keeps the focus in this column and never
 * scrolls the answer: a digit anywhere outside a field scores the current criterion, ↑ / ↓ (and Tab)
 * move between criteria, Enter or Ctrl+Enter saves and opens the next answer, N skips to the next,
 * ? shows the keys. On a third check the first two experts' disagreement sits on top.
 */
import type { ExpertAssignment } from '@attesta/contract';
import { Alert, Button, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '../../../components/lite/notify';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { LooseT } from '../../../components/data-table/use-bundle-t';
import { LoadingButton } from '../../../components/ui/loading-button';
import { formatNumber } from '../../../lib/format';
import { expertKeys, saveMarks } from '../api/grading-api';
import { marksOf, scoreError, scoreOptions, totalOf } from '../lib/marks';
import { DisagreementSummary } from './disagreement-summary';
import { ShortcutsHelp } from './shortcuts-help';

/** Typing into the comment or any rich editor: the shortcuts keep off. */
function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.tagName === 'TEXTAREA' || target.isContentEditable);
}

/** A text field that is not a criterion (the PDF page number): letters and digits are its own. */
function isOtherField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLInputElement &&
    target.type !== 'checkbox' &&
    target.type !== 'radio' &&
    !target.dataset.criterion
  );
}

/** Moves the focus without scrolling anything: the answer pane stays where the expert left it. */
const focusQuietly = (el: HTMLElement | null | undefined) => el?.focus({ preventScroll: true });

export function RubricForm({
  assignment,
  t,
  onNext,
  onSaved,
}: {
  assignment: ExpertAssignment;
  t: LooseT;
  onNext: () => void;
  onSaved: (error: unknown) => string;
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
  const [helpOpen, setHelpOpen] = useState(false);
  const [active, setActive] = useState<string | null>(criteria[0]?.code ?? null);
  const inputs = useRef<Record<string, HTMLInputElement | null>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const total = totalOf(criteria, scores);
  const summary = assignment.disagreement;

  useEffect(() => {
    const first = criteria[0];
    if (first && assignment.editable) focusQuietly(inputs.current[first.code]);
  }, [criteria, assignment.editable]);

  const move = (from: string, by: 1 | -1) => {
    const index = criteria.findIndex((c) => c.code === from);
    const target = criteria[index + by];
    if (target) focusQuietly(inputs.current[target.code]);
  };

  // Keys outside the fields: a digit scores the current criterion, Enter / Ctrl+Enter save, N skips, ? helps.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        formRef.current?.requestSubmit();
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target) || isOtherField(event.target)) return;
      const inCriterion = event.target instanceof HTMLInputElement;
      if (/^[nNтТ]$/.test(event.key)) {
        event.preventDefault();
        onNext();
      } else if (event.key === '?' && !inCriterion) {
        event.preventDefault();
        setHelpOpen((open) => !open);
      } else if (!inCriterion && /^\d$/.test(event.key) && active && assignment.editable) {
        const code = active;
        setScores((s) => ({ ...s, [code]: event.key }));
        focusQuietly(inputs.current[code]);
        event.preventDefault();
      } else if (!inCriterion && event.key === 'Enter' && event.target === document.body) {
        event.preventDefault();
        formRef.current?.requestSubmit();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onNext, active, assignment.editable]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !assignment.editable) return;
    const marks = marksOf(criteria, scores);
    if (!marks) {
      setShowErrors(true);
      const firstBad = criteria.find((c) => scoreError(scores[c.code] ?? '', c.maxScore, c.step));
      if (firstBad) focusQuietly(inputs.current[firstBad.code]);
      return;
    }
    setBusy(true);
    try {
      const trimmed = comment.trim();
      await saveMarks(assignment.id, trimmed ? { marks, comment: trimmed } : { marks });
      notifications.show({ color: 'green', message: t('expert.grading.saved') });
      // The next answer comes with the refreshed queue.
      await queryClient.invalidateQueries({ queryKey: expertKeys.all });
    } catch (error) {
      notifications.show({ color: 'red', message: onSaved(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      aria-label={t('expert.grading.criteria')}
      className="grading-rubric-form"
      data-testid="grading-rubric"
    >
      <Stack gap="sm" className="grading-rubric-body">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} fz="md">
            {t('expert.grading.criteria')}
          </Title>
          <ShortcutsHelp t={t} opened={helpOpen} onChange={setHelpOpen} />
        </Group>
        {summary && <DisagreementSummary summary={summary} criteria={criteria} t={t} />}
        {criteria.map((criterion) => {
          const raw = scores[criterion.code] ?? '';
          // A typed score out of range or off its step is refused at once, as the server would
          // refuse it; an empty field is only an error once the expert tries to save.
          const found = scoreError(raw, criterion.maxScore, criterion.step);
          const error = found === 'required' && !showErrors ? null : found;
          const options = scoreOptions(criterion.maxScore, criterion.step);
          const previous = summary?.criteria.find((c) => c.criterionCode === criterion.code);
          const setScore = (value: string) => setScores((s) => ({ ...s, [criterion.code]: value }));
          return (
            <div
              key={criterion.code}
              className="grading-criterion"
              data-active={active === criterion.code || undefined}
              data-testid={`criterion-row-${criterion.code}`}
            >
              <Text size="sm" mb={4}>
                <Text span fw={700}>
                  {criterion.code}.
                </Text>{' '}
                {criterion.text}
              </Text>
              <Group gap="xs" align="flex-start" wrap="nowrap">
                <TextInput
                  ref={(el) => {
                    inputs.current[criterion.code] = el;
                  }}
                  w={84}
                  aria-label={t('expert.grading.scoreFor', { code: criterion.code, max: criterion.maxScore })}
                  inputMode="decimal"
                  autoComplete="off"
                  value={raw}
                  disabled={!assignment.editable}
                  data-criterion={criterion.code}
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
                    setActive(criterion.code);
                    event.currentTarget.select();
                  }}
                  onKeyDown={(event) => {
                    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                      event.preventDefault();
                      move(criterion.code, event.key === 'ArrowDown' ? 1 : -1);
                    }
                  }}
                  onChange={(event) => setScore(event.currentTarget.value)}
                />
                {options && (
                  <Group
                    gap={4}
                    wrap="wrap"
                    role="group"
                    aria-label={t('expert.grading.quickScores', { code: criterion.code })}
                  >
                    {options.map((value) => {
                      const text = formatNumber(value);
                      const chosen = raw !== '' && raw.replace(',', '.') === String(value);
                      return (
                        <Button
                          key={value}
                          size="compact-sm"
                          variant={chosen ? 'filled' : 'default'}
                          // Tab moves between criteria; the typed field does what these buttons do.
                          tabIndex={-1}
                          disabled={!assignment.editable}
                          aria-pressed={chosen}
                          aria-label={t('expert.grading.setScore', { code: criterion.code, score: text })}
                          onClick={() => {
                            setScore(text);
                            setActive(criterion.code);
                            focusQuietly(inputs.current[criterion.code]);
                          }}
                          data-testid={`quick-${criterion.code}-${value}`}
                        >
                          {text}
                        </Button>
                      );
                    })}
                  </Group>
                )}
              </Group>
              <Text size="xs" c="dimmed" mt={2}>
                {t(criterion.step === 1 ? 'expert.grading.criterionMax' : 'expert.grading.criterionMaxStep', {
                  max: criterion.maxScore,
                  step: formatNumber(criterion.step),
                })}
                {previous &&
                  ` · ${t('expert.third.inline', {
                    first: previous.expert1 === null ? '—' : formatNumber(previous.expert1),
                    second: previous.expert2 === null ? '—' : formatNumber(previous.expert2),
                  })}`}
              </Text>
            </div>
          );
        })}
        <Textarea
          label={t('expert.grading.comment')}
          description={t('expert.grading.commentHint')}
          rows={3}
          maxLength={4000}
          value={comment}
          disabled={!assignment.editable}
          onChange={(event) => setComment(event.currentTarget.value)}
        />
      </Stack>
      <Stack gap="xs" className="grading-rubric-footer">
        <Text fw={700} data-testid="grading-total" aria-live="polite">
          {t('expert.grading.total', { total: formatNumber(total), max: formatNumber(maxScore) })}
        </Text>
        {showErrors && !marksOf(criteria, scores) && (
          <Alert color="red" variant="light" p="xs" data-testid="grading-errors">
            {t('expert.grading.fixErrors')}
          </Alert>
        )}
        {!assignment.editable && (
          <Text size="sm" c="dimmed">
            {t('expert.grading.closed')}
          </Text>
        )}
        <Group gap="xs">
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
  );
}
