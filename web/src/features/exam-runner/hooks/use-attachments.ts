/**
 * Attachments of file tasks: sent at once with their answer (saveanswers_with_files); without a
 * connection they wait in the file outbox (after any that already wait for the task, so the order
 * holds) and go when the network returns. The names of files uploaded here are remembered for the
 * list of attached files.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FileUploader, UploadedFile } from '../../../components/answers/file-input';
import type { UploadRequest } from '../api/upload-files';
import type { SaveFilesResponse } from '../api/exam-api';
import type { FileOutboxStore } from '../lib/file-outbox';
import type { Outbox } from '../lib/outbox';
import { isConnectionLost, useFileOutbox } from './use-file-outbox';

interface Options {
  examWorkId: number;
  store: FileOutboxStore;
  upload: (request: UploadRequest) => Promise<SaveFilesResponse>;
  /** The answers as shown (a file task's value holds the ids of its attached files). */
  values: Record<number, unknown>;
  outbox: Pick<Outbox, 'reserveSeq' | 'noteSaved'>;
  commit: (variantTaskId?: number) => Promise<unknown>;
  setServerValue: (variantTaskId: number, value: unknown, seq: number) => void;
  online: boolean;
  /** Changes whenever the answer outbox got through to the server: a hint the network is back. */
  reachedAt: string | null;
  onRefused: (variantTaskId: number, error: unknown) => void;
}

export function useAttachments({
  examWorkId,
  store,
  upload,
  values,
  outbox,
  commit,
  setServerValue,
  online,
  reachedAt,
  onRefused,
}: Options) {
  const [knownFiles, setKnownFiles] = useState<Record<number, UploadedFile>>({});
  const valuesRef = useRef(values);
  useEffect(() => {
    valuesRef.current = values;
  });

  /** Sends files with the task's answer: the answer as it stands (its files), then the new ones. */
  const sendFiles = useCallback(
    async (variantTaskId: number, files: File[], onProgress?: (share: number) => void) => {
      await commit(variantTaskId);
      const current = valuesRef.current[variantTaskId] as { fileIds?: number[] } | undefined;
      const fileIds = current?.fileIds ?? [];
      const seq = outbox.reserveSeq(variantTaskId);
      const response = await upload({ examWorkId, variantTaskId, fileIds, seq, files, onProgress });
      const stored = response.files.filter((f) => f.variantTaskId === variantTaskId);
      setKnownFiles((prev) => ({ ...prev, ...Object.fromEntries(stored.map((f) => [f.id, f])) }));
      const result = response.results.find((r) => r.variantTaskId === variantTaskId);
      setServerValue(
        variantTaskId,
        { fileIds: [...fileIds, ...stored.map((f) => f.id)] },
        result?.seq ?? seq,
      );
      if (result) outbox.noteSaved(result.savedAt);
      return stored;
    },
    [commit, outbox, setServerValue, upload, examWorkId],
  );

  const waiting = useFileOutbox({
    examWorkId,
    store,
    send: sendFiles,
    online,
    reachedAt,
    onRefused,
  });
  const { queue, flushFiles, waitingFiles } = waiting;

  const uploaderFor =
    (variantTaskId: number): FileUploader =>
    async (chosen, _fileIds, onProgress) => {
      if (waitingFiles(variantTaskId).length) {
        await queue(variantTaskId, chosen);
        void flushFiles();
        return [];
      }
      try {
        return await sendFiles(variantTaskId, chosen, onProgress);
      } catch (error) {
        if (!isConnectionLost(error)) throw error;
        await queue(variantTaskId, chosen);
        return [];
      }
    };

  return { ...waiting, knownFiles, uploaderFor };
}
