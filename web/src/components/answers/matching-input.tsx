import { NativeSelect, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { htmlToText, RichHtml } from './rich-html';
import type { AnswerInputProps } from './types';

const RU_LETTERS = 'АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩЭЮЯ';

/** Letters of the right column as on Russian answer forms (А, Б, В…; no Ё, Й, Ъ, Ы, Ь). */
export const rightLabel = (index: number) => RU_LETTERS[index] ?? String(index + 1);

/** For every left item, a select of the right items; the right column is shown with its letters. */
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
  const set = (leftId: string, rightId: string) => {
    const next = { ...value };
    if (rightId) next[leftId] = rightId;
    else delete next[leftId];
    onChange(next);
  };
  return (
    <div role="group" aria-labelledby={labelledBy} className="matching">
      <div className="matching-columns">
        <Table withTableBorder verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('answers.matchLeft')}</Table.Th>
              <Table.Th w="45%">{t('answers.matchChoice')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {content.left.map((left, i) => (
              <Table.Tr key={left.id}>
                <Table.Td>
                  <Text component="span" fw={600} mr={6}>
                    {i + 1}.
                  </Text>
                  <RichHtml html={left.html} as="span" />
                </Table.Td>
                <Table.Td>
                  <NativeSelect
                    aria-label={t('answers.matchFor', { n: i + 1, item: htmlToText(left.html) })}
                    data={options}
                    value={value[left.id] ?? ''}
                    onChange={(e) => set(left.id, e.currentTarget.value)}
                    onBlur={onCommit}
                    disabled={disabled}
                    data-testid={`match-${left.id}`}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
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
