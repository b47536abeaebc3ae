/** A short message from the room view to one participant's sitting (shown in their runner). */
import { STAFF_MESSAGE_MAX } from '@attesta/contract';
import { Alert, Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { notifications } from '../../components/lite/notify';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../lib/form-errors';
import { monitoringApi } from './api/monitoring-api';
import { useMonitoringT } from './i18n';

export interface MessageTarget {
  participantTestId: number;
  name: string;
}

export function MessageDialog({ target, onClose }: { target: MessageTarget; onClose: () => void }) {
  const mt = useMonitoringT();
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const message = text.trim();
    if (!message) return setError(mt('message.required'));
    setBusy(true);
    try {
      await monitoringApi.message(target.participantTestId, message);
      notifications.show({ color: 'green', message: mt('message.sent') });
      onClose();
    } catch (err) {
      setError(mt('message.failed', { message: describeApiError(err, t) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={mt('message.title', { name: target.name })} trapFocus returnFocus>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <Textarea
            label={mt('message.text')}
            description={mt('message.hint', { max: STAFF_MESSAGE_MAX })}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            maxLength={STAFF_MESSAGE_MAX}
            rows={3}
            required
            data-autofocus
            data-testid="message-input"
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {mt('actions.cancel')}
            </Button>
            <Button type="submit" loading={busy} data-testid="message-send">
              {mt('message.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
