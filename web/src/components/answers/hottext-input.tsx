import { Text } from '../lite/core';
import { useId } from 'react';
import { createPortal } from 'react-dom';
import { useBundleT } from '../data-table/use-bundle-t';
import { useHtmlSlots } from './html-slots';
import { answersBundle } from './locales';
import { formulaName, htmlLabel, RichHtml } from './rich-html';
import type { AnswerInputProps } from './types';
import './answers.css';

interface HottextInputProps extends AnswerInputProps<'hottext'> {
  /** The task html with `{{id}}` placeholders where the selectable spans go. */
  html: string;
}

/**
 * Words or phrases of the text to select: each `{{id}}` becomes a toggle button in place
 * (aria-pressed), reached by Tab and pressed with Space or Enter. At maxChoices the others are
 * marked unavailable (a single choice moves instead). A span missing from the text is listed after it.
 */
export function HottextInput({
  content,
  value,
  onChange,
  onCommit,
  disabled,
  labelledBy,
  html,
}: HottextInputProps) {
  const { t } = useBundleT(answersBundle);
  const { setRoot, slots } = useHtmlSlots();
  const hintId = useId();
  const chosen = new Set(value);
  const max = content.maxChoices;
  const min = content.minChoices;
  const full = max !== undefined && chosen.size >= max;
  const labelOf = (index: number) =>
    htmlLabel(content.choices[index]!.html, t('answers.item', { n: index + 1 }));

  const toggle = (id: string) => {
    if (disabled) return;
    let next: string[];
    if (chosen.has(id)) next = value.filter((x) => x !== id);
    else if (max === 1) next = [id];
    else if (full) return;
    else next = [...value, id];
    // The value keeps the order of the spans in the text, not the order of the presses.
    onChange(content.choices.map((c) => c.id).filter((x) => next.includes(x)));
  };

  const span = (choice: (typeof content.choices)[number]) => {
    const pressed = chosen.has(choice.id);
    return (
      <button
        type="button"
        className="answer-toggle hottext"
        aria-pressed={pressed}
        aria-disabled={(!pressed && full && max !== 1) || undefined}
        aria-describedby={hintId}
        aria-label={formulaName(choice.html)}
        disabled={disabled}
        onClick={() => toggle(choice.id)}
        onBlur={onCommit}
        data-testid={`hottext-${choice.id}`}
      >
        <RichHtml html={choice.html} as="span" />
      </button>
    );
  };

  const orphans = slots ? content.choices.filter((c) => !slots.has(c.id)) : [];
  const selected = content.choices.flatMap((c, i) => (chosen.has(c.id) ? [labelOf(i)] : []));

  return (
    <div className="hottext-task" role="group" aria-labelledby={labelledBy}>
      <Text id={hintId} size="sm" c="dimmed" mb="xs">
        {t('answers.hottextHint')}
        {min !== undefined && min > 0 ? ` ${t('answers.hottextMin', { count: min })}` : ''}
        {max !== undefined ? ` ${t('answers.hottextMax', { count: max })}` : ''}
        {full && max !== 1 ? ` ${t('answers.hottextMaxReached')}` : ''}
      </Text>
      <RichHtml key={html} ref={setRoot} html={html} withSlots className="task-html" />
      {content.choices.map((choice) => {
        const slot = slots?.get(choice.id);
        return slot ? createPortal(span(choice), slot, choice.id) : null;
      })}
      {orphans.length > 0 && (
        <div className="hottext-rest" role="group" aria-label={t('answers.hottextRest')}>
          {orphans.map((choice) => (
            <span key={choice.id}>{span(choice)}</span>
          ))}
        </div>
      )}
      <Text size="sm" mt="xs" aria-live="polite" data-testid="hottext-selected">
        {selected.length
          ? t('answers.selected', { list: selected.join(', ') })
          : t('answers.nothingSelected')}
      </Text>
    </div>
  );
}
