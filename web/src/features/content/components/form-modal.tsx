/** The shell of the content pages' create/edit forms: a modal with the form's error, fields and buttons. */
import { Alert, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { LoadingButton } from '../../../components/ui/loading-button';
import type { EditForm } from '../hooks/use-edit-form';
import { useContentT } from '../locales';

/** A modal holding one form: its error, the fields, Cancel and Save. */
export function FormModal({
  title,
  testId,
  attachForm,
  isLoading,
  formError,
  onSubmit,
  onClose,
  submitLabel,
  size = 'lg',
  children,
}: Pick<EditForm, 'attachForm' | 'isLoading' | 'formError'> & {
  title: string;
  testId: string;
  onSubmit: () => Promise<void>;
  onClose: () => void;
  submitLabel?: string;
  size?: string;
  children: ReactNode;
}) {
  const t = useContentT();
  return (
    <Modal opened onClose={onClose} title={title} size={size}>
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
            <LoadingButton type="submit" loading={isLoading} data-testid={`${testId}-submit`}>
              {submitLabel ?? t('common.save')}
            </LoadingButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A form on the page (not in a modal): no native validation, submit through `onSubmit`. */
export function PlainForm({
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
