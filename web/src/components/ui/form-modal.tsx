/** The shell of the create/edit forms: a modal with the form's error, fields and buttons, or a plain form on the page. */
import { Alert, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditForm } from '../../lib/use-edit-form';
import { LoadingButton } from './loading-button';

/** Submits through `onSubmit`, without native validation (the server's field errors are shown instead). */
function FormElement({
  attachForm,
  onSubmit,
  testId,
  children,
}: Pick<EditForm, 'attachForm'> & {
  onSubmit: () => Promise<void>;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <form
      ref={attachForm}
      noValidate
      data-testid={testId}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/** A modal holding one form: its error, the fields, Cancel and Save (or `submitLabel`). */
export function FormModal({
  title,
  testId,
  form,
  onSubmit,
  onClose,
  submitLabel,
  size = 'lg',
  children,
}: {
  title: string;
  testId: string;
  form: Pick<EditForm, 'attachForm' | 'isLoading' | 'formError'>;
  onSubmit: () => Promise<void>;
  onClose: () => void;
  submitLabel?: string;
  size?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={title} size={size}>
      <FormElement attachForm={form.attachForm} onSubmit={onSubmit} testId={testId}>
        <Stack>
          {form.formError && (
            <Alert color="red" role="alert" data-testid={`${testId}-error`}>
              {form.formError}
            </Alert>
          )}
          {children}
          <Group justify="flex-end">
            <LoadingButton variant="default" type="button" onClick={onClose}>
              {t('form.cancel')}
            </LoadingButton>
            <LoadingButton type="submit" loading={form.isLoading} data-testid={`${testId}-submit`}>
              {submitLabel ?? t('form.save')}
            </LoadingButton>
          </Group>
        </Stack>
      </FormElement>
    </Modal>
  );
}

/** A form on the page (not in a modal). */
export const PlainForm = FormElement;
