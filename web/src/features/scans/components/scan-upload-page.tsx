/**
 * `/…/scans` (organizator, coordinator, admin): files of scanned answer sheets chosen by dropping
 * or picking, checked for kind, size and count before sending, uploaded as one batch; then the batch
 * is followed (`?batch=<id>`, so a reload keeps following it) page by page until it is read, with a
 * way to the review screen.
 */
import type { ScanBatch } from '@attesta/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  CloseButton,
  Group,
  Loader,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { LoadingButton } from '../../../components/ui/loading-button';
import { PageTitle } from '../../../components/ui/page-title';
import { formatDisplayDateTime } from '../../../lib/format';
import {
  MY_BATCHES_PAGE_SIZE,
  SCAN_POLL_MS,
  myBatchesQuery,
  scanBatchQuery,
  scanKeys,
  uploadScans,
} from '../api/scans-api';
import { describeScanError } from '../lib/scan-errors';
import { useScansT } from '../locales';
import { reviewPath, type ScanRole } from '../scan-role';

const MAX_FILES = 20;
const MAX_BYTES = 200 * 1024 * 1024;
const EXTENSIONS = ['pdf', 'tif', 'tiff', 'jpg', 'jpeg', 'png'];
const ACCEPT = '.pdf,.tif,.tiff,.jpg,.jpeg,.png,application/pdf,image/tiff,image/jpeg,image/png';
const extensionOf = (name: string) => /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';

const STATUS_COLOR = { queued: 'gray', running: 'blue', done: 'green', failed: 'red' } as const;
const PAGE_COLOR = {
  recognized: 'green',
  needs_review: 'yellow',
  unidentified: 'red',
  duplicate: 'gray',
} as const;

type T = ReturnType<typeof useScansT>;

/** What is wrong with the chosen files before anything is sent, or null. */
function checkFiles(files: readonly File[], t: T): string | null {
  if (!files.length) return t('upload.none');
  if (files.length > MAX_FILES) return t('upload.tooMany');
  const wrong = files.find((f) => !EXTENSIONS.includes(extensionOf(f.name)));
  if (wrong) return t('upload.wrongType', { file: wrong.name });
  const large = files.find((f) => f.size > MAX_BYTES);
  if (large) return t('upload.tooLarge', { file: large.name });
  return null;
}

