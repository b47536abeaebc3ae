import { ActionIcon, Group, Text, VisuallyHidden } from '../lite/core';
import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { htmlToText, RichHtml } from './rich-html';
import type { AnswerInputProps } from './types';

/** The order shown: the saved one, or the items' initial order (ids the value lacks go last). */
export function currentOrder(items: readonly { id: string }[], value: readonly string[]): string[] {
  const ids = items.map((i) => i.id);
  const known = value.filter((id) => ids.includes(id));
  return [...known, ...ids.filter((id) => !known.includes(id))];
}

export function moveItem(order: readonly string[], from: number, to: number): string[] {
  const next = [...order];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(next.length, to)), 0, item!);
  return next;
}

/**
 * Put items in order: "up"/"down" buttons (keyboard and screen readers, every move announced)
 * and drag and drop with the mouse or a finger.
 */
export function OrderingInput({
  content,
  value,
  onChange,
  onCommit,
  disabled,
  labelledBy,
}: AnswerInputProps<'ordering'>) {
  const { t } = useTranslation();
  const order = currentOrder(content.items, value);
  const byId = new Map(content.items.map((i) => [i.id, i]));
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<string | null>(null);

  const move = (from: number, to: number, focusButton?: 'up' | 'down') => {
    if (to < 0 || to >= order.length || from === to) return;
    const next = moveItem(order, from, to);
    onChange(next);
    const id = order[from]!;
    setAnnouncement(
      t('answers.moved', { item: htmlToText(byId.get(id)?.html), position: to + 1, count: order.length }),
    );
    if (focusButton) {
      // Keep the keyboard on the moved item; at the edge the other button stays usable.
      requestAnimationFrame(() => {
        const edge =
          (focusButton === 'up' && to === 0) || (focusButton === 'down' && to === order.length - 1);
        const which = edge ? (focusButton === 'up' ? 'down' : 'up') : focusButton;
        document.querySelector<HTMLButtonElement>(`[data-testid="order-${which}-${id}"]`)?.focus();
      });
    }
    onCommit?.();
  };

  const onDrop = (targetIndex: number) => (e: DragEvent) => {
    e.preventDefault();
    const id = e.dataTransfer.getData('text/plain') || dragging;
    setDragging(null);
    if (!id) return;
    move(order.indexOf(id), targetIndex);
  };

  return (
    <div role="group" aria-labelledby={labelledBy}>
      <Text size="sm" c="dimmed" mb="xs">
        {t('answers.orderingHint')}
      </Text>
      <ol className="ordering-list">
        {order.map((id, index) => {
          const item = byId.get(id)!;
          const label = htmlToText(item.html);
          return (
            <li
              key={id}
              className="ordering-item"
              data-dragging={dragging === id || undefined}
              draggable={!disabled}
              onDragStart={(e) => {
                e.dataTransfer.setData('text/plain', id);
                e.dataTransfer.effectAllowed = 'move';
                setDragging(id);
              }}
              onDragEnd={() => setDragging(null)}
              onDragOver={(e) => e.preventDefault()}
              onDrop={onDrop(index)}
              data-testid={`order-item-${id}`}
            >
              <span className="ordering-handle" aria-hidden="true">
                ⠿
              </span>
              <span className="ordering-position" aria-hidden="true">
                {index + 1}
              </span>
              <RichHtml html={item.html} as="span" className="ordering-label" />
              <Group gap={4} wrap="nowrap" ml="auto">
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={t('answers.moveUp', { item: label })}
                  disabled={disabled || index === 0}
                  onClick={() => move(index, index - 1, 'up')}
                  data-testid={`order-up-${id}`}
                >
                  ↑
                </ActionIcon>
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={t('answers.moveDown', { item: label })}
                  disabled={disabled || index === order.length - 1}
                  onClick={() => move(index, index + 1, 'down')}
                  data-testid={`order-down-${id}`}
                >
                  ↓
                </ActionIcon>
              </Group>
            </li>
          );
        })}
      </ol>
      <VisuallyHidden aria-live="polite">{announcement}</VisuallyHidden>
    </div>
  );
}
