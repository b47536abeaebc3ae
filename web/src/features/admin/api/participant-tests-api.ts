/**
 * A diagnostic's participant tests as the admin handles them: the common ParticipantTest
 * calls (list, card, clear session, restore a deleted work, impersonal codes).
 */
import type {
  ImpersonalCreateBody,
  ParticipantTestInfoUpdateBody,
  ParticipantTestListFilter,
  ParticipantTestListItem,
  ParticipantTestSortField,
} from '@attesta/contract';
import type { FetchPage } from '../../../components/data-table/list-request';
import { call } from '../../../lib/call';

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
> = (request, signal) => call('POST /api/ParticipantTest/list', { body: request }, { ...inline, signal });

export const getParticipantTestInfo = (id: number) =>
  call('GET /api/ParticipantTest/info/{id}', { params: { id } }, inline);

export const updateParticipantTestInfo = (body: ParticipantTestInfoUpdateBody) =>
  call('PUT /api/ParticipantTest/info', { body }, inline);

/** A state-changing GET: the client sends the CSRF header with it. */
export const clearSession = (id: number) =>
  call('GET /api/ParticipantTest/clearSession/{id}', { params: { id } }, inline);

export const restoreExamWork = (examWorkId: number) =>
  call('POST /api/ParticipantTest/RestoreExamWork', { body: { examWorkId } }, inline);

export const createImpersonal = (body: ImpersonalCreateBody) =>
  call('POST /api/ParticipantTest/participantTestCreateImpersonal', { body }, inline);
