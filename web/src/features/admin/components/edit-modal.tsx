/** The shell of the organisation pages' create/edit forms: a modal with the form's error, fields and buttons. */
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { LoadingButton } from '../../../components/ui/loading-button';
import type { EditForm } from '../hooks/use-edit-form';
import { useAdminT } from '../i18n';

/** A modal holding one form: its error, the fields, Cancel and Save. */
export function EditModal({
  title,
  testId,
  attachForm,
  isLoading,
  formError,
  onSubmit,
  onClose,
  children,
}: Pick<EditForm, 'attachForm' | 'isLoading' | 'formError'> & {
  title: string;
  testId: string;
  onSubmit: () => Promise<void>;
  onClose: () => void;
  children: ReactNode;
}) {
  const t = useAdminT();
  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      <form
        ref={attachForm}
        noValidate
        data-testid={testId}
        onSubmit={(event) => {
          event.preventDefault();
          void onSubmit();
        }}
      >
        <Stack>
          {formError && (
            <Alert color="red" role="alert" data-testid={`${testId}-error`}>
              {formError}
            </Alert>
          )}
          {children}
          <Group justify="flex-end">
            <LoadingButton variant="default" type="button" onClick={onClose}>
              {t('common.cancel')}
            </LoadingButton>
            <LoadingButton type="submit" loading={isLoading}>
              {t('common.save')}
            </LoadingButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Empty text → null (the contract's "clear"), otherwise the trimmed text. */
export const orNull = (text: string) => text.trim() || null;

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
