import { Text, Textarea, TextInput } from '../lite/core';
import { useId, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnswerInputProps } from './types';

export function ShortTextInput({
  content,
  value,
  onChange,
  onCommit,
  disabled,
  labelledBy,
}: AnswerInputProps<'short_text'>) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('answers.yourAnswer')}
      aria-describedby={labelledBy}
      value={value}
      maxLength={content.maxLength}
      onChange={(e) => onChange(e.currentTarget.value)}
      onBlur={onCommit}
      disabled={disabled}
      autoComplete="off"
      spellCheck={false}
      maw={480}
      data-testid="short-text"
    />
  );
}

/** Digits, one minus, comma or point, spaces between groups: what a number can be typed as. */
export function cleanNumberText(text: string): string {
  return text
    .replace(/[^\d,.\s-]/g, '')
    .replace(/(?!^)-/g, '')
    .slice(0, 50);
}

export function NumberAnswerInput({
  content,
  value,
  onChange,
  onCommit,
  disabled,
  labelledBy,
}: AnswerInputProps<'number'>) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('answers.numberLabel')}
      description={t('answers.numberHint')}
      aria-describedby={labelledBy}
      value={value}
      inputMode="decimal"
      onChange={(e) => onChange(cleanNumberText(e.currentTarget.value))}
      onBlur={onCommit}
      disabled={disabled}
      autoComplete="off"
      rightSection={content.unit ? <Text size="sm">{content.unit}</Text> : undefined}
      rightSectionWidth={content.unit ? Math.max(40, content.unit.length * 10 + 16) : undefined}
      maw={320}
      data-testid="number-input"
    />
  );
}

export function ExtendedTextInput({
  content,
  value,
  onChange,
  onCommit,
  disabled,
  labelledBy,
}: AnswerInputProps<'extended_text'>) {
  const { t } = useTranslation();
  const counterId = useId();
  const left = content.maxLength - value.length;
  return (
    <div>
      <Textarea
        label={t('answers.extendedLabel')}
        aria-describedby={[labelledBy, counterId].filter(Boolean).join(' ')}
        value={value}
        maxLength={content.maxLength}
        onChange={(e) => onChange(e.currentTarget.value.slice(0, content.maxLength))}
        onBlur={onCommit}
        disabled={disabled}
        rows={10}
        resize="vertical"
        data-testid="extended-text"
      />
      <Text id={counterId} size="sm" c={left < 100 ? 'orange.9' : 'dimmed'} mt={4} ta="right">
        {t('answers.counter', { used: value.length, max: content.maxLength })}
      </Text>
    </div>
  );
}

/**
 * Digits: with `length`, one cell per digit (as on the paper answer form), typing moves on,
 * Backspace moves back, a pasted "3 1 2" fills the cells; without it one digits-only field.
 */
export function DigitSequenceInput({
  content,
  value,
  onChange,
  onCommit,
  disabled,
  labelledBy,
}: AnswerInputProps<'digit_sequence'>) {
  const { t } = useTranslation();
  const groupId = useId();
  const digitsOf = (text: string) => text.replace(/\D/g, '');
  if (content.length === undefined) {
    return (
      <TextInput
        label={t('answers.digitsLabel')}
        description={t('answers.digitsHint')}
        aria-describedby={labelledBy}
        value={value}
        inputMode="numeric"
        onChange={(e) => onChange(digitsOf(e.currentTarget.value).slice(0, 50))}
        onBlur={onCommit}
        disabled={disabled}
        autoComplete="off"
        maw={320}
        data-testid="digit-input"
      />
    );
  }
  const length = content.length;
  const cells = Array.from({ length }, (_, i) => value[i] ?? '');
  const focusCell = (target: HTMLElement, index: number) => {
    const cell = target.closest('.digit-cells')?.querySelector<HTMLInputElement>(`[data-index="${index}"]`);
    cell?.focus();
    cell?.select();
  };
  const setFrom = (index: number, typed: string, target: HTMLElement) => {
    const digits = digitsOf(typed);
    if (!digits) return;
    // Cells fill from the left: a digit typed past a gap lands in the first empty cell.
    const start = Math.min(index, value.length);
    const next = (value.slice(0, start) + digits + value.slice(start + digits.length)).slice(0, length);
    onChange(next);
    focusCell(target, Math.min(length - 1, start + digits.length));
  };
  const onKeyDown = (index: number) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Backspace') {
      e.preventDefault();
      const at = value[index] ? index : index - 1;
      if (at < 0) return;
      onChange(value.slice(0, at) + value.slice(at + 1));
      focusCell(e.currentTarget, Math.max(0, at));
    } else if (e.key === 'ArrowLeft' && index > 0) {
      e.preventDefault();
      focusCell(e.currentTarget, index - 1);
    } else if (e.key === 'ArrowRight' && index < length - 1) {
      e.preventDefault();
      focusCell(e.currentTarget, index + 1);
    } else if (/^\d$/.test(e.key)) {
      e.preventDefault();
      setFrom(index, e.key, e.currentTarget);
    }
  };
  const onPaste = (index: number) => (e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault();
    setFrom(index, e.clipboardData.getData('text'), e.currentTarget);
  };
  return (
    <div role="group" aria-labelledby={groupId}>
      <Text id={groupId} size="sm" fw={500} mb={4}>
        {t('answers.digitCells', { count: length })}
      </Text>
      <div className="digit-cells">
        {cells.map((digit, i) => (
          <input
            key={i}
            className="digit-cell"
            data-index={i}
            data-testid={`digit-${i}`}
            aria-label={t('answers.digitCell', { n: i + 1, count: length })}
            value={digit}
            inputMode="numeric"
            autoComplete="off"
            maxLength={1}
            disabled={disabled}
            onKeyDown={onKeyDown(i)}
            onPaste={onPaste(i)}
            onChange={(e) => setFrom(i, e.currentTarget.value, e.currentTarget)}
            onBlur={onCommit}
          />
        ))}
      </div>
    </div>
  );
}
