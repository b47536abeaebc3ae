import { Text } from '@mantine/core';
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
