import { pairKey } from '@attesta/contract';
import { ActionIcon, Button, Text, VisuallyHidden } from '../lite/core';
import { useId, useState, type KeyboardEvent } from 'react';
import { useBundleT } from '../data-table/use-bundle-t';
import { answersBundle } from './locales';
import { formulaName, htmlLabel, RichHtml } from './rich-html';
import type { AnswerInputProps } from './types';
import './answers.css';

/**
 * Items joined into pairs: press one item, then another — the pair is made (Escape or a second
 * press of the first item cancels). Pairs are listed with a remove button each. An item is offered
 * while its matchMax allows (0 — any number) and until maxAssociations pairs exist (0 — any).
 */
export function AssociateInput({
  content,
  value,
  onChange,
  onCommit,
  disabled,
  labelledBy,
}: AnswerInputProps<'associate'>) {
  const { t } = useBundleT(answersBundle);
  const hintId = useId();
  const pairsId = useId();
  const [picked, setPicked] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');

  const items = content.items;
  const labelOf = (id: string) => {
    const index = items.findIndex((x) => x.id === id);
    return index < 0 ? id : htmlLabel(items[index]!.html, t('answers.item', { n: index + 1 }));
  };
  const htmlOf = (id: string) => items.find((x) => x.id === id)?.html ?? id;
  const max = content.maxAssociations;
  const full = max > 0 && value.length >= max;
  const usedUp = (item: (typeof items)[number]) =>
    item.matchMax > 0 && value.filter((pair) => pair.includes(item.id)).length >= item.matchMax;
  const unavailable = (item: (typeof items)[number]) => picked !== item.id && (full || usedUp(item));

  const cancel = () => {
    setPicked(null);
    setAnnouncement(t('answers.pickCancelled'));
  };

  const press = (item: (typeof items)[number]) => {
    if (disabled) return;
    if (picked === item.id) return cancel();
    if (unavailable(item)) return;
    if (picked === null) {
      setPicked(item.id);
      setAnnouncement(t('answers.firstPicked', { item: labelOf(item.id) }));
      return;
    }
    const a = picked;
    const b = item.id;
    setPicked(null);
    const names = { a: labelOf(a), b: labelOf(b) };
    if (value.some(([x, y]) => pairKey(x, y) === pairKey(a, b))) {
      setAnnouncement(t('answers.pairExists', names));
      return;
    }
    onChange([...value, [a, b]]);
    setAnnouncement(t('answers.pairMade', names));
    onCommit?.();
  };

  const remove = (index: number) => {
    const [a, b] = value[index]!;
    onChange(value.filter((_, i) => i !== index));
    setAnnouncement(t('answers.pairRemoved', { a: labelOf(a), b: labelOf(b) }));
    onCommit?.();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && picked !== null) {
      e.preventDefault();
      cancel();
    }
  };

  return (
    // The group only listens for Escape bubbling up from its buttons; it is not a control itself.
    <div
      className="associate"
      role="group"
      aria-labelledby={labelledBy}
      aria-describedby={hintId}
      onKeyDown={onKeyDown}
    >
      <Text id={hintId} size="sm" c="dimmed" mb="xs">
        {t('answers.associateHint')}
        {max > 0 ? ` ${t('answers.maxPairs', { count: max })}` : ''}
        {full ? ` ${t('answers.maxPairsReached')}` : ''}
      </Text>
      <div className="associate-items">
        {items.map((item) => {
          const off = unavailable(item);
          const spoken = formulaName(item.html);
          return (
            <button
              key={item.id}
              type="button"
              className="answer-toggle associate-item"
              aria-pressed={picked === item.id}
              aria-disabled={off || undefined}
              aria-label={spoken && (usedUp(item) ? `${spoken}, ${t('answers.itemUsedUp')}` : spoken)}
              disabled={disabled}
              onClick={() => press(item)}
              data-testid={`item-${item.id}`}
            >
              <RichHtml html={item.html} as="span" />
              {usedUp(item) && (
                <VisuallyHidden component="span">{`, ${t('answers.itemUsedUp')}`}</VisuallyHidden>
              )}
            </button>
          );
        })}
      </div>
      {picked !== null && (
        <Button variant="subtle" size="compact-sm" mt="xs" onClick={cancel} data-testid="cancel-pick">
          {t('answers.cancelPick')}
        </Button>
      )}
      <Text id={pairsId} fw={600} size="sm" mt="sm" mb={4}>
        {t('answers.pairs')}
      </Text>
      {value.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('answers.noPairs')}
        </Text>
      ) : (
        <ul className="associate-pairs" aria-labelledby={pairsId}>
          {value.map(([a, b], i) => (
            <li key={pairKey(a, b)} data-testid={`pair-${i}`}>
              <RichHtml html={htmlOf(a)} as="span" />
              <span> — </span>
              <RichHtml html={htmlOf(b)} as="span" />
              <ActionIcon
                variant="default"
                size="lg"
                ml="auto"
                aria-label={t('answers.removePair', { a: labelOf(a), b: labelOf(b) })}
                disabled={disabled}
                onClick={() => remove(i)}
                data-testid={`remove-pair-${i}`}
              >
                ×
              </ActionIcon>
            </li>
          ))}
        </ul>
      )}
      <VisuallyHidden aria-live="polite">{announcement}</VisuallyHidden>
    </div>
  );
}
