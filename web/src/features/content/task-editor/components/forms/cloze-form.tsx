/**
 * Cloze: the gaps of the text (typed text, a drop-down, a number), each marked `{{id}}` in the html
 * by the «insert into the text» button, with its accepted answers (and, for weighted scoring, the
 * points of each answer).
 */
import { clozePlaceholders } from '@attesta/contract';
import {
  Badge,
  Button,
  Checkbox,
  Divider,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { nextId } from '../../model/draft';
import { withMethod } from '../../model/methods';
import { useTaskEditorT } from '../../locales';
import { NumField, RowButtons, TextList, moved } from './fields';
import { MethodField, TextRules } from './scoring-fields';
import { asRecord, type TypeFormProps } from './types';

type BlankKind = 'text' | 'choice' | 'number';
interface Blank {
  id: string;
  kind: BlankKind;
  width?: number;
  options?: { id: string; text: string }[];
}
type Scored = {
  text?: string;
  value?: number;
  tolerance?: number;
  toleranceMode?: string;
  min?: number;
  max?: number;
  points?: number;
};

interface ClozeFormProps extends TypeFormProps {
  /** Puts `{{id}}` where the caret is in the task text. */
  insertMark: (id: string) => void;
}

export function ClozeForm({ draft, update, problems, importedScoring, insertMark }: ClozeFormProps) {
  const { t } = useTaskEditorT();
  const blanks = (draft.content.blanks as Blank[] | undefined) ?? [];
  const reference = asRecord(draft.reference);
  const accepted = asRecord(reference.blanks) as Record<string, string[]>;
  const scored = reference.scored ? (asRecord(reference.scored) as Record<string, Scored[]>) : undefined;
  const weighted = !importedScoring && draft.scoring.method === 'weighted';
  const marks = clozePlaceholders(draft.html);

  const setBlanks = (
    next: Blank[],
    extra: { accepted?: Record<string, string[]>; scored?: Record<string, Scored[]>; html?: string } = {},
  ) => {
    const ids = next.map((b) => b.id);
    const keep = <T,>(rec: Record<string, T>) =>
      Object.fromEntries(Object.entries(rec).filter(([id]) => ids.includes(id)));
    const nextScored = extra.scored ?? scored;
    update({
      content: { ...draft.content, blanks: next },
      reference: {
        ...reference,
        blanks: keep(extra.accepted ?? accepted),
        ...(nextScored ? { scored: keep(nextScored) } : {}),
      },
      ...(extra.html !== undefined ? { html: extra.html } : {}),
    });
  };
  const setAccepted = (id: string, values: string[]) =>
    update({ reference: { ...reference, blanks: { ...accepted, [id]: values } } });
  const setScored = (id: string, values: Scored[]) =>
    update({ reference: { ...reference, scored: { ...(scored ?? {}), [id]: values } } });

  const addBlank = () => {
    const id = nextId(
      'g',
      blanks.map((b) => b.id),
    );
    setBlanks([...blanks, { id, kind: 'text' }], {
      accepted: { ...accepted, [id]: [''] },
      ...(scored ? { scored: { ...scored, [id]: [{ text: '', points: 1 }] } } : {}),
    });
    insertMark(id);
  };

  const changeKind = (blank: Blank, kind: BlankKind) => {
    const next: Blank =
      kind === 'choice'
        ? {
            id: blank.id,
            kind,
            options: blank.options ?? [
              { id: 'c1', text: '' },
              { id: 'c2', text: '' },
            ],
          }
        : { id: blank.id, kind, ...(blank.width ? { width: blank.width } : {}) };
    setBlanks(
      blanks.map((b) => (b.id === blank.id ? next : b)),
      {
        accepted: { ...accepted, [blank.id]: kind === 'choice' ? [] : [''] },
        ...(scored
          ? {
              scored: {
                ...scored,
                [blank.id]: [
                  kind === 'number'
                    ? { value: undefined, tolerance: 0, toleranceMode: 'absolute', points: 1 }
                    : { text: '', points: 1 },
                ],
              },
            }
          : {}),
      },
    );
  };

  return (
    <Stack gap="md" data-testid="blanks">
      <Text size="sm" c="dimmed">
        {t('taskEditor.cloze.hint')}
      </Text>
      {blanks.map((blank, i) => {
        const name = t('taskEditor.fields.blank', { n: i + 1 });
        const inText = marks.filter((m) => m === blank.id).length;
        const blankError = problems.at(`content.blanks.${i}`);
        return (
          <Paper key={blank.id} withBorder p="sm" data-testid={`blank-${i + 1}`}>
            <Stack gap="xs">
              <Group justify="space-between" wrap="nowrap">
                <Group gap="xs">
                  <Text fw={600}>{name}</Text>
                  <Badge color={inText === 1 ? 'green' : 'orange'} variant="light">
                    {inText === 0
                      ? t('taskEditor.cloze.notInText')
                      : inText === 1
                        ? t('taskEditor.cloze.inText')
                        : t('taskEditor.cloze.twiceInText')}
                  </Badge>
                </Group>
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="light" onClick={() => insertMark(blank.id)}>
                    {t('taskEditor.cloze.insert')}
                  </Button>
                  <RowButtons
                    index={i}
                    count={blanks.length}
                    name={name}
                    onMove={(from, to) => setBlanks(moved(blanks, from, to))}
                    onRemove={() =>
                      setBlanks(
                        blanks.filter((b) => b.id !== blank.id),
                        { html: draft.html.split(`{{${blank.id}}}`).join('') },
                      )
                    }
                  />
                </Group>
              </Group>
              {blankError && (
                <Text size="sm" c="red" role="alert">
                  {blankError}
                </Text>
              )}
              <Group align="flex-start" grow>
                <Select
                  label={t('taskEditor.cloze.kind')}
                  value={blank.kind}
                  allowDeselect={false}
                  onChange={(v) => v && changeKind(blank, v as BlankKind)}
                  data={[
                    { value: 'text', label: t('taskEditor.cloze.kinds.text') },
                    { value: 'choice', label: t('taskEditor.cloze.kinds.choice') },
                    { value: 'number', label: t('taskEditor.cloze.kinds.number') },
                  ]}
                />
                {blank.kind !== 'choice' && (
                  <NumField
                    label={t('taskEditor.cloze.width')}
                    description={t('taskEditor.cloze.widthHint')}
                    min={1}
                    max={100}
                    allowDecimal={false}
                    value={blank.width}
                    onChange={(width) => {
                      const { width: _old, ...rest } = blank;
                      setBlanks(
                        blanks.map((b) => (b.id === blank.id ? (width ? { ...rest, width } : rest) : b)),
                      );
                    }}
                  />
                )}
              </Group>
              {blank.kind === 'choice' ? (
                <ChoiceBlank
                  blank={blank}
                  index={i}
                  accepted={accepted[blank.id] ?? []}
                  onOptions={(options) => {
                    const ids = options.map((o) => o.id);
                    setBlanks(
                      blanks.map((b) => (b.id === blank.id ? { ...b, options } : b)),
                      {
                        accepted: {
                          ...accepted,
                          [blank.id]: (accepted[blank.id] ?? []).filter((x) => ids.includes(x)),
                        },
                      },
                    );
                  }}
                  onAccepted={(values) => setAccepted(blank.id, values)}
                  problems={problems}
                />
              ) : (
                <TextList
                  title={
                    blank.kind === 'number'
                      ? t('taskEditor.cloze.acceptedNumbers')
                      : t('taskEditor.cloze.accepted')
                  }
                  itemName={(n) => t('taskEditor.cloze.acceptedOf', { blank: i + 1, n })}
                  values={accepted[blank.id] ?? []}
                  onChange={(values) => setAccepted(blank.id, values)}
                  problems={problems}
                  path={`reference.blanks.${blank.id}`}
                  addLabel={t('taskEditor.text.addAccepted')}
                />
              )}
              {weighted && (
                <WeightedAnswers
                  blank={blank}
                  index={i}
                  values={scored?.[blank.id] ?? []}
                  onChange={(values) => setScored(blank.id, values)}
                  problems={problems}
                />
              )}
            </Stack>
          </Paper>
        );
      })}
      {problems.at('content.blanks') && (
        <Text size="sm" c="red" role="alert">
          {problems.at('content.blanks')}
        </Text>
      )}
      {problems.at('reference.blanks') && (
        <Text size="sm" c="red" role="alert">
          {problems.at('reference.blanks')}
        </Text>
      )}
      <Group>
        <Button variant="light" onClick={addBlank} disabled={blanks.length >= 50} data-testid="add-blank">
          {t('taskEditor.cloze.add')}
        </Button>
      </Group>
      {!importedScoring && (
        <>
          <Divider label={t('taskEditor.sections.scoring')} labelPosition="left" />
          <MethodField draft={draft} onMethod={(m) => update(withMethod(draft, m))} problems={problems} />
          <TextRules scoring={draft.scoring} onChange={(s) => update({ scoring: s })} />
        </>
      )}
    </Stack>
  );
}

function ChoiceBlank({
  blank,
  index,
  accepted,
  onOptions,
  onAccepted,
  problems,
}: {
  blank: Blank;
  index: number;
  accepted: string[];
  onOptions: (options: { id: string; text: string }[]) => void;
  onAccepted: (values: string[]) => void;
  problems: TypeFormProps['problems'];
}) {
  const { t } = useTaskEditorT();
  const options = blank.options ?? [];
  const error = problems.at(`reference.blanks.${blank.id}`) ?? problems.at(`content.blanks.${index}.options`);
  return (
    <Stack gap="xs">
      <Text fw={500} size="sm">
        {t('taskEditor.cloze.options')}
      </Text>
      {options.map((o, j) => {
        const name = t('taskEditor.cloze.optionOf', { blank: index + 1, n: j + 1 });
        return (
          <Group key={o.id} wrap="nowrap" gap="xs" align="flex-start">
            <Checkbox
              mt={8}
              aria-label={t('taskEditor.cloze.markCorrect', { blank: index + 1, n: j + 1 })}
              checked={accepted.includes(o.id)}
              onChange={(e) =>
                onAccepted(e.currentTarget.checked ? [...accepted, o.id] : accepted.filter((x) => x !== o.id))
              }
            />
            <TextInput
              style={{ flex: 1 }}
              aria-label={name}
              placeholder={name}
              value={o.text}
              error={problems.at(`content.blanks.${index}.options.${j}.text`)}
              onChange={(e) => {
                const text = e.currentTarget.value;
                onOptions(options.map((x) => (x.id === o.id ? { ...x, text } : x)));
              }}
            />
            <RowButtons
              index={j}
              count={options.length}
              name={name}
              onMove={(from, to) => onOptions(moved(options, from, to))}
              onRemove={() => onOptions(options.filter((x) => x.id !== o.id))}
              removeDisabled={options.length <= 2}
            />
          </Group>
        );
      })}
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
      <Group>
        <Button
          variant="light"
          size="xs"
          disabled={options.length >= 26}
          onClick={() =>
            onOptions([
              ...options,
              {
                id: nextId(
                  'c',
                  options.map((o) => o.id),
                ),
                text: '',
              },
            ])
          }
        >
          {t('taskEditor.cloze.addOption')}
        </Button>
      </Group>
    </Stack>
  );
}

function WeightedAnswers({
  blank,
  index,
  values,
  onChange,
  problems,
}: {
  blank: Blank;
  index: number;
  values: Scored[];
  onChange: (values: Scored[]) => void;
  problems: TypeFormProps['problems'];
}) {
  const { t } = useTaskEditorT();
  const path = `reference.scored.${blank.id}`;
  const options = (blank.options ?? []).map((o, j) => ({ value: o.id, label: `${j + 1}. ${o.text}` }));
  return (
    <Stack gap="xs">
      <Text fw={500} size="sm">
        {t('taskEditor.cloze.scored')}
      </Text>
      {values.map((v, j) => {
        const name = t('taskEditor.cloze.scoredOf', { blank: index + 1, n: j + 1 });
        const set = (patch: Scored) => onChange(values.map((x, k) => (k === j ? { ...x, ...patch } : x)));
        return (
          <Group key={j} wrap="nowrap" gap="xs" align="flex-start">
            {blank.kind === 'choice' ? (
              <Select
                style={{ flex: 1 }}
                aria-label={name}
                data={options}
                value={v.text ?? null}
                onChange={(text) => set({ text: text ?? '' })}
                error={problems.at(`${path}.${j}.text`) ?? problems.at(`${path}.${j}`)}
              />
            ) : blank.kind === 'number' ? (
              <>
                <NumField
                  style={{ flex: 1 }}
                  aria-label={name}
                  placeholder={t('taskEditor.number.value')}
                  value={v.value}
                  error={problems.at(`${path}.${j}.value`) ?? problems.at(`${path}.${j}`)}
                  onChange={(value) => set({ value })}
                />
                <NumField
                  w={120}
                  aria-label={t('taskEditor.number.toleranceOf', { name })}
                  placeholder={t('taskEditor.number.tolerance')}
                  min={0}
                  value={v.tolerance}
                  onChange={(tolerance) => set({ tolerance })}
                />
              </>
            ) : (
              <TextInput
                style={{ flex: 1 }}
                aria-label={name}
                value={v.text ?? ''}
                error={problems.at(`${path}.${j}.text`) ?? problems.at(`${path}.${j}`)}
                onChange={(e) => set({ text: e.currentTarget.value })}
              />
            )}
            <NumField
              w={110}
              aria-label={t('taskEditor.cloze.pointsOf', { name })}
              placeholder={t('taskEditor.choice.points')}
              value={v.points}
              error={problems.at(`${path}.${j}.points`)}
              onChange={(points) => set({ points })}
            />
            <RowButtons
              index={j}
              count={values.length}
              name={name}
              onMove={(from, to) => onChange(moved(values, from, to))}
              onRemove={() => onChange(values.filter((_, k) => k !== j))}
              removeDisabled={values.length <= 1}
            />
          </Group>
        );
      })}
      {problems.at(path) && (
        <Text size="sm" c="red" role="alert">
          {problems.at(path)}
        </Text>
      )}
      <Group>
        <Button
          variant="light"
          size="xs"
          onClick={() =>
            onChange([
              ...values,
              blank.kind === 'number'
                ? { value: undefined, tolerance: 0, toleranceMode: 'absolute', points: 0 }
                : { text: '', points: 0 },
            ])
          }
        >
          {t('taskEditor.text.addScored')}
        </Button>
      </Group>
    </Stack>
  );
}
