/**
 * `/…/scans/review` (organizator, coordinator, admin): one screen for doubt (issue 25 item 3). The
 * open items within the caller's reach, narrowed by class (with each class's open count) and kind;
 * one item at a time with its crop and what was read, settled from the keyboard; after each action
 * the next item takes focus and the list is asked again.
 */
import {
  SCAN_REVIEW_KINDS,
  type ScanReviewItem,
  type ScanReviewKind,
  type ScanReviewList,
} from '@attesta/contract';
import {
  Alert,
  Button,
  Group,
  Loader,
  NativeSelect,
  Pagination,
  Paper,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { REVIEW_PAGE_SIZE, reviewListQuery, scanKeys, type ReviewFilter } from '../api/scans-api';
import { describeScanError } from '../lib/scan-errors';
import { useScansT } from '../locales';
import { scansPath, type ScanRole } from '../scan-role';
import { ReviewItemCard } from './review-item-card';

type T = ReturnType<typeof useScansT>;
/** The class chosen: every class, the pages tied to none (unidentified ones), or one class. */
type ClassChoice = 'all' | 'none' | number;

function filterOf(choice: ClassChoice, kind: ScanReviewKind | 'all', page: number): ReviewFilter {
  const paging = page > 1 ? { page } : {};
  // Pages tied to no class are the unidentified ones (the contract's counts say so): the list is
  // asked for them by kind, as it takes no «no class» filter.
  if (choice === 'none') return { kind: 'unidentified', ...paging };
  return {
    ...(choice === 'all' ? {} : { classId: choice }),
    ...(kind === 'all' ? {} : { kind }),
    ...paging,
  };
}

/** A short line naming an item in the queue. */
export function itemWhat(item: ScanReviewItem, t: T): string {
  const task = item.taskNumber !== null ? t('review.task', { number: item.taskNumber }) : t('review.noTask');
  return item.participantName ? `${task}, ${item.participantName}` : task;
}

export function ScanReviewPage({ role }: { role: ScanRole }) {
  const t = useScansT();
  const { t: appT } = useTranslation();
  const queryClient = useQueryClient();
  const [classChoice, setClassChoice] = useState<ClassChoice>('all');
  const [kind, setKind] = useState<ScanReviewKind | 'all'>('all');
  /** The page of the list (REVIEW_PAGE_SIZE items a page, oldest first). */
  const [page, setPage] = useState(1);
  const filter = filterOf(classChoice, kind, page);
  const list = useQuery({ ...reviewListQuery(filter), placeholderData: keepPreviousData });
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / REVIEW_PAGE_SIZE)) : 1;
  // Items settled elsewhere (or here) can leave fewer pages than the one shown: go to the last
  // (set while rendering, as React allows for state derived from what was fetched).
  if (list.data && !list.isPlaceholderData && page > pages) setPage(pages);
  /** The item shown; the first open one when it is gone or none was chosen. */
  const [currentId, setCurrentId] = useState<number | null>(null);
  /** Items settled here, hidden before the list comes back without them. */
  const [settled, setSettled] = useState<ReadonlySet<number>>(new Set());
  /** Whether the shown item came by an action or a skip (then it takes focus). */
  const [moved, setMoved] = useState(false);
  const [notice, setNotice] = useState<{ text: string; warn?: boolean } | null>(null);

  const items = useMemo(
    () => (list.data?.items ?? []).filter((i) => i.status === 'open' && !settled.has(i.id)),
    [list.data, settled],
  );
  const index = Math.max(
    0,
    items.findIndex((i) => i.id === currentId),
  );
  const current = items[index];

  const nextOf = (id: number) => {
    const at = items.findIndex((i) => i.id === id);
    const rest = items.filter((i) => i.id !== id);
    return rest.length ? rest[at % rest.length] : undefined;
  };
  const skip = () => {
    if (!current || items.length < 2) return;
    setCurrentId(items[(index + 1) % items.length]!.id);
    setMoved(true);
    setNotice(null);
  };
  const resolved = (item: ScanReviewItem, message: string) => {
    setCurrentId(nextOf(item.id)?.id ?? null);
    setSettled((s) => new Set(s).add(item.id));
    setMoved(true);
    setNotice({ text: message });
    void queryClient.invalidateQueries({ queryKey: scanKeys.review });
  };
  const stale = (item: ScanReviewItem, message: string) => {
    setCurrentId(nextOf(item.id)?.id ?? null);
    setSettled((s) => new Set(s).add(item.id));
    setMoved(true);
    setNotice({ text: message, warn: true });
    void queryClient.invalidateQueries({ queryKey: scanKeys.review });
  };

  return (
    <Stack gap="md" maw={1100}>
      <PageTitle>{t('review.title')}</PageTitle>
      <Text size="sm">{t('review.intro')}</Text>
      <Filters
        counts={list.data?.counts}
        classChoice={classChoice}
        kind={kind}
        onClass={(c) => {
          setClassChoice(c);
          setPage(1);
          setCurrentId(null);
          setNotice(null);
        }}
        onKind={(k) => {
          setKind(k);
          setPage(1);
          setCurrentId(null);
          setNotice(null);
        }}
        t={t}
      />
      {notice && (
        <Text size="sm" c={notice.warn ? 'orange.9' : 'green.8'} role="status" data-testid="review-notice">
          {notice.text}
        </Text>
      )}
      {list.error ? (
        <Alert color="red" role="alert" data-testid="review-list-error">
          {describeScanError(list.error, t, appT)}
        </Alert>
      ) : !list.data ? (
        <Loader size="sm" />
      ) : !current ? (
        <Paper withBorder p="lg" radius="md" data-testid="review-empty">
          <Stack gap="sm" align="flex-start">
            <Text>
              {classChoice === 'all' && kind === 'all' ? t('review.empty') : t('review.emptyFiltered')}
            </Text>
            <Button component={Link} to={scansPath(role)} variant="light">
              {t('review.toUpload')}
            </Button>
          </Stack>
        </Paper>
      ) : (
        <>
          <Text size="sm" data-testid="review-open">
            {t('review.open', {
              count: list.data.total - list.data.items.filter((i) => settled.has(i.id)).length,
            })}
          </Text>
          <ReviewItemCard
            key={current.id}
            item={current}
            autoFocus={moved}
            canSkip={items.length > 1}
            onSkip={skip}
            onResolved={resolved}
            onStale={stale}
          />
          <Queue items={items} currentId={current.id} onPick={(id) => setCurrentId(id)} t={t} />
          {pages > 1 && (
            <Group gap="sm" align="center" data-testid="review-paging">
              <Text size="sm">
                {t('review.pageOf', {
                  from: (page - 1) * REVIEW_PAGE_SIZE + 1,
                  to: Math.min(page * REVIEW_PAGE_SIZE, list.data.total),
                  total: list.data.total,
                })}
              </Text>
              <Pagination
                value={page}
                total={pages}
                onChange={(p) => {
                  setPage(p);
                  setCurrentId(null);
                  setMoved(false);
                  setNotice(null);
                }}
                getControlProps={(control) => ({
                  'aria-label': t(
                    control === 'next' || control === 'last' ? 'review.nextPage' : 'review.previousPage',
                  ),
                })}
                getItemProps={(p) => ({ 'aria-label': t('review.pageLabel', { page: p }) })}
                aria-label={t('review.paging')}
              />
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}

function Filters({
  counts,
  classChoice,
  kind,
  onClass,
  onKind,
  t,
}: {
  counts: ScanReviewList['counts'] | undefined;
  classChoice: ClassChoice;
  kind: ScanReviewKind | 'all';
  onClass: (c: ClassChoice) => void;
  onKind: (k: ScanReviewKind | 'all') => void;
  t: T;
}) {
  const total = (counts ?? []).reduce((sum, c) => sum + c.open, 0);
  const classOptions = [
    { value: 'all', label: t('review.allClasses', { count: total }) },
    ...(counts ?? []).map((c) =>
      c.classId === null
        ? { value: 'none', label: t('review.noClass', { count: c.open }) }
        : {
            value: String(c.classId),
            label: t('review.classOption', {
              className: c.className ?? '',
              schoolName: c.schoolName ?? '',
              count: c.open,
            }),
          },
    ),
  ];
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <NativeSelect
        label={t('review.classLabel')}
        data={classOptions}
        value={String(classChoice)}
        onChange={(e) => {
          const v = e.currentTarget.value;
          onClass(v === 'all' || v === 'none' ? v : Number(v));
        }}
        style={{ flex: '1 1 240px', maxWidth: 420 }}
        data-testid="review-class"
      />
      <NativeSelect
        label={t('review.kindLabel')}
        data={[
          { value: 'all', label: t('review.allKinds') },
          ...SCAN_REVIEW_KINDS.map((k) => ({ value: k, label: t(`review.kinds.${k}`) })),
        ]}
        value={classChoice === 'none' ? 'unidentified' : kind}
        disabled={classChoice === 'none'}
        onChange={(e) => {
          const v = e.currentTarget.value;
          onKind((SCAN_REVIEW_KINDS as readonly string[]).includes(v) ? (v as ScanReviewKind) : 'all');
        }}
        style={{ flex: '1 1 200px', maxWidth: 300 }}
        data-testid="review-kind"
      />
    </Group>
  );
}

function Queue({
  items,
  currentId,
  onPick,
  t,
}: {
  items: readonly ScanReviewItem[];
  currentId: number;
  onPick: (id: number) => void;
  t: T;
}) {
  if (items.length < 2) return null;
  return (
    <Stack gap={4} component="section" aria-labelledby="review-queue-title">
      <Title order={2} fz="md" id="review-queue-title">
        {t('review.queue')}
      </Title>
      <Stack
        gap={2}
        component="ol"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        data-testid="review-queue"
      >
        {items.map((item) => (
          <li key={item.id}>
            <UnstyledButton
              onClick={() => onPick(item.id)}
              aria-current={item.id === currentId ? 'true' : undefined}
              fz="sm"
              fw={item.id === currentId ? 700 : undefined}
              py={2}
            >
              {t('review.queueItem', { kind: t(`review.kinds.${item.kind}`), what: itemWhat(item, t) })}
              {item.id === currentId && ` — ${t('review.current')}`}
            </UnstyledButton>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}
