import { Alert, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client';
import { describeApiError } from '../../lib/form-errors';
import { LoadingButton } from './loading-button';

export interface ConfirmActionProps {
  title: string;
  question: string;
  confirmLabel: string;
  cancelLabel: string;
  /** The confirm button's colour: red for what destroys, the theme's for what can be undone. */
  color?: string;
  /** Messages for the conflicts (409 codes) the call may answer, shown in the dialog. */
  conflicts?: Record<string, string>;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  /** Test ids of the confirm button and the refusal (kept apart so older tests keep theirs). */
  confirmTestId?: string;
  errorTestId?: string;
}

/** Asks before an action; a refusal is explained in the dialog, which then stays open. */
export function ConfirmAction(props: ConfirmActionProps) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setError(null);
    try {
      await props.onConfirm();
      props.onClose();
    } catch (e) {
      const known = e instanceof ApiError ? props.conflicts?.[e.code] : undefined;
      setError(known ?? describeApiError(e, t));
    }
  };
  return (
    <Modal opened onClose={props.onClose} title={props.title}>
      <Stack>
        <Text>{props.question}</Text>
        {error && (
          <Alert color="red" role="alert" data-testid={props.errorTestId ?? 'confirm-error'}>
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <LoadingButton variant="default" onClick={props.onClose}>
            {props.cancelLabel}
          </LoadingButton>
          <LoadingButton
            color={props.color}
            onClick={confirm}
            data-testid={props.confirmTestId ?? 'confirm-action'}
          >
            {props.confirmLabel}
          </LoadingButton>
        </Group>
      </Stack>
    </Modal>
  );
}
