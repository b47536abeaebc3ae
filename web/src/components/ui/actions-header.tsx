import { Table, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The name of a table's column of row buttons: read by screen readers, not drawn (axe: empty-table-header). */
export function ActionsLabel() {
  const { t } = useTranslation();
  return <VisuallyHidden>{t('app.a11y.actions')}</VisuallyHidden>;
}

/** A header cell for a column of row buttons, which has no visible title. */
export function ActionsTh() {
  return (
    <Table.Th>
      <ActionsLabel />
    </Table.Th>
  );
}
