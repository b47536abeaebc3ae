/**
 * An answer's attached file shown inline from GET /api/files/{id} (fetched with the session and
 * anti-CSRF header; the server serves files as downloads only): images in the zoom / rotate / pan
 * viewer, PDFs page by page through pdf.js; other types as a download.
 */
import type { ExpertAnswerFile } from '@attesta/contract';
import { Alert, Group, Loader, Paper, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { rawRequest } from '../../../components/data-table/download';
import { useDownload } from '../../../components/data-table/use-download';
import type { LooseT } from '../../../components/data-table/use-bundle-t';
import { LoadingButton } from '../../../components/ui/loading-button';
import { filePath } from '../api/files-api';
import { ImageViewer } from './image-viewer';
import { PdfViewer } from './pdf-viewer';

const isImage = (mime: string) => mime.startsWith('image/');
const isPdf = (mime: string) => mime === 'application/pdf';

export function AttachmentView({ file, t }: { file: ExpertAnswerFile; t: LooseT }) {
  const download = useDownload();
  const [pdf, setPdf] = useState<ArrayBuffer | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const inline = isPdf(file.mime) || (isImage(file.mime) && typeof URL.createObjectURL === 'function');

  useEffect(() => {
    if (!inline) return;
    let objectUrl: string | null = null;
    let cancelled = false;
    rawRequest(filePath(file.id))
      .then(async (response) => {
        if (isPdf(file.mime)) {
          const bytes = await response.arrayBuffer();
          if (!cancelled) setPdf(bytes);
          return;
        }
        const body = await response.blob();
        if (cancelled) return;
        objectUrl = URL.createObjectURL(new Blob([body], { type: file.mime }));
        setUrl(objectUrl);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [file.id, file.mime, inline]);

  const downloadButton = (
    <LoadingButton
      size="compact-sm"
      variant="default"
      onClick={() => download(filePath(file.id), undefined, file.name)}
      data-testid={`attachment-download-${file.id}`}
    >
      {t('expert.grading.download', { name: file.name })}
    </LoadingButton>
  );

  if (!inline) return downloadButton;
  return (
    <Paper withBorder p="xs" radius="sm" data-testid={`attachment-${file.id}`}>
      <Group justify="space-between" mb={4} gap="xs">
        <Text size="sm" c="dimmed">
          {file.name}
        </Text>
        {downloadButton}
      </Group>
      {failed && (
        <Alert color="red" variant="light" mb="xs">
          {t('expert.grading.fileFailed', { name: file.name })}
        </Alert>
      )}
      {!url && !pdf && !failed && <Loader size="sm" />}
      {url && isImage(file.mime) && <ImageViewer url={url} name={file.name} fileId={file.id} t={t} />}
      {pdf && <PdfViewer data={pdf} name={file.name} fileId={file.id} t={t} />}
    </Paper>
  );
}
