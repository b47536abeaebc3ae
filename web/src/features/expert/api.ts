/** The expert's calls (server/src/modules/expert, profile/expert), read through the contract's schemas. */
import {
  expertProfileSchema,
  type ExpertMarksBody,
  type ExpertNextQuery,
  type ExpertProfileSaveBody,
  type ListResponse,
} from '@attesta/contract';
import { apiClient } from '../../lib/api-client';
import { call } from '../../lib/call';

const quiet = { suppressRedirect: true } as const;

export const expertKeys = {
  all: ['expert'] as const,
  queue: ['expert', 'queue'] as const,
  next: (filter: ExpertNextQuery) => ['expert', 'next', filter] as const,
  dates: ['expert', 'dates'] as const,
  profile: ['expert', 'profile'] as const,
  subjects: ['expert', 'subjects'] as const,
};

export const getQueue = (signal?: AbortSignal) => call('GET /api/expert/queue', {}, { ...quiet, signal });

export const getNext = (filter: ExpertNextQuery, signal?: AbortSignal) =>
  call('GET /api/expert/next', { query: { ...filter } }, { ...quiet, signal });

export const saveMarks = (id: number, body: ExpertMarksBody) =>
  call('POST /api/expert/assignment/{id}/marks', { params: { id }, body }, quiet);

export const getAnswerDates = (signal?: AbortSignal) =>
  call('GET /api/ParticipantTest/getExpertAnswersDates', {}, { ...quiet, signal });

export const ANSWERS_ZIP_PATH = '/api/ParticipantTest/getExpertAnswersFileForDownloader';

export const getProfile = (signal?: AbortSignal) =>
  apiClient.get('/api/Profile/expert/get', { ...quiet, signal, parse: (d) => expertProfileSchema.parse(d) });

export const saveProfile = (body: ExpertProfileSaveBody) =>
  apiClient.put('/api/Profile/expert/saveProfile', body, {
    ...quiet,
    parse: (d) => expertProfileSchema.parse(d),
  });

export const listSubjects = (signal?: AbortSignal): Promise<ListResponse<{ id: number; name: string }>> =>
  apiClient.post('/api/kim/subject/list', { page: 1, pageSize: 500 }, { ...quiet, signal });
