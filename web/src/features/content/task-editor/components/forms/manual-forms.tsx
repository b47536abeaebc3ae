/**
 * Expert-graded answers: a written text or attached files, their limits, the third-check
 * threshold, and the rubric: criteria rows (code, what earns the points, points, step 1 or 0.5)
 * whose points add up to the max score.
 */
import {
  Alert,
  Button,
  Checkbox,
  Divider,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import type { CriterionDraft } from '../../model/draft';
import { useTaskEditorT } from '../../locales';
import { NumField, RowButtons, moved } from './fields';
import { MethodField } from './scoring-fields';
import type { TypeFormProps } from './types';

/** File kinds offered for attachments (MIME patterns the contract accepts). */
export const ACCEPT_KINDS = [
  { value: 'image/*', key: 'images' },
  { value: 'application/pdf', key: 'pdf' },
  { value: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', key: 'docx' },
  { value: 'application/msword', key: 'doc' },
  { value: 'text/plain', key: 'text' },
] as const;

export function ManualForm({ draft, update, problems }: TypeFormProps) {
  const { t } = useTaskEditorT();
  const file = draft.answerType === 'file';
  const content = draft.content;
  const accept = (content.accept as string[] | undefined) ?? [];
  return (
    <Stack gap="md">
      {file ? (
        <>
          <Checkbox.Group
            label={t('taskEditor.file.accept')}
            value={accept}
            onChange={(next) => update({ content: { ...content, accept: next } })}
            error={problems.at('content.accept')}
          >
            <Group mt="xs">
              {ACCEPT_KINDS.map((k) => (
                <Checkbox key={k.value} value={k.value} label={t(`taskEditor.file.kinds.${k.key}`)} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group grow align="flex-start">
            <NumField
              label={t('taskEditor.file.maxFiles')}
              min={1}
              max={20}
              allowDecimal={false}
              value={content.maxFiles as number | undefined}
              error={problems.at('content.maxFiles')}
              onChange={(v) => update({ content: { ...content, maxFiles: v } })}
            />
            <NumField
              label={t('taskEditor.file.maxSizeMb')}
              min={0.1}
              max={100}
              value={content.maxSizeMb as number | undefined}
              error={problems.at('content.maxSizeMb')}
              onChange={(v) => update({ content: { ...content, maxSizeMb: v } })}
            />
          </Group>
        </>
      ) : (
        <NumField
          label={t('taskEditor.text.maxLength')}
          min={1}
          max={100_000}
          allowDecimal={false}
          w={260}
          value={content.maxLength as number | undefined}
          error={problems.at('content.maxLength')}
          onChange={(v) => update({ content: { ...content, maxLength: v } })}
        />
      )}
      <Divider label={t('taskEditor.sections.scoring')} labelPosition="left" />
      <MethodField draft={draft} onMethod={() => {}} problems={problems} />
      <NumField
        label={t('taskEditor.manual.threshold')}
        description={t('taskEditor.manual.thresholdHint')}
        min={0}
        w={320}
        value={draft.scoring.thirdCheckThreshold as number | undefined}
        error={problems.at('scoring.thirdCheckThreshold')}
        onChange={(v) => update({ scoring: { ...draft.scoring, thirdCheckThreshold: v } })}
      />
      <RubricForm draft={draft} update={update} problems={problems} />
    </Stack>
  );
}

export function RubricForm({ draft, update, problems }: TypeFormProps) {
  const { t } = useTaskEditorT();
  const criteria = draft.criteria;
  const sum = criteria.reduce((s, c) => s + (c.maxScore ?? 0), 0);
  const set = (next: CriterionDraft[]) => update({ criteria: next });
  const setRow = (i: number, patch: Partial<CriterionDraft>) =>
    set(criteria.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const matches = draft.maxScore !== undefined && sum === draft.maxScore;
  const error = problems.at('criteria');
  return (
    <Stack gap="xs" data-testid="rubric">
      <Text fw={500}>{t('taskEditor.rubric.title')}</Text>
      <Text size="xs" c="dimmed">
        {t('taskEditor.rubric.hint')}
      </Text>
      {criteria.map((c, i) => {
        const name = t('taskEditor.fields.criterion', { n: i + 1 });
        return (
          <Paper key={i} withBorder p="xs" data-testid={`criterion-${i + 1}`}>
            <Group align="flex-start" wrap="nowrap" gap="xs">
              <TextInput
                w={90}
                label={t('taskEditor.rubric.code')}
                aria-label={t('taskEditor.rubric.codeOf', { n: i + 1 })}
                value={c.code}
                maxLength={16}
                error={problems.at(`criteria.${i}.code`)}
                onChange={(e) => setRow(i, { code: e.currentTarget.value })}
              />
              <Textarea
                style={{ flex: 1 }}
                label={t('taskEditor.rubric.text')}
                aria-label={t('taskEditor.rubric.textOf', { n: i + 1 })}
                autosize
                minRows={1}
                value={c.text}
                error={problems.at(`criteria.${i}.text`)}
                onChange={(e) => setRow(i, { text: e.currentTarget.value })}
              />
              <NumField
                w={100}
                label={t('taskEditor.rubric.points')}
                aria-label={t('taskEditor.rubric.pointsOf', { n: i + 1 })}
                min={1}
                max={100}
                allowDecimal={false}
                value={c.maxScore}
                error={problems.at(`criteria.${i}.maxScore`)}
                onChange={(v) => setRow(i, { maxScore: v })}
              />
              <Select
                w={110}
                label={t('taskEditor.rubric.step')}
                aria-label={t('taskEditor.rubric.stepOf', { n: i + 1 })}
                allowDeselect={false}
                value={String(c.step)}
                error={problems.at(`criteria.${i}.step`)}
                onChange={(v) => setRow(i, { step: v === '0.5' ? 0.5 : 1 })}
                data={[
                  { value: '1', label: t('taskEditor.rubric.stepWhole') },
                  { value: '0.5', label: t('taskEditor.rubric.stepHalf') },
                ]}
              />
              <div style={{ paddingTop: 24 }}>
                <RowButtons
                  index={i}
                  count={criteria.length}
                  name={name}
                  onMove={(from, to) => set(moved(criteria, from, to))}
                  onRemove={() => set(criteria.filter((_, j) => j !== i))}
                />
              </div>
            </Group>
          </Paper>
        );
      })}
      <Group justify="space-between">
        <Button
          variant="light"
          size="xs"
          disabled={criteria.length >= 20}
          onClick={() =>
            set([...criteria, { code: `К${criteria.length + 1}`, text: '', maxScore: 1, step: 1 }])
          }
        >
          {t('taskEditor.rubric.add')}
        </Button>
        <Text size="sm" c={matches ? 'green.8' : 'orange.8'} data-testid="rubric-sum">
          {t('taskEditor.rubric.sum', { sum, max: draft.maxScore ?? '—' })}
        </Text>
      </Group>
      {!matches && criteria.length > 0 && (
        <Alert color="orange" variant="light" role={error ? 'alert' : undefined}>
          <Group justify="space-between">
            <Text size="sm">{error ?? t('taskEditor.problem.criteriaSum')}</Text>
            {sum > 0 && sum <= 100 && (
              <Button size="xs" variant="white" onClick={() => update({ maxScore: sum })}>
                {t('taskEditor.rubric.useSum', { sum })}
              </Button>
            )}
          </Group>
        </Alert>
      )}
      {error && matches && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
