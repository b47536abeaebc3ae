import { Text } from '../lite/core';
import { useId, useState, type DragEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useBundleT } from '../data-table/use-bundle-t';
import { useHtmlSlots } from './html-slots';
import { answersBundle } from './locales';
import { htmlLabel, RichHtml } from './rich-html';
import type { AnswerInputProps } from './types';
import './answers.css';

interface GapMatchInputProps extends AnswerInputProps<'gap_match'> {
  /** The task html with `{{id}}` placeholders where the gaps go. */
  html: string;
}

/**
 * Words put into the gaps of the text: each gap is a drop-down of the words (keyboard, touch,
 * screen readers) with a clear button; a word may also be dragged from the word bank onto a gap.
 * A word is offered until it is used as often as its matchMax allows (0 — any number).
 */
export function GapMatchInput({
  content,
  value,
  onChange,
  onCommit,
  disabled,
  labelledBy,
  html,
}: GapMatchInputProps) {
  const { t } = useTranslation();
  const { t: more } = useBundleT(answersBundle);
  const { setRoot, slots } = useHtmlSlots();
  const hintId = useId();
  const bankId = useId();
  const [dragging, setDragging] = useState<string | null>(null);

  const words = content.words;
  const labelOf = (index: number) => htmlLabel(words[index]!.html, more('answers.word', { n: index + 1 }));
  const usesOf = (wordId: string, exceptGap?: string) =>
    Object.entries(value).filter(([gap, word]) => word === wordId && gap !== exceptGap).length;
  const fits = (wordId: string, gapId: string) => {
    const word = words.find((w) => w.id === wordId);
    return !!word && (word.matchMax === 0 || usesOf(wordId, gapId) < word.matchMax);
  };
  const set = (gapId: string, wordId: string) => {
    const next: Record<string, string> = { ...value };
    if (wordId) next[gapId] = wordId;
    else delete next[gapId];
    // Gaps of the task only, in their order: a stale gap id of an edited task is dropped.
    onChange(Object.fromEntries(content.gaps.filter((g) => next[g.id]).map((g) => [g.id, next[g.id]!])));
  };

  const onDrop = (gapId: string) => (e: DragEvent) => {
    e.preventDefault();
    const wordId = e.dataTransfer.getData('text/plain') || dragging;
    setDragging(null);
    if (!wordId || disabled || !fits(wordId, gapId)) return;
    set(gapId, wordId);
    onCommit?.();
  };

  const gapField = (gapId: string, index: number) => {
    const current = value[gapId] ?? '';
    return (
      <span className="gap-match-gap" onDragOver={(e) => e.preventDefault()} onDrop={onDrop(gapId)}>
        <select
          className="cloze-select"
          aria-label={t('answers.blank', { n: index + 1 })}
          aria-describedby={hintId}
          value={current}
          onChange={(e) => set(gapId, e.currentTarget.value)}
          onBlur={onCommit}
          disabled={disabled}
          data-testid={`gap-${gapId}`}
        >
          <option value="">{more('answers.gapEmpty')}</option>
          {words.map((word, i) => {
            const free = word.id === current || fits(word.id, gapId);
            return (
              <option key={word.id} value={word.id} disabled={!free}>
                {free ? labelOf(i) : more('answers.wordTaken', { word: labelOf(i) })}
              </option>
            );
          })}
        </select>
        {current && (
          <button
            type="button"
            className="gap-clear"
            aria-label={more('answers.clearGap', { n: index + 1 })}
            onClick={() => {
              set(gapId, '');
              onCommit?.();
            }}
            disabled={disabled}
            data-testid={`clear-gap-${gapId}`}
          >
            ×
          </button>
        )}
      </span>
    );
  };

  const orphans = slots ? content.gaps.filter((g) => !slots.has(g.id)) : [];

  return (
    <div className="gap-match" role="group" aria-labelledby={labelledBy}>
      <Text id={hintId} size="sm" c="dimmed" mb="xs">
        {more('answers.gapMatchHint')}
      </Text>
      <div className="word-bank" role="group" aria-labelledby={bankId}>
        <Text id={bankId} fw={600} size="sm" mb={4}>
          {more('answers.wordBank')}
        </Text>
        <ul className="word-bank-list">
          {words.map((word) => {
            const used = usesOf(word.id);
            const usedUp = word.matchMax > 0 && used >= word.matchMax;
            return (
              <li
                key={word.id}
                className="word-bank-word"
                data-used={usedUp || undefined}
                draggable={!disabled && !usedUp}
                onDragStart={(e) => {
                  e.dataTransfer.setData('text/plain', word.id);
                  e.dataTransfer.effectAllowed = 'copy';
                  setDragging(word.id);
                }}
                onDragEnd={() => setDragging(null)}
                data-testid={`word-${word.id}`}
              >
                <RichHtml html={word.html} as="span" />
                {word.matchMax === 1 && usedUp && (
                  <span className="word-bank-note">{more('answers.wordUsed')}</span>
                )}
                {word.matchMax > 1 && (
                  <span className="word-bank-note">
                    {more('answers.wordUses', { used, max: word.matchMax })}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      </div>
      <RichHtml key={html} ref={setRoot} html={html} withSlots className="task-html" />
      {content.gaps.map((gap, i) => {
        const slot = slots?.get(gap.id);
        return slot ? createPortal(gapField(gap.id, i), slot, gap.id) : null;
      })}
      {orphans.length > 0 && (
        <div className="cloze-orphans">
          {orphans.map((gap) => {
            const index = content.gaps.indexOf(gap);
            return (
              <div key={gap.id} className="cloze-orphan">
                <span aria-hidden="true">{t('answers.blank', { n: index + 1 })}: </span>
                {gapField(gap.id, index)}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
