import { ActionIcon, Alert, Button, Group, Stack, Text } from '../lite/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ANSWER_FILE_MAX_BYTES } from '@attesta/contract';
import { callPath } from '../../lib/call';
import { describeApiError } from '../../lib/form-errors';
import { Progress } from '../lite/progress';
import { useFileInfos } from './file-infos';
import type { AnswerInputProps } from './types';

export interface UploadedFile {
  id: number;
  name: string;
  size?: number;
}

/** A file chosen while offline, waiting in the runner's file outbox to be sent. */
export interface WaitingFile {
  name: string;
  size: number;
}

/** Sends files with the answer; resolves with the stored files, reports progress 0..1. */
export type FileUploader = (
  files: File[],
  currentFileIds: number[],
  onProgress: (share: number) => void,
) => Promise<UploadedFile[]>;

interface FileAnswerInputProps extends AnswerInputProps<'file'> {
  upload: FileUploader;
  /** Names of files known to this browser (uploaded here); others are looked up by id. */
  knownFiles: Record<number, UploadedFile>;
  /** Chosen while offline: shown as waiting, they take room like the attached ones. */
  waitingFiles: WaitingFile[];
}

function accepts(accept: readonly string[], file: File): boolean {
  return accept.some((pattern) => {
    if (pattern.endsWith('/*')) return file.type.startsWith(pattern.slice(0, -1));
    return file.type === pattern;
  });
}

const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1).replace('.', ',')} МБ`
    : `${Math.ceil(bytes / 1024)} КБ`;

/**
 * Attachments (a photo of written work): chosen files go up at once with a progress bar; a failed
 * upload keeps the files for «Повторить». Removing a file saves the answer without it.
 */
export function FileAnswerInput({
  content,
  value,
  onChange,
  disabled,
  upload,
  knownFiles,
  waitingFiles,
}: FileAnswerInputProps) {
  const { t } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [failed, setFailed] = useState<{ files: File[]; why: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const fileIds = value.fileIds;
  const room = content.maxFiles - fileIds.length - waitingFiles.length;
  // The task's size, never above what the server stores (a larger file is refused, never queued).
  const maxMb = Math.min(content.maxSizeMb, ANSWER_FILE_MAX_BYTES / (1024 * 1024));
  // Files attached elsewhere (another device, the participant online for a paper form's keyer)
  // are named by the server; those uploaded here are known already.
  const looked = useFileInfos(fileIds.filter((id) => !knownFiles[id]));

  const send = async (files: File[]) => {
    setProblem(null);
    setFailed(null);
    setProgress(0);
    try {
      await upload(files, fileIds, setProgress);
    } catch (error) {
      setFailed({ files, why: describeApiError(error, t) });
    } finally {
      setProgress(null);
    }
  };

  const choose = (list: FileList | null) => {
    const files = [...(list ?? [])];
    if (inputRef.current) inputRef.current.value = '';
    if (!files.length) return;
    if (files.length > room) return setProblem(t('answers.tooManyFiles', { count: content.maxFiles }));
    const wrongType = files.find((f) => !accepts(content.accept, f));
    if (wrongType) return setProblem(t('answers.wrongFileType', { name: wrongType.name }));
    const tooBig = files.find((f) => f.size > maxMb * 1024 * 1024);
    if (tooBig) return setProblem(t('answers.fileTooBig', { name: tooBig.name, max: maxMb }));
    void send(files);
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('answers.fileHint', { count: content.maxFiles, max: maxMb })}
      </Text>
      {fileIds.length > 0 && (
        <ul className="file-list" aria-label={t('answers.attached')}>
          {fileIds.map((id, index) => {
            const known = knownFiles[id] ?? looked.get(id);
            const name = known?.name ?? t('answers.fileNumber', { n: index + 1 });
            return (
              <li key={id} data-testid={`attached-${id}`}>
                <a href={callPath('GET /api/files/{id}', { id })} target="_blank" rel="noopener noreferrer">
                  {name}
                </a>
                {known?.size !== undefined && (
                  <Text component="span" size="sm" c="dimmed" ml={6}>
                    {formatSize(known.size)}
                  </Text>
                )}
                <ActionIcon
                  variant="subtle"
                  color="red.8"
                  ml="xs"
                  aria-label={t('answers.removeFile', { name })}
                  disabled={disabled || progress !== null}
                  onClick={() => onChange({ fileIds: fileIds.filter((x) => x !== id) })}
                  data-testid={`remove-file-${id}`}
                >
                  ✕
                </ActionIcon>
              </li>
            );
          })}
        </ul>
      )}
      {waitingFiles.length > 0 && (
        <ul className="file-list" aria-label={t('answers.waiting')} data-testid="waiting-files">
          {waitingFiles.map((file, i) => (
            <li key={`${i}:${file.name}`}>
              {file.name}
              <Text component="span" size="sm" c="dimmed" ml={6}>
                {formatSize(file.size)} · {t('answers.waitingOne')}
              </Text>
            </li>
          ))}
        </ul>
      )}
      {progress !== null && (
        <div role="status">
          <Text size="sm">{t('answers.uploading', { percent: Math.round(progress * 100) })}</Text>
          <Progress value={progress * 100} />
        </div>
      )}
      {problem && (
        <Alert color="orange" variant="light" role="alert">
          {problem}
        </Alert>
      )}
      {failed && (
        <Alert color="red" variant="light" role="alert" data-testid="upload-failed">
          <Group justify="space-between">
            <Text size="sm">{t('answers.uploadFailed', { message: failed.why })}</Text>
            <Button size="compact-sm" onClick={() => void send(failed.files)} data-testid="upload-retry">
              {t('answers.retry')}
            </Button>
          </Group>
        </Alert>
      )}
      <div>
        <label className="file-pick">
          <input
            ref={inputRef}
            type="file"
            className="file-pick-input"
            accept={content.accept.join(',')}
            multiple={room > 1}
            disabled={disabled || room <= 0 || progress !== null}
            onChange={(e) => choose(e.currentTarget.files)}
            data-testid="file-input"
          />
          <span className="file-pick-button">{room > 0 ? t('answers.attach') : t('answers.noRoom')}</span>
        </label>
      </div>
    </Stack>
  );
}
