/**
 * Scanned answer sheets (server/src/modules/scans, issue 25 items 2–3): the upload of scans, the
 * batch it makes, and the review of what reading them could not settle.
 */
import { scanQueuedSchema, type ScanReviewAction, type ScanReviewKind } from '@attesta/contract';
import { apiClient } from '../../../lib/api-client';
import { call, callPath } from '../../../lib/call';

/** Failures are shown on the page, never by a redirect (a gone session still is: the API client's rule). */
const quiet = { suppressRedirect: true } as const;

/** How often a batch still being read is asked about again. */
export const SCAN_POLL_MS = 1000;

/** Open items on a page of the review screen's list (the call's pageSize). */
export const REVIEW_PAGE_SIZE = 50;

/** The filter of the review screen: a class (or none), a kind (or any), and the page of the list. */
export interface ReviewFilter {
  classId?: number;
  kind?: ScanReviewKind;
  /** 1-based; the first when absent. */
  page?: number;
}

export const scanKeys = {
  all: ['scans'] as const,
  batch: (id: number) => ['scans', 'batch', id] as const,
  mine: ['scans', 'mine'] as const,
  minePage: (page: number) => ['scans', 'mine', page] as const,
  review: ['scans', 'review'] as const,
  reviewList: (filter: ReviewFilter) => ['scans', 'review', filter] as const,
};

/** Sends the files as one multipart form; the call answers 202 with the batch id, checked here. */
export function uploadScans(files: readonly File[]) {
  const form = new FormData();
  for (const file of files) form.append('file', file, file.name);
  // The row declares no JSON body and no 200 answer: the client sends a FormData body as multipart.
  return apiClient.request(callPath('POST /api/scans'), {
    method: 'POST',
    body: form,
    ...quiet,
    parse: (data) => scanQueuedSchema.parse(data),
  });
}

/** Batches on a page of «my batches». */
export const MY_BATCHES_PAGE_SIZE = 10;

/** A page of the caller's own batches, newest first. */
export const getMyBatches = (page: number, signal?: AbortSignal) =>
  call('GET /api/scans', { query: { page, pageSize: MY_BATCHES_PAGE_SIZE } }, { ...quiet, signal });

export const myBatchesQuery = (page: number) => ({
  queryKey: scanKeys.minePage(page),
  queryFn: ({ signal }: { signal?: AbortSignal }) => getMyBatches(page, signal),
});

export const getScanBatch = (id: number, signal?: AbortSignal) =>
  call('GET /api/scans/{id}', { params: { id } }, { ...quiet, signal });

export const scanBatchQuery = (id: number) => ({
  queryKey: scanKeys.batch(id),
  queryFn: ({ signal }: { signal?: AbortSignal }) => getScanBatch(id, signal),
});

/** A page of open items under a filter (oldest first), with the open counts per class. */
export const getReviewList = (filter: ReviewFilter, signal?: AbortSignal) =>
  call(
    'GET /api/scans/review',
    { query: { ...filter, status: 'open', pageSize: REVIEW_PAGE_SIZE } },
    { ...quiet, signal },
  );

export const reviewListQuery = (filter: ReviewFilter) => ({
  queryKey: scanKeys.reviewList(filter),
  queryFn: ({ signal }: { signal?: AbortSignal }) => getReviewList(filter, signal),
});

export const resolveReviewItem = (id: number, body: ScanReviewAction) =>
  call('POST /api/scans/review/{id}', { params: { id }, body }, quiet);

/**
 * The crop of an item as an image address: same origin, so the session cookie goes with it (staff
 * sign in by cookie in a browser; docs/security.md).
 */
export const reviewCropPath = (id: number) => callPath('GET /api/scans/review/{id}/crop', { id });

/** The uploaded file of an item whose page could not be decoded (a download, same origin). */
export const reviewFilePath = (id: number) => callPath('GET /api/scans/review/{id}/file', { id });
