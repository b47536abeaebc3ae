/**
 * What the runner tells the participant about saves: a change another tab or device overtook, a
 * save or an attachment the server refused (one notice for both), and the autosave stopped for
 * good (the «save blocked» alert). A stop because the work is finished, or a refused save because
 * it is paused, goes on to the finish and the pause.
 */
import type { RefObject } from 'react';
import { ANSWER_VALUE_MAX_BYTES } from '@attesta/contract';
import { notifications } from '../../../components/lite/notify';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiClient, ApiError } from '../../../lib/api-client';
import { describeApiError } from '../../../lib/form-errors';
import type { OutboxEvent } from '../lib/outbox';

/**
 * Where outbox events lead beyond a notice. The hooks that own these need the autosave, which needs
 * the event handler first: so they are reached through a ref, bound once they exist.
 */
export interface OutboxFollowUps {
  goFinished: (fallbackReason: string | null) => Promise<void>;
  refreshPause: () => Promise<unknown>;
}

export function useRunnerNotices(
  taskById: ReadonlyMap<number, { position: number }>,
  followUpsRef: RefObject<OutboxFollowUps | null>,
) {
  const { t } = useTranslation();
  const [blocked, setBlocked] = useState<string | null>(null);

  /** A save or an attachment of this task the server refused: said until closed. */
  const notifyRejected = useCallback(
    (variantTaskId: number, error: unknown) => {
      const task = taskById.get(variantTaskId);
      const message = describeApiError(error, t);
      notifications.show({
        color: 'red',
        title: t('runner.rejected.title', { n: task?.position ?? '' }),
        message: t('runner.rejected.text', { message }),
        autoClose: false,
      });
    },
    [t, taskById],
  );

  const onOutboxEvent = useCallback(
    (event: OutboxEvent) => {
      if (event.type === 'stale') {
        const task = taskById.get(event.variantTaskId);
        notifications.show({
          color: 'blue',
          title: t('runner.stale.title'),
          message: t('runner.stale.text', { n: task?.position ?? '' }),
          autoClose: 8000,
        });
      } else if (event.type === 'rejected') {
        notifyRejected(event.variantTaskId, event.error);
      } else if (event.type === 'too_large') {
        // Never queued: the server would refuse it for its size (ANSWER_VALUE_MAX_BYTES).
        const task = taskById.get(event.variantTaskId);
        notifications.show({
          id: `too-large-${event.variantTaskId}`,
          color: 'red',
          title: t('runner.tooLarge.title', { n: task?.position ?? '' }),
          message: t('runner.tooLarge.text', { max: Math.floor(ANSWER_VALUE_MAX_BYTES / 1024) }),
          autoClose: false,
        });
      } else if (event.type === 'paused') {
        void followUpsRef.current?.refreshPause();
      } else if (event.type === 'stopped') {
        if (event.reason === 'finished') void followUpsRef.current?.goFinished(null);
        else if (event.reason === 'unauthorized' && event.error instanceof ApiError)
          apiClient.redirectFor(event.error);
        else setBlocked(describeApiError(event.error, t));
      }
    },
    [followUpsRef, notifyRejected, t, taskById],
  );

  return { blocked, onOutboxEvent, notifyRejected };
}
