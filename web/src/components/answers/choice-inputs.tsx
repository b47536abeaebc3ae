import { Button, Group, Text } from '../lite/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formulaName, RichHtml } from './rich-html';
import type { AnswerInputProps } from './types';

/** One correct option: a native radio group (arrow keys move between options, as users expect). */
export function SingleChoiceInput({
  content,
  value,
  onChange,
  onCommit,
  disabled,
  labelledBy,
}: AnswerInputProps<'single_choice'>) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <fieldset className="answer-fieldset" aria-labelledby={labelledBy} disabled={disabled}>
      <legend className="answer-legend">{t('answers.chooseOne')}</legend>
      <div className="choice-list">
        {content.options.map((option) => (
          <label key={option.id} className="choice-option" data-checked={value === option.id || undefined}>
            <input
              type="radio"
              name={name}
              value={option.id}
              checked={value === option.id}
              onChange={() => onChange(option.id)}
              onBlur={onCommit}
              aria-label={formulaName(option.html)}
              data-testid={`option-${option.id}`}
            />
            <RichHtml html={option.html} as="span" className="choice-label" />
          </label>
        ))}
      </div>
      {value !== '' && (
        <Group mt="xs">
          <Button variant="subtle" size="compact-sm" onClick={() => onChange('')} data-testid="clear-answer">
            {t('answers.clear')}
          </Button>
        </Group>
      )}
    </fieldset>
  );
}

/** Several correct options: checkboxes; at `maxChoices` the other options are locked. */
export function MultipleChoiceInput({
  content,
  value,
  onChange,
  onCommit,
  disabled,
  labelledBy,
}: AnswerInputProps<'multiple_choice'>) {
  const { t } = useTranslation();
  const hintId = useId();
  const chosen = new Set(value);
  const max = content.maxChoices;
  const full = max !== undefined && chosen.size >= max;
  const toggle = (id: string) => {
    const next = chosen.has(id) ? value.filter((x) => x !== id) : [...value, id];
    // Keep the display order of the options: the value does not depend on the click order.
    onChange(content.options.map((o) => o.id).filter((x) => next.includes(x)));
  };
  return (
    <fieldset
      className="answer-fieldset"
      aria-labelledby={labelledBy}
      aria-describedby={hintId}
      disabled={disabled}
    >
      <legend className="answer-legend">{t('answers.chooseSeveral')}</legend>
      <Text id={hintId} size="sm" c="dimmed" mb="xs">
        {max !== undefined ? t('answers.maxChoices', { count: max }) : t('answers.anyChoices')}
        {full ? ` ${t('answers.maxReached')}` : ''}
      </Text>
      <div className="choice-list">
        {content.options.map((option) => {
          const checked = chosen.has(option.id);
          return (
            <label key={option.id} className="choice-option" data-checked={checked || undefined}>
              <input
                type="checkbox"
                checked={checked}
                disabled={!checked && full}
                onChange={() => toggle(option.id)}
                onBlur={onCommit}
                aria-label={formulaName(option.html)}
                data-testid={`option-${option.id}`}
              />
              <RichHtml html={option.html} as="span" className="choice-label" />
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
