/** Calls of the results pages: the participant's own result, publication and the results list. */
import type { RESULT_SORT_FIELDS } from '@attesta/contract';
import type { PageRequest } from '../../../components/data-table/list-request';
import { call, callPath } from '../../../lib/call';

const quiet = { suppressRedirect: true } as const;

export const resultsKeys = {
  current: ['results', 'current'] as const,
  result: (id: number) => ['results', 'result', id] as const,
  variant: (id: number) => ['results', 'variant', id] as const,
  attempt: (id: number) => ['results', 'open-attempt', id] as const,
  enable: (id: number) => ['results', 'enable', id] as const,
  list: (id: number) => ['results', 'list', id] as const,
};

export const currentParticipantTest = (signal?: AbortSignal) =>
  call('GET /api/exam/test/currentParticipantTest', {}, { ...quiet, signal });

export const getResult = (participantTestId: number, signal?: AbortSignal) =>
  call('GET /api/examresults/{id}', { params: { id: participantTestId } }, { ...quiet, signal });

export const getResultVariant = (examWorkId: number, signal?: AbortSignal) =>
  call('GET /api/examresults/variant/{id}', { params: { id: examWorkId } }, { ...quiet, signal });

/** A guest's own finished attempt at an open test: its result with the answers and the keys. */
export const getOpenAttempt = (attemptId: number, signal?: AbortSignal) =>
  call('GET /api/openTestAttempts/{id}', { params: { id: attemptId } }, { ...quiet, signal });

export const resultPdfPath = (participantTestId: number) =>
  callPath('GET /api/examresults/doc/{id}', { id: participantTestId });

export const enableChangePublish = (diagnosticId: number, signal?: AbortSignal) =>
  call(
    'GET /api/examresults/enableChangePublish/{diagnosticId}',
    { params: { diagnosticId } },
    { ...quiet, signal },
  );

/**
 * A state-changing GET: the client sends the anti-CSRF header on every call. `override`: an admin
 * publishes before the window ends (audited on the server).
 */
export const changePublish = (diagnosticId: number, publish: boolean, override = false) =>
  call(
    'GET /api/examresults/changePublish/{diagnosticId}/{publish}',
    {
      params: { diagnosticId, publish: publish ? 'true' : 'false' },
      ...(override ? { query: { override: 'true' as const } } : {}),
    },
    quiet,
  );

export type ResultSortField = (typeof RESULT_SORT_FIELDS)[number];

export const listResults = (
  request: PageRequest<ResultSortField, { diagnosticId: number }>,
  signal?: AbortSignal,
) => call('POST /api/examresults/participantTest/list', { body: request }, { ...quiet, signal });