export function ScanUploadPage({ role }: { role: ScanRole }) {
  const t = useScansT();
  const { t: appT } = useTranslation();
  const [params, setParams] = useSearchParams();
  const batchId = Number(params.get('batch'));
  const following = Number.isInteger(batchId) && batchId > 0;
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();

  const add = (more: readonly File[]) => {
    // The same file chosen twice is sent once.
    const key = (f: File) => `${f.name}|${f.size}|${f.lastModified}`;
    const next = [...files];
    for (const f of more) if (!next.some((g) => key(g) === key(f))) next.push(f);
    setFiles(next);
    setError(next.length ? checkFiles(next, t) : null);
  };
  const remove = (file: File) => {
    const next = files.filter((f) => f !== file);
    setFiles(next);
    setError(next.length ? checkFiles(next, t) : null);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    add([...event.dataTransfer.files]);
  };

  const send = async () => {
    const problem = checkFiles(files, t);
    if (problem) return setError(problem);
    setError(null);
    setBusy(true);
    try {
      const { scanBatchId } = await uploadScans(files);
      setFiles([]);
      setParams({ batch: String(scanBatchId) });
      void queryClient.invalidateQueries({ queryKey: scanKeys.mine });
    } catch (e) {
      setError(describeScanError(e, t, appT));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md" maw={960}>
      <PageTitle>{t('upload.title')}</PageTitle>
      <Text size="sm">{t('upload.intro')}</Text>

      {following ? (
        <BatchView batchId={batchId} role={role} onAnother={() => setParams({})} />
      ) : (
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <Paper
              p="lg"
              radius="md"
              withBorder
              style={{
                borderStyle: 'dashed',
                borderWidth: 2,
                background: dragging ? 'var(--mantine-color-blue-light)' : undefined,
                textAlign: 'center',
              }}
              onDragOver={(e) => {
                e.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              data-testid="scan-drop"
            >
              <Text component="span">{t('upload.drop')} </Text>
              <Anchor component="button" type="button" onClick={() => input.current?.click()} disabled={busy}>
                {t('upload.pick')}
              </Anchor>
              <input
                ref={input}
                type="file"
                multiple
                accept={ACCEPT}
                hidden
                aria-label={t('upload.pick')}
                data-testid="scan-files"
                onChange={(e) => {
                  add([...(e.currentTarget.files ?? [])]);
                  e.currentTarget.value = '';
                }}
              />
            </Paper>
            {files.length > 0 && (
              <Table data-testid="scan-chosen" fz="sm">
                <Table.Caption>{t('upload.chosenCaption')}</Table.Caption>
                <Table.Tbody>
                  {files.map((f) => (
                    <Table.Tr key={`${f.name}|${f.size}|${f.lastModified}`}>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{f.name}</Table.Td>
                      <Table.Td w={40}>
                        <CloseButton
                          aria-label={t('upload.removeLabel', { file: f.name })}
                          onClick={() => remove(f)}
                          disabled={busy}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <Group>
              <LoadingButton onClick={send} loading={busy} disabled={!files.length} data-testid="scan-send">
                {t('upload.send')}
              </LoadingButton>
            </Group>
            {busy && (
              <Group gap="xs" role="status">
                <Loader size="sm" />
                <Text size="sm">{t('upload.sending')}</Text>
              </Group>
            )}
            {error && (
              <Alert color="red" role="alert" data-testid="scan-error">
                {error}
              </Alert>
            )}
          </Stack>
        </Paper>
      )}
      <MyBatches currentId={following ? batchId : null} />
    </Stack>
  );
}

/**
 * The caller's own batches, newest first, a page at a time: when each was uploaded, its files, how
 * it stands, its pages by result and what of it still waits for review; each opens its pages here.
 */
function MyBatches({ currentId }: { currentId: number | null }) {
  const t = useScansT();
  const { t: appT } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery({
    ...myBatchesQuery(page),
    placeholderData: keepPreviousData,
    // A batch still being read is asked about again, so its counts move on.
    refetchInterval: (q) =>
      q.state.data?.items.some((b) => b.status === 'queued' || b.status === 'running')
        ? SCAN_POLL_MS * 3
        : false,
  });
  const data = list.data;
  const pages = data ? Math.ceil(data.total / MY_BATCHES_PAGE_SIZE) : 0;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="my-batches-title">
      <Stack gap="sm">
        <Title order={2} id="my-batches-title">
          {t('mine.title')}
        </Title>
        {list.error ? (
          <Alert color="red" role="alert" data-testid="my-batches-error">
            {describeScanError(list.error, t, appT)}
          </Alert>
        ) : !data ? (
          <Loader size="sm" />
        ) : data.total === 0 ? (
          <Text size="sm" data-testid="my-batches-empty">
            {t('mine.empty')}
          </Text>
        ) : (
          <>
            <Table.ScrollContainer minWidth={640}>
              <Table withTableBorder striped data-testid="my-batches" fz="sm">
                <Table.Caption>{t('mine.caption')}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('mine.uploaded')}</Table.Th>
                    <Table.Th>{t('mine.files')}</Table.Th>
                    <Table.Th>{t('mine.status')}</Table.Th>
                    <Table.Th>{t('mine.pages')}</Table.Th>
                    <Table.Th>{t('mine.openReview')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('mine.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((b) => (
                    <Table.Tr key={b.id} aria-current={b.id === currentId ? 'true' : undefined}>
                      <Table.Td>{formatDisplayDateTime(new Date(b.createdAt))}</Table.Td>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>
                        {b.files.length ? b.files.join(', ') : t('batch.none')}
                      </Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLOR[b.status]} variant="light">
                          {t(`batch.status.${b.status}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{t('batch.summary', b.pages)}</Table.Td>
                      <Table.Td>{b.openReview}</Table.Td>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={`?batch=${b.id}`}
                          aria-label={t('mine.openLabel', {
                            when: formatDisplayDateTime(new Date(b.createdAt)),
                          })}
                        >
                          {t('mine.open')}
                        </Anchor>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {pages > 1 && (
              <Pagination
                value={page}
                total={pages}
                onChange={setPage}
                aria-label={t('mine.paging')}
                getItemProps={(p) => ({ 'aria-label': t('review.pageLabel', { page: p }) })}
                getControlProps={(control) => ({
                  'aria-label': t(
                    control === 'next' || control === 'last' ? 'review.nextPage' : 'review.previousPage',
                  ),
                })}
                data-testid="my-batches-paging"
              />
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}

function BatchView({ batchId, role, onAnother }: { batchId: number; role: ScanRole; onAnother: () => void }) {
  const t = useScansT();
  const { t: appT } = useTranslation();
  const batch = useQuery({
    ...scanBatchQuery(batchId),
    refetchInterval: (q) => {
      const status = q.state.data?.status;
      return q.state.error || status === 'done' || status === 'failed' ? false : SCAN_POLL_MS;
    },
  });
  const data = batch.data;
  const reading = data !== undefined && (data.status === 'queued' || data.status === 'running');

  return (
    <Paper withBorder p="md" radius="md" data-testid="scan-batch">
      <Stack gap="sm">
        <Title order={2}>{t('batch.title')}</Title>
        {batch.error ? (
          <Alert color="red" role="alert" data-testid="scan-batch-error">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{describeScanError(batch.error, t, appT)}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => void batch.refetch()}>
                {t('batch.retry')}
              </Button>
            </Stack>
          </Alert>
        ) : !data ? (
          <Loader size="sm" />
        ) : (
          <>
            <Group gap="sm" role="status" aria-live="polite">
              <Badge color={STATUS_COLOR[data.status]} variant="light" data-testid="scan-batch-status">
                {t(`batch.status.${data.status}`)}
              </Badge>
              {reading && <Loader size="xs" />}
              <Text size="sm" data-testid="scan-batch-read">
                {t('batch.pagesRead', { count: data.pages.length })}
              </Text>
            </Group>
            {reading && (
              <Text size="sm" c="dimmed">
                {t('batch.reading')}
              </Text>
            )}
            {data.pages.length > 0 && <Summary pages={data.pages} t={t} />}
            {data.pages.length > 0 && <PagesTable pages={data.pages} t={t} />}
          </>
        )}
        <Text size="sm">{t('batch.reviewHint')}</Text>
        <Group gap="sm">
          <Button component={Link} to={reviewPath(role)} data-testid="scan-to-review">
            {t('batch.toReview')}
          </Button>
          <Button variant="default" onClick={onAnother} data-testid="scan-another">
            {t('batch.another')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function Summary({ pages, t }: { pages: ScanBatch['pages']; t: T }) {
  const count = (status: ScanBatch['pages'][number]['status']) =>
    pages.filter((p) => p.status === status).length;
  return (
    <Text size="sm" data-testid="scan-batch-summary">
      {t('batch.summary', {
        recognized: count('recognized'),
        needs_review: count('needs_review'),
        unidentified: count('unidentified'),
        duplicate: count('duplicate'),
      })}
    </Text>
  );
}

function PagesTable({ pages, t }: { pages: ScanBatch['pages']; t: T }) {
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table withTableBorder striped data-testid="scan-pages" fz="sm">
        <Table.Caption>{t('batch.caption')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('batch.file')}</Table.Th>
            <Table.Th>{t('batch.page')}</Table.Th>
            <Table.Th>{t('batch.pageStatus')}</Table.Th>
            <Table.Th>{t('batch.code')}</Table.Th>
            <Table.Th>{t('batch.formPage')}</Table.Th>
            <Table.Th>{t('batch.tasks')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {pages.map((p) => (
            <Table.Tr key={`${p.file}|${p.page}`}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{p.file}</Table.Td>
              <Table.Td>{p.page}</Table.Td>
              <Table.Td>
                <Badge color={PAGE_COLOR[p.status]} variant="light">
                  {t(`batch.pageStatuses.${p.status}`)}
                </Badge>
              </Table.Td>
              <Table.Td>{p.registrationCode ?? t('batch.noCode')}</Table.Td>
              <Table.Td>{p.formPage ?? t('batch.none')}</Table.Td>
              <Table.Td>{p.answers.length}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
