/** The supervision authority's calls (/api/ugnik/*). Lists handle their failures inline. */
import {
  ugnikClassSchema,
  ugnikMainSubjectTestSchema,
  ugnikParticipantSaveResultSchema,
  ugnikSchoolSchema,
  type ParticipantTestListRequest,
  type UgnikDiagnosticCreateBody,
  type UgnikDiagnosticListRequest,
  type UgnikParticipantSaveBody,
} from '@attesta/contract';
import { apiClient } from '../../../lib/api-client';
import { call } from '../../../lib/call';
import { inlineCall } from '../../../lib/inline-call';

const inline = { suppressRedirect: true } as const;
const page = <T>(item: { parse: (d: unknown) => T }) => ({
  parse: (d: unknown) => {
    const data = d as { items: unknown[]; total: number };
    return { items: (data.items ?? []).map((i) => item.parse(i)), total: Number(data.total) };
  },
});

export const ugnikKeys = {
  diagnostics: ['ugnik', 'diagnostics'] as const,
  diagnostic: (id: number) => ['ugnik', 'diagnostics', id] as const,
  participants: ['ugnik', 'participants'] as const,
  reference: ['ugnik', 'reference'] as const,
  surnames: (id: number) => ['ugnik', 'surnames', id] as const,
};

export const listDiagnostics = (body: UgnikDiagnosticListRequest) =>
  inlineCall(() => call('POST /api/ugnik/diagnostic/list', { body }, inline));

export const getDiagnostic = (id: number) =>
  inlineCall(() => call('GET /api/ugnik/diagnostic/{id}', { params: { id } }, inline));

export const createDiagnostic = (body: UgnikDiagnosticCreateBody) =>
  call('POST /api/ugnik/diagnostic/create', { body }, inline);

export const deleteDiagnostic = (id: number) =>
  call('DELETE /api/ugnik/diagnostic/{id}', { params: { id } }, inline);

export const listMainSubjectTests = () =>
  inlineCall(() =>
    apiClient.post(
      '/api/ugnik/mainSubjectTest/list',
      { page: 1, pageSize: 500 },
      { ...inline, ...page(ugnikMainSubjectTestSchema) },
    ),
  );

export const listSchools = (search: string) =>
  inlineCall(() =>
    apiClient.post(
      '/api/ugnik/school/list',
      { page: 1, pageSize: 50, ...(search.trim() ? { filter: { search: search.trim() } } : {}) },
      { ...inline, ...page(ugnikSchoolSchema) },
    ),
  );

export const listClasses = (schoolId: number) =>
  inlineCall(() =>
    apiClient.post(
      '/api/ugnik/class/list',
      { page: 1, pageSize: 500, filter: { schoolId } },
      { ...inline, ...page(ugnikClassSchema) },
    ),
  );

export const listParticipants = (body: ParticipantTestListRequest) =>
  inlineCall(() => call('POST /api/ugnik/participantTest/list', { body }, inline));

export const saveParticipants = (body: UgnikParticipantSaveBody) =>
  apiClient.post('/api/ugnik/participantTest/save', body, {
    ...inline,
    parse: (d) => ugnikParticipantSaveResultSchema.parse(d),
  });

export const deleteParticipant = (id: number) =>
  call('DELETE /api/ugnik/participantTest/{id}', { params: { id } }, inline);

export const getSurnames = (diagnosticId: number) =>
  inlineCall(() => call('GET /api/ugnik/reports/surnames', { query: { diagnosticId } }, inline));
