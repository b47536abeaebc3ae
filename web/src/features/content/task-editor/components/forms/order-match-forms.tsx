/** Ordering (items and their right order) and matching (two columns and the pairs). */
import { Checkbox, Divider, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { htmlToText } from '../../../../../components/answers/rich-html';
import type { Labelled } from '../../model/draft';
import { withMethod } from '../../model/methods';
import { useTaskEditorT } from '../../locales';
import { LabelledList, RowButtons, moved } from './fields';
import { MethodField } from './scoring-fields';
import { asRecord, type TypeFormProps } from './types';

/** A row's text for a list of choices: «2. Москва» (its position and plain text). */
export const labelOf = (items: Labelled[], id: string, fallback: (n: number) => string) => {
  const i = items.findIndex((x) => x.id === id);
  const text = i < 0 ? '' : htmlToText(items[i]!.html);
  return `${i + 1}. ${text || fallback(i + 1)}`;
};

export function OrderingForm({ draft, update, problems, importedScoring }: TypeFormProps) {
  const { t } = useTaskEditorT();
  const items = (draft.content.items as Labelled[] | undefined) ?? [];
  const order = ((asRecord(draft.reference).order as string[] | undefined) ?? []).filter((id) =>
    items.some((x) => x.id === id),
  );
  const setItems = (next: Labelled[]) => {
    const ids = next.map((x) => x.id);
    const kept = order.filter((id) => ids.includes(id));
    update({
      content: { ...draft.content, items: next },
      reference: { order: [...kept, ...ids.filter((id) => !kept.includes(id))] },
    });
  };
  const itemName = (n: number) => t('taskEditor.fields.item', { n });
  return (
    <Stack gap="md">
      <LabelledList
        title={t('taskEditor.ordering.items')}
        itemName={itemName}
        items={items}
        onChange={setItems}
        idPrefix="i"
        min={2}
        max={20}
        problems={problems}
        path="content.items"
        addLabel={t('taskEditor.ordering.add')}
        testId="items"
      />
      <Checkbox
        label={t('taskEditor.shuffle')}
        description={t('taskEditor.shuffleHint')}
        checked={draft.content.shuffle === true}
        onChange={(e) => update({ content: { ...draft.content, shuffle: e.currentTarget.checked } })}
      />
      <Stack gap="xs" data-testid="order-key">
        <Text fw={500} size="sm">
          {t('taskEditor.ordering.key')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('taskEditor.ordering.keyHint')}
        </Text>
        {order.map((id, i) => {
          const label = labelOf(items, id, itemName);
          return (
            <Paper key={id} withBorder p={6}>
              <Group justify="space-between" wrap="nowrap">
                <Text size="sm">
                  {t('taskEditor.ordering.place', { n: i + 1 })}: {label}
                </Text>
                <RowButtons
                  index={i}
                  count={order.length}
                  name={label}
                  onMove={(from, to) => update({ reference: { order: moved(order, from, to) } })}
                />
              </Group>
            </Paper>
          );
        })}
        {problems.at('reference.order') && (
          <Text size="sm" c="red" role="alert">
            {problems.at('reference.order')}
          </Text>
        )}
      </Stack>
      {!importedScoring && (
        <>
          <Divider label={t('taskEditor.sections.scoring')} labelPosition="left" />
          <MethodField draft={draft} onMethod={(m) => update(withMethod(draft, m))} problems={problems} />
        </>
      )}
    </Stack>
  );
}

export function MatchingForm({ draft, update, problems, importedScoring }: TypeFormProps) {
  const { t } = useTaskEditorT();
  const left = (draft.content.left as Labelled[] | undefined) ?? [];
  const right = (draft.content.right as Labelled[] | undefined) ?? [];
  const pairs = (asRecord(asRecord(draft.reference).pairs) as Record<string, string>) ?? {};
  const prune = (l: Labelled[], r: Labelled[]) =>
    Object.fromEntries(
      Object.entries(pairs).filter(([a, b]) => l.some((x) => x.id === a) && r.some((x) => x.id === b)),
    );
  const rightName = (n: number) => t('taskEditor.fields.right', { n });
  const rightData = right.map((r) => ({ value: r.id, label: labelOf(right, r.id, rightName) }));
  return (
    <Stack gap="md">
      <Group grow align="flex-start">
        <LabelledList
          title={t('taskEditor.matching.left')}
          itemName={(n) => t('taskEditor.fields.left', { n })}
          items={left}
          onChange={(next) =>
            update({ content: { ...draft.content, left: next }, reference: { pairs: prune(next, right) } })
          }
          idPrefix="l"
          min={1}
          max={20}
          problems={problems}
          path="content.left"
          addLabel={t('taskEditor.matching.addLeft')}
          testId="left"
        />
        <LabelledList
          title={t('taskEditor.matching.right')}
          itemName={rightName}
          items={right}
          onChange={(next) =>
            update({ content: { ...draft.content, right: next }, reference: { pairs: prune(left, next) } })
          }
          idPrefix="r"
          min={1}
          max={26}
          problems={problems}
          path="content.right"
          addLabel={t('taskEditor.matching.addRight')}
          testId="right"
        />
      </Group>
      <Text size="xs" c="dimmed">
        {t('taskEditor.matching.distractors')}
      </Text>
      <Checkbox
        label={t('taskEditor.shuffle')}
        description={t('taskEditor.shuffleHint')}
        checked={draft.content.shuffle === true}
        onChange={(e) => update({ content: { ...draft.content, shuffle: e.currentTarget.checked } })}
      />
      <Stack gap="xs" data-testid="pairs-key">
        <Text fw={500} size="sm">
          {t('taskEditor.matching.key')}
        </Text>
        {left.map((l, i) => (
          <Select
            key={l.id}
            label={labelOf(left, l.id, (n) => t('taskEditor.fields.left', { n }))}
            placeholder={t('taskEditor.matching.pick')}
            data={rightData}
            value={pairs[l.id] ?? null}
            clearable
            error={problems.at(`reference.pairs.${l.id}`)}
            onChange={(v) => {
              const next = { ...pairs };
              if (v) next[l.id] = v;
              else delete next[l.id];
              update({ reference: { pairs: next } });
            }}
            data-testid={`pair-${i + 1}`}
          />
        ))}
        {problems.at('reference.pairs') && (
          <Text size="sm" c="red" role="alert">
            {problems.at('reference.pairs')}
          </Text>
        )}
      </Stack>
      {!importedScoring && (
        <>
          <Divider label={t('taskEditor.sections.scoring')} labelPosition="left" />
          <MethodField draft={draft} onMethod={(m) => update(withMethod(draft, m))} problems={problems} />
        </>
      )}
    </Stack>
  );
}
