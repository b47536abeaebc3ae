import { useId } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useBundleT } from '../data-table/use-bundle-t';
import { useHtmlSlots } from './html-slots';
import { answersBundle } from './locales';
import { RichHtml } from './rich-html';
import './answers.css';
import { cleanNumberText } from './text-inputs';
import type { AnswerInputProps } from './types';

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Characters a gap shows when its task gives no width (QTI expectedLength, the editor's width). */
const DEFAULT_WIDTH = { text: 10, number: 8 } as const;
const MIN_WIDTH = 4;
const MAX_WIDTH = 60;

/**
 * The width of a typed gap: its expected length (the task's width hint), grown to what is typed so
 * an answer is never cut, with room for letters wider than «0» and the field's padding and border.
 * The line's width caps it (max-width: 100%).
 */
export function blankWidth(hint: number | undefined, kind: 'text' | 'number', typed: string): string {
  const chars = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, hint ?? DEFAULT_WIDTH[kind], typed.length + 1));
  return `calc(${Math.ceil(chars * 1.15)}ch + 16px)`;
}

interface ClozeInputProps extends AnswerInputProps<'cloze'> {
  /** The task html with `{{id}}` placeholders where the gaps go. */
  html: string;
}

/**
 * Gaps inside the text: a text field, a number field or a drop-down at each `{{id}}`. The text is
 * rendered once (sanitized, formulas), the fields are React portals into its slots, so typing
 * never re-renders the text. A gap without a placeholder in the text is listed after it.
 */
export function ClozeInput({ content, value, onChange, onCommit, disabled, html }: ClozeInputProps) {
  const { t } = useTranslation();
  const { t: more } = useBundleT(answersBundle);
  const { setRoot, slots } = useHtmlSlots();
  const numberHintId = useId();
  const groupId = useId();

  const set = (id: string, text: string) => onChange({ ...value, [id]: text });

  const field = (blank: (typeof content.blanks)[number], index: number) => {
    const label = t('answers.blank', { n: index + 1 });
    if (blank.kind === 'choice' && blank.options.some((o) => o.html)) {
      // Options with markup (formulas): a drop-down shows only text, so they are radios in the line.
      return (
        <span
          role="radiogroup"
          aria-label={label}
          className="cloze-choices"
          data-testid={`blank-${blank.id}`}
          onBlur={onCommit}
        >
          {blank.options.map((o) => (
            <label key={o.id} className="cloze-choice">
              <input
                type="radio"
                name={`${groupId}-${blank.id}`}
                value={o.id}
                checked={value[blank.id] === o.id}
                onChange={() => set(blank.id, o.id)}
                disabled={disabled}
                data-testid={`blank-${blank.id}-${o.id}`}
              />
              <RichHtml as="span" html={o.html ?? escapeText(o.text)} />
            </label>
          ))}
        </span>
      );
    }
    if (blank.kind === 'choice') {
      return (
        <select
          className="cloze-select"
          aria-label={label}
          value={value[blank.id] ?? ''}
          onChange={(e) => set(blank.id, e.currentTarget.value)}
          onBlur={onCommit}
          disabled={disabled}
          data-testid={`blank-${blank.id}`}
        >
          <option value="">{t('answers.blankChoose')}</option>
          {blank.options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.text}
            </option>
          ))}
        </select>
      );
    }
    if (blank.kind === 'number') {
      return (
        <input
          className="cloze-text"
          aria-label={more('answers.numberBlank', { n: index + 1 })}
          aria-describedby={numberHintId}
          value={value[blank.id] ?? ''}
          inputMode="decimal"
          style={{ width: blankWidth(blank.width, 'number', value[blank.id] ?? '') }}
          onChange={(e) => set(blank.id, cleanNumberText(e.currentTarget.value))}
          onBlur={onCommit}
          disabled={disabled}
          autoComplete="off"
          spellCheck={false}
          data-testid={`blank-${blank.id}`}
        />
      );
    }
    return (
      <input
        className="cloze-text"
        aria-label={label}
        value={value[blank.id] ?? ''}
        maxLength={200}
        style={{ width: blankWidth(blank.width, 'text', value[blank.id] ?? '') }}
        onChange={(e) => set(blank.id, e.currentTarget.value)}
        onBlur={onCommit}
        disabled={disabled}
        autoComplete="off"
        spellCheck={false}
        data-testid={`blank-${blank.id}`}
      />
    );
  };

  const orphans = slots ? content.blanks.filter((b) => !slots.has(b.id)) : [];

  return (
    <div className="cloze">
      <RichHtml key={html} ref={setRoot} html={html} withSlots className="task-html" />
      {content.blanks.some((b) => b.kind === 'number') && (
        <span id={numberHintId} hidden>
          {t('answers.numberHint')}
        </span>
      )}
      {content.blanks.map((blank, i) => {
        const slot = slots?.get(blank.id);
        return slot ? createPortal(field(blank, i), slot, blank.id) : null;
      })}
      {orphans.length > 0 && (
        <div className="cloze-orphans">
          {orphans.map((blank) => (
            <label key={blank.id} className="cloze-orphan">
              <span>{t('answers.blank', { n: content.blanks.indexOf(blank) + 1 })}: </span>
              {field(blank, content.blanks.indexOf(blank))}
            </label>
          ))}
        </div>
      )}
    </div>
  );
}
