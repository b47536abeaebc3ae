/**
 * A diagnostic's participant tests as the admin handles them: the common `/api/ParticipantTest/*`
 * calls (list, card, clear session, restore a deleted work, impersonal codes).
 */
import {
  clearSessionResultSchema,
  impersonalCreateResultSchema,
  participantTestInfoSchema,
  participantTestListResponseSchema,
  restoreExamWorkResultSchema,
  type ImpersonalCreateBody,
  type ParticipantTestInfoUpdateBody,
  type ParticipantTestListFilter,
  type ParticipantTestListItem,
  type ParticipantTestSortField,
} from '@attesta/contract';
import type { FetchPage } from '../../../components/data-table/list-request';
import { apiClient } from '../../../lib/api-client';
import { inlineCall } from '../../../lib/inline-call';

const inline = { suppressRedirect: true } as const;

export const participantTestKeys = {
  all: ['admin', 'participant-tests'] as const,
  list: (diagnosticId: number) => ['admin', 'participant-tests', 'list', diagnosticId] as const,
  info: (id: number) => ['admin', 'participant-tests', 'info', id] as const,
};

export const listParticipantTests: FetchPage<
  ParticipantTestListItem,
  ParticipantTestSortField,
  ParticipantTestListFilter
> = (request, signal) =>
  apiClient.post('/api/ParticipantTest/list', request, {
    ...inline,
    signal,
    parse: (d) => participantTestListResponseSchema.parse(d),
  });

export const getParticipantTestInfo = (id: number) =>
  inlineCall(() =>
    apiClient.get(`/api/ParticipantTest/info/${id}`, {
      ...inline,
      parse: (d) => participantTestInfoSchema.parse(d),
    }),
  );

export const updateParticipantTestInfo = (body: ParticipantTestInfoUpdateBody) =>
  apiClient.put('/api/ParticipantTest/info', body, {
    ...inline,
    parse: (d) => participantTestInfoSchema.parse(d),
  });

/** A state-changing GET: the client sends the CSRF header with it. */
export const clearSession = (id: number) =>
  apiClient.get(`/api/ParticipantTest/clearSession/${id}`, {
    ...inline,
    parse: (d) => clearSessionResultSchema.parse(d),
  });

export const restoreExamWork = (examWorkId: number) =>
  apiClient.post(
    '/api/ParticipantTest/RestoreExamWork',
    { examWorkId },
    { ...inline, parse: (d) => restoreExamWorkResultSchema.parse(d) },
  );

export const createImpersonal = (body: ImpersonalCreateBody) =>
  apiClient.post('/api/ParticipantTest/participantTestCreateImpersonal', body, {
    ...inline,
    parse: (d) => impersonalCreateResultSchema.parse(d),
  });
