/** Typed answers: a short text, a number (a value with a tolerance, or a range), digits. */
import {
  Button,
  Checkbox,
  Divider,
  Group,
  Paper,
  Radio,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { withMethod } from '../../model/methods';
import { useTaskEditorT } from '../../locales';
import { NumField, RowButtons, TextList, moved } from './fields';
import { MethodField, TextRules } from './scoring-fields';
import { asRecord, type TypeFormProps } from './types';

type ScoredText = { text: string; points: number | undefined };

export function ShortTextForm({ draft, update, problems, importedScoring }: TypeFormProps) {
  const { t } = useTaskEditorT();
  const reference = asRecord(draft.reference);
  const accepted = (reference.accepted as string[] | undefined) ?? [];
  const answers = (reference.answers as ScoredText[] | undefined) ?? [];
  const perAnswer = !importedScoring && draft.scoring.method === 'per_answer';
  const setAnswers = (next: ScoredText[]) => update({ reference: { ...reference, answers: next } });
  return (
    <Stack gap="md">
      <NumField
        label={t('taskEditor.text.maxLength')}
        min={1}
        max={1000}
        allowDecimal={false}
        w={220}
        value={draft.content.maxLength as number | undefined}
        error={problems.at('content.maxLength')}
        onChange={(v) => update({ content: { ...draft.content, maxLength: v } })}
      />
      <TextList
        title={t('taskEditor.text.accepted')}
        itemName={(n) => t('taskEditor.fields.acceptedAnswer', { n })}
        values={accepted}
        onChange={(next) => update({ reference: { ...reference, accepted: next } })}
        problems={problems}
        path="reference.accepted"
        addLabel={t('taskEditor.text.addAccepted')}
        testId="accepted"
      />
      {!importedScoring && (
        <>
          <Divider label={t('taskEditor.sections.scoring')} labelPosition="left" />
          <MethodField draft={draft} onMethod={(m) => update(withMethod(draft, m))} problems={problems} />
          {perAnswer && (
            <Stack gap="xs" data-testid="scored-answers">
              <Text fw={500} size="sm">
                {t('taskEditor.text.scored')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('taskEditor.text.scoredHint')}
              </Text>
              {answers.map((a, i) => (
                <Group key={i} wrap="nowrap" align="flex-start" gap="xs">
                  <TextInput
                    style={{ flex: 1 }}
                    aria-label={t('taskEditor.fields.scoredAnswer', { n: i + 1 })}
                    placeholder={t('taskEditor.text.answer')}
                    value={a.text}
                    error={problems.at(`reference.answers.${i}.text`)}
                    onChange={(e) => {
                      const text = e.currentTarget.value;
                      setAnswers(answers.map((x, j) => (j === i ? { ...x, text } : x)));
                    }}
                  />
                  <NumField
                    w={110}
                    aria-label={t('taskEditor.text.pointsOf', { n: i + 1 })}
                    placeholder={t('taskEditor.choice.points')}
                    value={a.points}
                    error={problems.at(`reference.answers.${i}.points`)}
                    onChange={(points) => setAnswers(answers.map((x, j) => (j === i ? { ...x, points } : x)))}
                  />
                  <RowButtons
                    index={i}
                    count={answers.length}
                    name={t('taskEditor.fields.scoredAnswer', { n: i + 1 })}
                    onMove={(from, to) => setAnswers(moved(answers, from, to))}
                    onRemove={() => setAnswers(answers.filter((_, j) => j !== i))}
                    removeDisabled={answers.length <= 1}
                  />
                </Group>
              ))}
              {problems.at('reference.answers') && (
                <Text size="sm" c="red" role="alert">
                  {problems.at('reference.answers')}
                </Text>
              )}
              <Group>
                <Button
                  variant="light"
                  size="xs"
                  onClick={() => setAnswers([...answers, { text: '', points: draft.maxScore }])}
                >
                  {t('taskEditor.text.addScored')}
                </Button>
              </Group>
            </Stack>
          )}
          <TextRules scoring={draft.scoring} onChange={(scoring) => update({ scoring })} />
        </>
      )}
    </Stack>
  );
}

type NumberKey = {
  value?: number;
  tolerance?: number;
  toleranceMode?: 'absolute' | 'relative';
  min?: number;
  max?: number;
  points?: number;
};

const isRange = (k: NumberKey) => 'min' in k || 'max' in k;
const percent = (fraction: number | undefined) =>
  fraction === undefined ? undefined : Math.round(fraction * 100 * 1e9) / 1e9;
const fraction = (pct: number | undefined) =>
  pct === undefined ? undefined : Math.round((pct / 100) * 1e12) / 1e12;

/** One numeric key: a value within a tolerance (absolute, or relative in percent) or a range. */
function NumberKeyFields({
  value,
  onChange,
  path,
  problems,
  name,
}: {
  value: NumberKey;
  onChange: (next: NumberKey) => void;
  path: string;
  problems: TypeFormProps['problems'];
  name: string;
}) {
  const { t } = useTaskEditorT();
  const range = isRange(value);
  const relative = value.toleranceMode === 'relative';
  const keep = value.points === undefined ? {} : { points: value.points };
  return (
    <Stack gap="xs">
      <SegmentedControl
        size="xs"
        value={range ? 'range' : 'value'}
        aria-label={t('taskEditor.number.kind', { name })}
        onChange={(kind) =>
          onChange(
            kind === 'range'
              ? { min: value.value, max: value.value, ...keep }
              : { value: value.min, tolerance: 0, toleranceMode: 'absolute', ...keep },
          )
        }
        data={[
          { value: 'value', label: t('taskEditor.number.valueKind') },
          { value: 'range', label: t('taskEditor.number.rangeKind') },
        ]}
      />
      {range ? (
        <Group grow align="flex-start">
          <NumField
            label={t('taskEditor.number.min')}
            value={value.min}
            error={problems.at(`${path}.min`)}
            onChange={(min) => onChange({ ...value, min })}
          />
          <NumField
            label={t('taskEditor.number.max')}
            value={value.max}
            error={problems.at(`${path}.max`)}
            onChange={(max) => onChange({ ...value, max })}
          />
        </Group>
      ) : (
        <Group grow align="flex-start">
          <NumField
            label={t('taskEditor.number.value')}
            value={value.value}
            error={problems.at(`${path}.value`) ?? problems.at(path)}
            onChange={(v) => onChange({ ...value, value: v })}
          />
          <NumField
            label={relative ? t('taskEditor.number.tolerancePercent') : t('taskEditor.number.tolerance')}
            min={0}
            value={relative ? percent(value.tolerance) : value.tolerance}
            error={problems.at(`${path}.tolerance`)}
            onChange={(v) => onChange({ ...value, tolerance: relative ? fraction(v) : v })}
          />
          <Radio.Group
            label={t('taskEditor.number.toleranceMode')}
            value={value.toleranceMode ?? 'absolute'}
            onChange={(m) => onChange({ ...value, toleranceMode: m as 'absolute' | 'relative' })}
          >
            <Group gap="sm" mt={6}>
              <Radio value="absolute" label={t('taskEditor.number.absolute')} />
              <Radio value="relative" label={t('taskEditor.number.relative')} />
            </Group>
          </Radio.Group>
        </Group>
      )}
    </Stack>
  );
}

export function NumberForm({ draft, update, problems, importedScoring }: TypeFormProps) {
  const { t } = useTaskEditorT();
  const reference = asRecord(draft.reference) as NumberKey & { answers?: NumberKey[] };
  const { answers = [], ...key } = reference;
  const perAnswer = !importedScoring && draft.scoring.method === 'per_answer';
  const setKey = (next: NumberKey) =>
    update({ reference: reference.answers ? { ...next, answers: reference.answers } : next });
  const setAnswers = (next: NumberKey[]) => update({ reference: { ...key, answers: next } });
  return (
    <Stack gap="md">
      <TextInput
        label={t('taskEditor.number.unit')}
        description={t('taskEditor.number.unitHint')}
        w={260}
        value={(draft.content.unit as string | undefined) ?? ''}
        error={problems.at('content.unit')}
        onChange={(e) => {
          const unit = e.currentTarget.value;
          const { unit: _old, ...rest } = draft.content;
          update({ content: unit ? { ...rest, unit } : rest });
        }}
      />
      <Stack gap={4} data-testid="number-key">
        <Text fw={500} size="sm">
          {t('taskEditor.number.key')}
        </Text>
        <NumberKeyFields
          value={key}
          onChange={setKey}
          path="reference"
          problems={problems}
          name={t('taskEditor.number.key')}
        />
      </Stack>
      {!importedScoring && (
        <>
          <Divider label={t('taskEditor.sections.scoring')} labelPosition="left" />
          <MethodField draft={draft} onMethod={(m) => update(withMethod(draft, m))} problems={problems} />
          {perAnswer && (
            <Stack gap="xs" data-testid="scored-answers">
              <Text fw={500} size="sm">
                {t('taskEditor.text.scored')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('taskEditor.text.scoredHint')}
              </Text>
              {answers.map((a, i) => {
                const name = t('taskEditor.fields.scoredAnswer', { n: i + 1 });
                return (
                  <Paper key={i} withBorder p="xs">
                    <Group align="flex-start" wrap="nowrap">
                      <div style={{ flex: 1 }}>
                        <NumberKeyFields
                          value={a}
                          onChange={(next) => setAnswers(answers.map((x, j) => (j === i ? next : x)))}
                          path={`reference.answers.${i}`}
                          problems={problems}
                          name={name}
                        />
                      </div>
                      <NumField
                        w={110}
                        label={t('taskEditor.choice.points')}
                        aria-label={t('taskEditor.text.pointsOf', { n: i + 1 })}
                        value={a.points}
                        error={problems.at(`reference.answers.${i}.points`)}
                        onChange={(points) =>
                          setAnswers(answers.map((x, j) => (j === i ? { ...x, points } : x)))
                        }
                      />
                      <RowButtons
                        index={i}
                        count={answers.length}
                        name={name}
                        onMove={(from, to) => setAnswers(moved(answers, from, to))}
                        onRemove={() => setAnswers(answers.filter((_, j) => j !== i))}
                        removeDisabled={answers.length <= 1}
                      />
                    </Group>
                  </Paper>
                );
              })}
              {problems.at('reference.answers') && (
                <Text size="sm" c="red" role="alert">
                  {problems.at('reference.answers')}
                </Text>
              )}
              <Group>
                <Button
                  variant="light"
                  size="xs"
                  onClick={() =>
                    setAnswers([
                      ...answers,
                      { value: undefined, tolerance: 0, toleranceMode: 'absolute', points: draft.maxScore },
                    ])
                  }
                >
                  {t('taskEditor.text.addScored')}
                </Button>
              </Group>
            </Stack>
          )}
        </>
      )}
    </Stack>
  );
}

export function DigitSequenceForm({ draft, update, problems, importedScoring }: TypeFormProps) {
  const { t } = useTaskEditorT();
  const reference = asRecord(draft.reference);
  return (
    <Stack gap="md">
      <TextInput
        label={t('taskEditor.digits.key')}
        description={t('taskEditor.digits.keyHint')}
        w={320}
        inputMode="numeric"
        value={(reference.digits as string | undefined) ?? ''}
        error={problems.at('reference.digits') ?? problems.at('reference')}
        onChange={(e) => update({ reference: { digits: e.currentTarget.value.replace(/\s/g, '') } })}
      />
      <NumField
        label={t('taskEditor.fields.length')}
        description={t('taskEditor.digits.lengthHint')}
        w={320}
        min={1}
        max={50}
        allowDecimal={false}
        value={draft.content.length as number | undefined}
        error={problems.at('content.length')}
        onChange={(length) => {
          const { length: _old, ...rest } = draft.content;
          update({ content: length === undefined ? rest : { ...rest, length } });
        }}
      />
      {!importedScoring && (
        <>
          <Divider label={t('taskEditor.sections.scoring')} labelPosition="left" />
          <MethodField draft={draft} onMethod={(m) => update(withMethod(draft, m))} problems={problems} />
          <Checkbox
            label={t('taskEditor.digits.anyOrder')}
            description={t('taskEditor.digits.anyOrderHint')}
            checked={draft.scoring.anyOrder === true}
            onChange={(e) => update({ scoring: { ...draft.scoring, anyOrder: e.currentTarget.checked } })}
          />
        </>
      )}
    </Stack>
  );
}
