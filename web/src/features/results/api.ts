/** Calls of the results pages: the participant's own result, publication and the results list. */
import {
  currentParticipantTestSchema,
  enableChangePublishSchema,
  examResultSchema,
  publishStateSchema,
  resultListResponseSchema,
  resultVariantSchema,
  type Diagnostic,
  type ListResponse,
} from '@attesta/contract';
import type { PageRequest } from '../../components/data-table/list-request';
import { apiClient } from '../../lib/api-client';

const quiet = { suppressRedirect: true } as const;

export const resultsKeys = {
  current: ['results', 'current'] as const,
  result: (id: number) => ['results', 'result', id] as const,
  variant: (id: number) => ['results', 'variant', id] as const,
  enable: (id: number) => ['results', 'enable', id] as const,
  diagnostics: ['results', 'diagnostics'] as const,
  list: (id: number) => ['results', 'list', id] as const,
};

export const currentParticipantTest = (signal?: AbortSignal) =>
  apiClient.get('/api/exam/test/currentParticipantTest', {
    ...quiet,
    signal,
    parse: (d) => currentParticipantTestSchema.parse(d),
  });

export const getResult = (participantTestId: number, signal?: AbortSignal) =>
  apiClient.get(`/api/examresults/${participantTestId}`, {
    ...quiet,
    signal,
    parse: (d) => examResultSchema.parse(d),
  });

export const getResultVariant = (examWorkId: number, signal?: AbortSignal) =>
  apiClient.get(`/api/examresults/variant/${examWorkId}`, {
    ...quiet,
    signal,
    parse: (d) => resultVariantSchema.parse(d),
  });

export const resultPdfPath = (participantTestId: number) => `/api/examresults/doc/${participantTestId}`;

export const enableChangePublish = (diagnosticId: number, signal?: AbortSignal) =>
  apiClient.get(`/api/examresults/enableChangePublish/${diagnosticId}`, {
    ...quiet,
    signal,
    parse: (d) => enableChangePublishSchema.parse(d),
  });

/** A state-changing GET: the client sends the anti-CSRF header on every call. */
export const changePublish = (diagnosticId: number, publish: boolean) =>
  apiClient.get(`/api/examresults/changePublish/${diagnosticId}/${publish}`, {
    ...quiet,
    parse: (d) => publishStateSchema.parse(d),
  });

export const coordinatorDiagnostics = (signal?: AbortSignal): Promise<ListResponse<Diagnostic>> =>
  apiClient.post('/api/coordinator/diagnostic/list', { page: 1, pageSize: 500 }, { ...quiet, signal });

export const listResults = (request: PageRequest, signal?: AbortSignal) =>
  apiClient.post('/api/examresults/participantTest/list', request, {
    ...quiet,
    signal,
    parse: (d) => resultListResponseSchema.parse(d),
  });
