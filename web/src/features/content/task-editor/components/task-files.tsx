/** The task's files: uploaded to the task and put into its text (a picture, or a link to a document). */
import type { FileInfo } from '@attesta/contract';
import { Alert, Anchor, Button, FileButton, Group, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { describeApiError } from '../../../../lib/form-errors';
import { taskFileUrl } from '../api/files';
import { useTaskEditorT } from '../locales';

/** What the upload call accepts (checked again by the server by the bytes). */
export const FILE_ACCEPT =
  'image/png,image/jpeg,image/gif,image/webp,application/pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.odt,.ods,.txt,.csv,.zip';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

interface TaskFilesProps {
  files: FileInfo[];
  onUpload?: (files: File[]) => Promise<FileInfo[]>;
  onInsert: (html: string) => void;
}

export function TaskFiles({ files, onUpload, onInsert }: TaskFilesProps) {
  const { t } = useTaskEditorT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const upload = async (picked: File[]) => {
    if (!onUpload || !picked.length) return;
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const stored = await onUpload(picked);
      setDone(t('taskEditor.files.uploaded', { count: stored.length }));
    } catch (e) {
      setError(describeApiError(e, t));
    } finally {
      setBusy(false);
    }
  };

  const htmlOf = (f: FileInfo) =>
    f.mime.startsWith('image/')
      ? `<img src="${taskFileUrl(f.id)}" alt="${escape(f.name.replace(/\.[^.]+$/, ''))}">`
      : `<a href="${taskFileUrl(f.id)}">${escape(f.name)}</a>`;

  return (
    <Stack gap="xs" data-testid="task-files">
      <Text size="xs" c="dimmed">
        {t('taskEditor.files.hint')}
      </Text>
      {files.map((f) => (
        <Paper key={f.id} withBorder p="xs">
          <Group justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              {f.mime.startsWith('image/') && (
                <img src={taskFileUrl(f.id)} alt="" style={{ maxHeight: 40, maxWidth: 64 }} />
              )}
              <Anchor href={taskFileUrl(f.id)} target="_blank" rel="noopener noreferrer" size="sm">
                {f.name}
              </Anchor>
              <Text size="xs" c="dimmed">
                {f.mime.startsWith('image/') ? t('taskEditor.files.image') : t('taskEditor.files.document')}
              </Text>
            </Group>
            <Button size="xs" variant="light" onClick={() => onInsert(htmlOf(f))}>
              {f.mime.startsWith('image/')
                ? t('taskEditor.files.insertImage')
                : t('taskEditor.files.insertLink')}
            </Button>
          </Group>
        </Paper>
      ))}
      {!files.length && (
        <Text size="sm" c="dimmed">
          {t('taskEditor.files.none')}
        </Text>
      )}
      {onUpload ? (
        <Group>
          <FileButton onChange={(f) => void upload(f)} accept={FILE_ACCEPT} multiple>
            {(props) => (
              <Button variant="light" loading={busy} {...props} data-testid="upload-files">
                {t('taskEditor.files.upload')}
              </Button>
            )}
          </FileButton>
        </Group>
      ) : (
        <Alert color="blue" variant="light">
          {t('taskEditor.files.saveFirst')}
        </Alert>
      )}
      {done && (
        <Text size="sm" c="green.8" role="status">
          {done}
        </Text>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
