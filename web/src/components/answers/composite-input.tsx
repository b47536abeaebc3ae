import { TASK_SCHEMAS, type CompositePart } from '@attesta/contract';
import { Alert } from '../lite/core';
import { useId, useMemo, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useBundleT } from '../data-table/use-bundle-t';
import { emptyValue } from './answer-value';
import { inRunningText, useHtmlSlots } from './html-slots';
import { answersBundle } from './locales';
import { htmlToText, RichHtml } from './rich-html';
import { cleanNumberText } from './text-inputs';
import type { AnswerInputProps } from './types';
import './answers.css';

/** Draws the input of a block part (AnswerInput, passed in so the two modules do not import each other). */
export type PartRenderer = (
  part: CompositePart,
  value: unknown,
  onChange: (value: unknown) => void,
  labelledBy: string,
) => ReactNode;

interface CompositeInputProps extends AnswerInputProps<'composite'> {
  /** The task html with `{{id}}` placeholders where the parts go. */
  html: string;
  renderPart: PartRenderer;
}

/** Parts typed into a field in the line of the text. */
const FIELD_TYPES = new Set(['short_text', 'number', 'digit_sequence']);

/** A single choice goes in the line as a drop-down when it stands among words and its options are plain text. */
function inlineChoice(part: CompositePart, slot: Element | undefined): boolean {
  if (part.answerType !== 'single_choice' || !slot || !inRunningText(slot)) return false;
  return part.content.options.every(
    (o) => !/<(img|math|svg|table)\b/i.test(o.html) && htmlToText(o.html) !== '',
  );
}

const isEmpty = (v: unknown) =>
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0) ||
  (typeof v === 'object' &&
    v !== null &&
    Array.isArray((v as { fileIds?: unknown }).fileIds) &&
    (v as { fileIds: unknown[] }).fileIds.length === 0);

/**
 * Several interactions in one text: at each `{{partId}}` its own input — a field or a drop-down in
 * the line (text, number, digits, an inline choice), or a labelled block «Часть N» (choice lists,
 * ordering, matching, gap match, extended text…). The value holds each answered part under its id.
 */
export function CompositeInput({
  content,
  value,
  onChange,
  onCommit,
  disabled,
  labelledBy,
  html,
  renderPart,
}: CompositeInputProps) {
  const { t } = useTranslation();
  const { t: more } = useBundleT(answersBundle);
  const { setRoot, slots } = useHtmlSlots();
  const numberHintId = useId();
  const baseId = useId();
  const parts = content.parts;

  // Decided once per rendered text, before the parts fill their slots.
  const inline = useMemo(
    () =>
      new Map(
        parts.map((part) => {
          const slot = slots?.get(part.id);
          return [part.id, FIELD_TYPES.has(part.answerType) || inlineChoice(part, slot)];
        }),
      ),
    [parts, slots],
  );

  const partValue = (part: CompositePart): unknown => {
    const parsed = TASK_SCHEMAS[part.answerType].value.safeParse(value[part.id]);
    return parsed.success ? parsed.data : emptyValue(part.answerType);
  };
  const setPart = (id: string, next: unknown) => {
    const all: Record<string, unknown> = { ...value };
    if (isEmpty(next)) delete all[id];
    else all[id] = next;
    // Parts of the task only, in their order.
    onChange(Object.fromEntries(parts.filter((p) => p.id in all).map((p) => [p.id, all[p.id]])) as never);
  };

  const field = (part: CompositePart, index: number) => {
    const label = t('answers.blank', { n: index + 1 });
    const current = partValue(part);
    const common = {
      className: 'cloze-text',
      onBlur: onCommit,
      disabled,
      autoComplete: 'off',
      spellCheck: false,
      'data-testid': `part-${part.id}`,
    };
    switch (part.answerType) {
      case 'short_text':
        return (
          <input
            {...common}
            aria-label={label}
            value={current as string}
            maxLength={part.content.maxLength}
            size={Math.min(40, Math.max(8, Math.ceil(part.content.maxLength / 4)))}
            onChange={(e) => setPart(part.id, e.currentTarget.value)}
          />
        );
      case 'number':
        return (
          <span className="composite-number">
            <input
              {...common}
              aria-label={more('answers.numberBlank', { n: index + 1 })}
              aria-describedby={numberHintId}
              value={current as string}
              inputMode="decimal"
              size={8}
              onChange={(e) => setPart(part.id, cleanNumberText(e.currentTarget.value))}
            />
            {part.content.unit && <span className="composite-unit">{part.content.unit}</span>}
          </span>
        );
      case 'digit_sequence':
        return (
          <input
            {...common}
            aria-label={label}
            value={current as string}
            inputMode="numeric"
            maxLength={part.content.length ?? 50}
            size={Math.min(40, Math.max(4, part.content.length ?? 8))}
            onChange={(e) => setPart(part.id, e.currentTarget.value.replace(/\D/g, '').slice(0, 50))}
          />
        );
      case 'single_choice':
        return (
          <select
            {...common}
            className="cloze-select"
            aria-label={label}
            value={current as string}
            onChange={(e) => setPart(part.id, e.currentTarget.value)}
          >
            <option value="">{t('answers.blankChoose')}</option>
            {part.content.options.map((o) => (
              <option key={o.id} value={o.id}>
                {htmlToText(o.html)}
              </option>
            ))}
          </select>
        );
      default:
        return null;
    }
  };

  const block = (part: CompositePart, index: number) => {
    const labelId = `${baseId}-part-${part.id}`;
    return (
      // The part's own input is labelled by «Часть N» (its group or fieldset takes labelledBy).
      <div className="composite-part" data-testid={`part-${part.id}`}>
        <div id={labelId} className="composite-part-label">
          {more('answers.part', { n: index + 1 })}
        </div>
        {part.answerType === 'file' ? (
          <Alert color="blue" variant="light">
            {more('answers.partFile')}
          </Alert>
        ) : (
          renderPart(part, partValue(part), (next) => setPart(part.id, next), labelId)
        )}
      </div>
    );
  };

  const input = (part: CompositePart, index: number) =>
    inline.get(part.id) ? field(part, index) : block(part, index);
  const orphans = slots ? parts.filter((p) => !slots.has(p.id)) : [];

  return (
    <div className="composite" role="group" aria-labelledby={labelledBy}>
      <RichHtml key={html} ref={setRoot} html={html} withSlots className="task-html" />
      {parts.some((p) => p.answerType === 'number') && (
        <span id={numberHintId} hidden>
          {t('answers.numberHint')}
        </span>
      )}
      {slots &&
        parts.map((part, i) => {
          const slot = slots.get(part.id);
          return slot ? createPortal(input(part, i), slot, part.id) : null;
        })}
      {orphans.length > 0 && (
        <div className="cloze-orphans">
          {orphans.map((part) => {
            const index = parts.indexOf(part);
            return inline.get(part.id) ? (
              <div key={part.id} className="cloze-orphan">
                <span aria-hidden="true">{t('answers.blank', { n: index + 1 })}: </span>
                {field(part, index)}
              </div>
            ) : (
              <div key={part.id}>{block(part, index)}</div>
            );
          })}
        </div>
      )}
    </div>
  );
}
