/** Single and multiple choice: options, the correct ones, shuffle, choice limits, points per option. */
import { Checkbox, Divider, Group, Radio, Stack, Text } from '@mantine/core';
import type { Labelled } from '../../model/draft';
import { withMethod } from '../../model/methods';
import { useTaskEditorT } from '../../locales';
import { LabelledList, NumField } from './fields';
import { MethodField } from './scoring-fields';
import { asRecord, type TypeFormProps } from './types';

export function ChoiceForm({ draft, update, problems, importedScoring }: TypeFormProps) {
  const { t } = useTaskEditorT();
  const multiple = draft.answerType === 'multiple_choice';
  const content = draft.content;
  const options = (content.options as Labelled[] | undefined) ?? [];
  const reference = asRecord(draft.reference);
  const correct: string[] = multiple
    ? ((reference.correct as string[] | undefined) ?? [])
    : reference.correct
      ? [String(reference.correct)]
      : [];
  const scoring = draft.scoring;
  const perChoice = !importedScoring && scoring.method === 'per_choice';
  const map = asRecord(scoring.map) as Record<string, number | undefined>;

  const setOptions = (next: Labelled[]) => {
    const ids = next.map((o) => o.id);
    const patch: Parameters<typeof update>[0] = { content: { ...content, options: next } };
    const kept = correct.filter((id) => ids.includes(id));
    patch.reference = multiple ? { correct: kept } : { correct: kept[0] ?? '' };
    if (perChoice)
      patch.scoring = { ...scoring, map: Object.fromEntries(ids.map((id) => [id, map[id] ?? 0])) };
    update(patch);
  };
  const setCorrect = (id: string, on: boolean) => {
    if (!multiple) return update({ reference: { correct: id } });
    const next = on ? [...correct, id] : correct.filter((x) => x !== id);
    update({ reference: { correct: options.map((o) => o.id).filter((x) => next.includes(x)) } });
  };
  const correctError = problems.at('reference.correct');
  const list = (
    <LabelledList
      title={t('taskEditor.choice.options')}
      itemName={(n) => t('taskEditor.fields.option', { n })}
      items={options}
      onChange={setOptions}
      idPrefix="o"
      min={2}
      max={26}
      problems={problems}
      path="content.options"
      addLabel={t('taskEditor.choice.add')}
      testId="options"
      before={(item, i) =>
        multiple ? (
          <Checkbox
            mt={8}
            aria-label={t('taskEditor.choice.markCorrect', { n: i + 1 })}
            checked={correct.includes(item.id)}
            onChange={(e) => setCorrect(item.id, e.currentTarget.checked)}
          />
        ) : (
          <Radio mt={8} value={item.id} aria-label={t('taskEditor.choice.markCorrect', { n: i + 1 })} />
        )
      }
      after={
        perChoice
          ? (item, i) => (
              <NumField
                w={110}
                aria-label={t('taskEditor.fields.optionPoints', { n: i + 1 })}
                placeholder={t('taskEditor.choice.points')}
                value={map[item.id]}
                error={problems.at(`scoring.map.${item.id}`)}
                onChange={(v) => update({ scoring: { ...scoring, map: { ...map, [item.id]: v } } })}
              />
            )
          : undefined
      }
    />
  );

  return (
    <Stack gap="md">
      {multiple ? (
        <Stack gap={4}>
          {list}
          {correctError && (
            <Text size="sm" c="red" role="alert">
              {correctError}
            </Text>
          )}
        </Stack>
      ) : (
        <Radio.Group
          value={correct[0] ?? null}
          onChange={(id) => setCorrect(id, true)}
          error={correctError}
          aria-label={t('taskEditor.choice.correct')}
        >
          {list}
        </Radio.Group>
      )}
      <Checkbox
        label={t('taskEditor.shuffle')}
        description={t('taskEditor.shuffleHint')}
        checked={content.shuffle === true}
        onChange={(e) => update({ content: { ...content, shuffle: e.currentTarget.checked } })}
      />
      {multiple && (
        <Group grow align="flex-start">
          <NumField
            label={t('taskEditor.fields.minChoices')}
            description={t('taskEditor.choice.limitHint')}
            min={1}
            allowDecimal={false}
            value={content.minChoices as number | undefined}
            error={problems.at('content.minChoices')}
            onChange={(v) => update({ content: { ...content, minChoices: v } })}
          />
          <NumField
            label={t('taskEditor.fields.maxChoices')}
            description={t('taskEditor.choice.limitHint')}
            min={1}
            allowDecimal={false}
            value={content.maxChoices as number | undefined}
            error={problems.at('content.maxChoices')}
            onChange={(v) => update({ content: { ...content, maxChoices: v } })}
          />
        </Group>
      )}
      {!importedScoring && (
        <>
          <Divider label={t('taskEditor.sections.scoring')} labelPosition="left" />
          <MethodField draft={draft} onMethod={(m) => update(withMethod(draft, m))} problems={problems} />
          {perChoice && multiple && (
            <Group grow align="flex-start">
              <NumField
                label={t('taskEditor.fields.lowerBound')}
                description={t('taskEditor.choice.lowerBoundHint')}
                value={scoring.lowerBound as number | undefined}
                error={problems.at('scoring.lowerBound')}
                onChange={(v) => update({ scoring: { ...scoring, lowerBound: v } })}
              />
              <NumField
                label={t('taskEditor.fields.upperBound')}
                description={t('taskEditor.choice.upperBoundHint')}
                value={scoring.upperBound as number | undefined}
                error={problems.at('scoring.upperBound')}
                onChange={(v) => update({ scoring: { ...scoring, upperBound: v } })}
              />
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
