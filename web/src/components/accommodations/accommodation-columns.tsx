/**
 * The two columns every accommodations table has — a checkbox per row to set the same profile for
 * the selected, and whether the row has a profile — with the selection they share: the
 * coordinator's and admin's students and workers.
 */
import { Checkbox } from '@mantine/core';
import type { Column } from '../data-table/data-table';
import { AccommodationsMark } from './accommodations-mark';
import { useAccommodationsT } from './locales';
import { useRowSelection } from './use-row-selection';

interface Profiled {
  id: number;
  hasAccommodations: boolean;
}

/** `testId`: the rows' checkboxes are `<testId>-select-<id>` (student, worker). */
export function useAccommodationColumns<T extends Profiled>(nameOf: (row: T) => string, testId: string) {
  const { t } = useAccommodationsT();
  const { selected, toggleSelected, clearSelected } = useRowSelection();
  const selectColumn: Column<T, never> = {
    key: 'select',
    header: <span className="visually-hidden">{t('accommodations.selectColumn')}</span>,
    render: (row) => (
      <Checkbox
        aria-label={t('accommodations.select', { name: nameOf(row) })}
        checked={selected.has(row.id)}
        onChange={(e) => toggleSelected(row.id, e.currentTarget.checked)}
        data-testid={`${testId}-select-${row.id}`}
      />
    ),
  };
  const markColumn: Column<T, never> = {
    key: 'accommodations',
    header: t('accommodations.column'),
    render: (row) => <AccommodationsMark student={row} />,
    csv: (row) => (row.hasAccommodations ? t('accommodations.has') : ''),
  };
  return { selected, clearSelected, selectColumn, markColumn };
}
