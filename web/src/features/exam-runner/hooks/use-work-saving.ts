/**
 * Everything the participant gives the server: answers through the autosave's outbox, attachments
 * through the file outbox. Says which tasks still hold something unsent, sends it all on demand,
 * and at once when the connection returns.
 */
import type { ExamWorkState } from '@attesta/contract';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { noteRunnerAnswer } from '../../../lib/runner-snapshot';
import type { ExamApi } from '../api/exam-api';
import type { uploadAnswerFiles } from '../api/upload-files';
import { fileOutboxStore, type FileOutboxStore } from '../lib/file-outbox';
import type { OutboxEvent } from '../lib/outbox';
import type { OutboxStore } from '../lib/outbox-store';
import { useAttachments } from './use-attachments';
import { useAutosave } from './use-autosave';

interface WorkSavingOptions {
  api: ExamApi;
  work: ExamWorkState;
  store: OutboxStore;
  /** Where attachments chosen offline wait (IndexedDB when not given). */
  fileStore: FileOutboxStore | undefined;
  upload: typeof uploadAnswerFiles;
  online: boolean;
  onEvent: (event: OutboxEvent) => void;
  /** The server refused an attachment of this task. */
  onRefused: (variantTaskId: number, error: unknown) => void;
}

export function useWorkSaving({
  api,
  work,
  store,
  fileStore: givenFileStore,
  upload,
  online,
  onEvent,
  onRefused,
}: WorkSavingOptions) {
  const [fileStore] = useState(() => givenFileStore ?? fileOutboxStore());
  const transport = useMemo(() => ({ saveOne: api.saveAnswer, saveMany: api.saveAnswers }), [api]);
  const refetchAnswer = useCallback(
    async (variantTaskId: number) => {
      const state = await api.work(work.id);
      return state.answers?.find((a) => a.variantTaskId === variantTaskId) ?? null;
    },
    [api, work.id],
  );
  // An acknowledged save leaves the outbox: the local copy of the sitting keeps it for an offline reload.
  const onOutboxEvent = useCallback(
    (event: OutboxEvent) => {
      if (event.type === 'saved') {
        const { variantTaskId, value, seq, savedAt } = event;
        void noteRunnerAnswer(work.id, { variantTaskId, value, seq, savedAt });
      }
      onEvent(event);
    },
    [onEvent, work.id],
  );
  const {
    outbox,
    values,
    snapshot,
    unsavedTaskIds: unsavedAnswers,
    change,
    commit,
    flush: flushAnswers,
    setServerValue,
  } = useAutosave({ work, store, transport, onEvent: onOutboxEvent, refetchAnswer });
  const files = useAttachments({
    examWorkId: work.id,
    store: fileStore,
    upload,
    values,
    outbox,
    commit,
    setServerValue,
    online,
    reachedAt: snapshot.lastSavedAt,
    onRefused,
  });
  const { flushFiles, waitingTaskIds } = files;
  /** Tasks with something the server does not have yet: a typed answer or a waiting file. */
  const unsavedTaskIds = useMemo(
    () => new Set([...unsavedAnswers, ...waitingTaskIds]),
    [unsavedAnswers, waitingTaskIds],
  );
  /** Everything this browser holds goes to the server; true when it has all of it. */
  const flush = useCallback(async () => {
    const answers = await flushAnswers();
    const attachments = await flushFiles();
    return answers && attachments;
  }, [flushAnswers, flushFiles]);

  // The connection is back: send what waits at once.
  useEffect(() => {
    if (online) outbox.retryNow();
  }, [online, outbox]);

  return { outbox, values, snapshot, change, commit, flush, unsavedTaskIds, files };
}
