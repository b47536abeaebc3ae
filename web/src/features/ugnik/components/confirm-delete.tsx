import { Alert, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadingButton } from '../../../components/ui/loading-button';
import { ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import { useUgnikT } from '../i18n';

/** Asks before deleting; a 409 conflict is explained in the dialog with the caller's message. */
export function ConfirmDelete({
  question,
  conflictCode,
  conflictMessage,
  onConfirm,
  onClose,
}: {
  question: string;
  conflictCode: string;
  conflictMessage: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const t = useUgnikT();
  const { t: tr } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (e) {
      setError(e instanceof ApiError && e.code === conflictCode ? conflictMessage : describeApiError(e, tr));
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('common.confirmTitle')}>
      <Stack>
        <Text>{question}</Text>
        {error && (
          <Alert color="red" role="alert" data-testid="delete-error">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <LoadingButton variant="default" onClick={onClose}>
            {t('common.cancel')}
          </LoadingButton>
          <LoadingButton color="red" onClick={confirm} data-testid="confirm-delete">
            {t('common.delete')}
          </LoadingButton>
        </Group>
      </Stack>
    </Modal>
  );
}
