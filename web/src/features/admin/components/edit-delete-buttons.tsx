import { Button, Group } from '@mantine/core';
import { useAdminT } from '../i18n';

/** The Edit and Delete buttons of a table row (`<what>-edit-<id>`, `<what>-delete-<id>` test ids). */
export function EditDeleteButtons({
  what,
  id,
  onEdit,
  onDelete,
}: {
  what: string;
  id: number;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const t = useAdminT();
  return (
    <Group gap={4} wrap="nowrap">
      <Button size="compact-xs" variant="light" onClick={onEdit} data-testid={`${what}-edit-${id}`}>
        {t('common.edit')}
      </Button>
      <Button
        size="compact-xs"
        variant="light"
        color="red"
        onClick={onDelete}
        data-testid={`${what}-delete-${id}`}
      >
        {t('common.delete')}
      </Button>
    </Group>
  );
}
