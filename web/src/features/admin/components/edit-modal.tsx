/** The shell of the organisation pages' create/edit forms: a modal, its values and their errors. */
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useCallback, useState, type ReactNode } from 'react';
import { LoadingButton } from '../../../components/ui/loading-button';
import { useApiForm } from '../../../lib/use-api-form';
import { useAdminT } from '../i18n';

/**
 * Form values plus the api-form state: `set` clears the field's error, `text(field)` gives a text
 * input its value, change handler and error, `errorOf(field)` the error of any other input.
 */
export function useEditForm<V extends Record<string, unknown>>(initial: () => V) {
  const form = useApiForm();
  const { clearFieldError, fieldErrors } = form;
  const [values, setValues] = useState<V>(initial);
  const set = useCallback(
    <K extends keyof V & string>(field: K, value: V[K]) => {
      setValues((current) => ({ ...current, [field]: value }));
      clearFieldError(field);
    },
    [clearFieldError],
  );
  const errorOf = (field: keyof V & string) => ({
    error: fieldErrors[field],
    'aria-invalid': Boolean(fieldErrors[field]) || undefined,
  });
  const text = (field: keyof V & string) => ({
    value: String(values[field] ?? ''),
    onChange: (e: { currentTarget: { value: string } }) =>
      set(field, e.currentTarget.value as V[typeof field]),
    ...errorOf(field),
  });
  return { ...form, values, set, text, errorOf };
}

export type EditForm = ReturnType<typeof useEditForm>;

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
