/** Insert a picture of the task into the text: one of its files, or one uploaded now. */
import type { FileInfo } from '@attesta/contract';
import {
  Alert,
  Button,
  FileButton,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { describeApiError } from '../../../../lib/form-errors';
import { taskFileUrl } from '../api/files';
import { useTaskEditorT } from '../locales';

interface ImageDialogProps {
  files: FileInfo[];
  onUpload?: (files: File[]) => Promise<FileInfo[]>;
  onInsert: (src: string, alt: string) => void;
  onClose: () => void;
}

export const IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

export function ImageDialog({ files, onUpload, onInsert, onClose }: ImageDialogProps) {
  const { t } = useTaskEditorT();
  const [chosen, setChosen] = useState<FileInfo | null>(null);
  const [alt, setAlt] = useState('');
  const [uploaded, setUploaded] = useState<FileInfo[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const images = [...files, ...uploaded.filter((u) => !files.some((f) => f.id === u.id))].filter((f) =>
    f.mime.startsWith('image/'),
  );

  const upload = async (picked: File[]) => {
    if (!onUpload || !picked.length) return;
    setBusy(true);
    setError(null);
    try {
      const stored = await onUpload(picked);
      setUploaded((u) => [...u, ...stored]);
      const first = stored.find((f) => f.mime.startsWith('image/'));
      if (first) {
        setChosen(first);
        setAlt((a) => a || first.name.replace(/\.[^.]+$/, ''));
      }
    } catch (e) {
      setError(describeApiError(e, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t('taskEditor.image.title')} size="lg">
      <Stack>
        {images.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('taskEditor.image.none')}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 2, sm: 4 }} role="listbox" aria-label={t('taskEditor.image.pick')}>
            {images.map((f) => (
              <UnstyledButton
                key={f.id}
                role="option"
                aria-selected={chosen?.id === f.id}
                onClick={() => {
                  setChosen(f);
                  setAlt((a) => a || f.name.replace(/\.[^.]+$/, ''));
                }}
                style={{
                  border: `2px solid ${chosen?.id === f.id ? 'var(--mantine-color-blue-6)' : 'transparent'}`,
                  borderRadius: 4,
                  padding: 4,
                }}
              >
                <img src={taskFileUrl(f.id)} alt={f.name} style={{ maxWidth: '100%', maxHeight: 96 }} />
                <Text size="xs" truncate>
                  {f.name}
                </Text>
              </UnstyledButton>
            ))}
          </SimpleGrid>
        )}
        {onUpload ? (
          <FileButton onChange={(f) => void upload(f)} accept={IMAGE_ACCEPT} multiple>
            {(props) => (
              <Button variant="light" loading={busy} {...props}>
                {t('taskEditor.image.upload')}
              </Button>
            )}
          </FileButton>
        ) : (
          <Alert color="blue" variant="light">
            {t('taskEditor.files.saveFirst')}
          </Alert>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <TextInput
          label={t('taskEditor.image.alt')}
          description={t('taskEditor.image.altHint')}
          value={alt}
          onChange={(e) => setAlt(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('taskEditor.cancel')}
          </Button>
          <Button disabled={!chosen} onClick={() => chosen && onInsert(taskFileUrl(chosen.id), alt.trim())}>
            {t('taskEditor.image.insert')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
