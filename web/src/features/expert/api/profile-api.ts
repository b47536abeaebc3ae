/** The expert's profile (server/src/modules/profile/expert) and the subjects it chooses from. */
import type { ExpertProfileSaveBody } from '@attesta/contract';
import { call } from '../../../lib/call';

const quiet = { suppressRedirect: true } as const;

export const getProfile = (signal?: AbortSignal) =>
  call('GET /api/Profile/expert/get', {}, { ...quiet, signal });

export const saveProfile = (body: ExpertProfileSaveBody) =>
  call('PUT /api/Profile/expert/saveProfile', { body }, quiet);

export const listSubjects = (signal?: AbortSignal) =>
  call('POST /api/kim/subject/list', { body: { page: 1, pageSize: 500 } }, { ...quiet, signal });
