import { NativeSelect, Text } from '../lite/core';
import { useTranslation } from 'react-i18next';
import { htmlToText, RichHtml } from './rich-html';
import './answers.css';
import type { AnswerInputProps } from './types';

const RU_LETTERS = 'АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩЭЮЯ';

/** Letters of the right column as on Russian answer forms (А, Б, В…; no Ё, Й, Ъ, Ы, Ь). */
export const rightLabel = (index: number) => RU_LETTERS[index] ?? String(index + 1);

/**
 * The width a select needs to show its longest option whole: the text in `ch`, a little more for
 * letters wider than «0» (Cyrillic «Ж», «Ш»), and the arrow. The screen's width caps it (CSS).
 */
export function selectWidth(labels: readonly string[]): string {
  const longest = Math.max(4, ...labels.map((label) => label.length));
  return `calc(${Math.ceil(longest * 1.15)}ch + 2.75rem)`;
}

/**
 * For every left item, a select of the right items; the right column is shown with its letters.
 * A row holds the item and its select side by side where they fit, the select under the item
 * where they do not (a phone); the select is as wide as its longest choice, so the chosen one
 * reads whole.
 */
export function MatchingInput({
  content,
  value,
  onChange,
  onCommit,
  disabled,
  labelledBy,
}: AnswerInputProps<'matching'>) {
  const { t } = useTranslation();
  const options = [
    { value: '', label: t('answers.notMatched') },
    ...content.right.map((r, i) => ({ value: r.id, label: `${rightLabel(i)}) ${htmlToText(r.html)}` })),
  ];
  const width = selectWidth(options.map((o) => o.label));
  const set = (leftId: string, rightId: string) => {
    const next = { ...value };
    if (rightId) next[leftId] = rightId;
    else delete next[leftId];
    onChange(next);
  };
  return (
    <div role="group" aria-labelledby={labelledBy} className="matching">
      <div className="matching-columns">
        <div>
          <Text fw={600} size="sm" mb={4} aria-hidden="true">
            {t('answers.matchLeft')}
          </Text>
          <ol className="matching-rows">
            {content.left.map((left, i) => (
              <li key={left.id} className="matching-row">
                <span className="matching-left">
                  <Text component="span" fw={600} mr={6}>
                    {i + 1}.
                  </Text>
                  <RichHtml html={left.html} as="span" />
                </span>
                <NativeSelect
                  className="matching-select"
                  style={{ width }}
                  aria-label={t('answers.matchFor', { n: i + 1, item: htmlToText(left.html) })}
                  data={options}
                  value={value[left.id] ?? ''}
                  onChange={(e) => set(left.id, e.currentTarget.value)}
                  onBlur={onCommit}
                  disabled={disabled}
                  data-testid={`match-${left.id}`}
                />
              </li>
            ))}
          </ol>
        </div>
        <div>
          <Text fw={600} size="sm" mb={4}>
            {t('answers.matchRight')}
          </Text>
          <ul className="matching-right">
            {content.right.map((r, i) => (
              <li key={r.id}>
                <Text component="span" fw={600} mr={6}>
                  {rightLabel(i)})
                </Text>
                <RichHtml html={r.html} as="span" />
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}
