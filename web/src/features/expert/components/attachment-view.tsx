/**
 * An answer's attached file shown inline: images as <img>, PDFs in an <iframe>, both from a blob
 * URL of GET /api/files/{id} (the session and anti-CSRF header go along); other types as a download.
 */
import type { ExpertAnswerFile } from '@attesta/contract';
import { Alert, Loader, Paper, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { rawRequest } from '../../../components/data-table/download';
import { useDownload } from '../../../components/data-table/use-download';
import type { LooseT } from '../../../components/data-table/use-bundle-t';
import { LoadingButton } from '../../../components/ui/loading-button';
import { filePath } from '../api/files-api';

const inline = (mime: string) => mime.startsWith('image/') || mime === 'application/pdf';

export function AttachmentView({ file, t }: { file: ExpertAnswerFile; t: LooseT }) {
  const download = useDownload();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!inline(file.mime) || typeof URL.createObjectURL !== 'function') return;
    let objectUrl: string | null = null;
    let cancelled = false;
    rawRequest(filePath(file.id))
      .then((response) => response.blob())
      .then((blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(new Blob([blob], { type: file.mime }));
        setUrl(objectUrl);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [file.id, file.mime]);

  const downloadButton = (
    <LoadingButton
      size="xs"
      variant="default"
      onClick={() => download(filePath(file.id), undefined, file.name)}
      data-testid={`attachment-download-${file.id}`}
    >
      {t('expert.grading.download', { name: file.name })}
    </LoadingButton>
  );

  if (!inline(file.mime)) return downloadButton;
  return (
    <Paper withBorder p="xs" radius="sm" data-testid={`attachment-${file.id}`}>
      <Text size="sm" c="dimmed" mb={4}>
        {file.name}
      </Text>
      {failed && (
        <Alert color="red" variant="light" mb="xs">
          {t('expert.grading.fileFailed', { name: file.name })}
        </Alert>
      )}
      {!url && !failed && <Loader size="sm" />}
      {url && file.mime === 'application/pdf' && (
        <iframe src={url} title={file.name} style={{ width: '100%', height: 600, border: 0 }} />
      )}
      {url && file.mime.startsWith('image/') && (
        <img src={url} alt={file.name} style={{ maxWidth: '100%', height: 'auto', display: 'block' }} />
      )}
      <div style={{ marginTop: 8 }}>{downloadButton}</div>
    </Paper>
  );
}
