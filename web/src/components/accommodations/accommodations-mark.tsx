import type { Accommodations } from '@attesta/contract';
import { Group, Text } from '@mantine/core';
import type { LooseT } from '../data-table/use-bundle-t';
import { useAccommodationsT } from './locales';

/** The list's mark for a student with accommodations: a word, not only an icon. */
export function AccommodationsMark({ student }: { student: { id: number; hasAccommodations: boolean } }) {
  const { t } = useAccommodationsT();
  if (!student.hasAccommodations) return <Text c="dimmed">—</Text>;
  return (
    <Text size="sm" fw={500} data-testid={`student-accommodations-mark-${student.id}`}>
      <span aria-hidden="true">♿ </span>
      {t('accommodations.has')}
    </Text>
  );
}

/** What a profile gives, a few words each («+50 % времени», «крупный шрифт»); empty for none. */
export function accommodationWords(a: Accommodations | null | undefined, t: LooseT) {
  if (!a) return [];
  const words: string[] = [];
  if (a.extraTimePercent > 0)
    words.push(t('accommodations.short.extraTime', { percent: a.extraTimePercent }));
  if (a.largeText) words.push(t('accommodations.short.largeText'));
  if (a.theme === 'high_contrast') words.push(t('accommodations.short.highContrast'));
  if (a.theme === 'dark') words.push(t('accommodations.short.dark'));
  if (a.lineReader) words.push(t('accommodations.short.lineReader'));
  if (a.magnifier) words.push(t('accommodations.short.magnifier'));
  if (a.textToSpeech) words.push(t('accommodations.short.textToSpeech'));
  if (a.restBreakMinutes > 0)
    words.push(t('accommodations.short.restBreaks', { minutes: a.restBreakMinutes }));
  return words;
}

/** A room row's accommodations in words (the list's mark when there are none: a dash). */
export function AccommodationsWords({
  id,
  accommodations,
}: {
  id: number;
  accommodations: Accommodations | null | undefined;
}) {
  const { t } = useAccommodationsT();
  const words = accommodationWords(accommodations, t);
  if (words.length === 0) return <AccommodationsMark student={{ id, hasAccommodations: false }} />;
  return (
    <Group gap={4} data-testid={`accommodations-words-${id}`}>
      <span aria-hidden="true">♿</span>
      <Text size="sm">{words.join(', ')}</Text>
    </Group>
  );
}
