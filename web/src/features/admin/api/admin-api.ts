/** The admin work place's calls. Lists handle their failures inline (see inlineCall). */
import {
  diagnosticSchema,
  pausePolicySchema,
  type PausePolicy,
  queueListResponseSchema,
  roleInfoSchema,
  staffTaskSchema,
  subjectListResponseSchema,
  subjectTestListResponseSchema,
  subjectTestOptionSchema,
  userDetailsSchema,
  userListResponseSchema,
  variantListResponseSchema,
  type CreateDiagnosticBody,
  type QueueListRequest,
  type SubjectListRequest,
  type SubjectTestListRequest,
  type UserListRequest,
  type UserSaveBody,
  type VariantListRequest,
} from '@attesta/contract';
import { apiClient } from '../../../lib/api-client';
import { inlineCall } from '../../../lib/inline-call';

const inline = { suppressRedirect: true } as const;

export const adminKeys = {
  all: ['admin'] as const,
  users: ['admin', 'users'] as const,
  roles: ['admin', 'roles'] as const,
  content: ['admin', 'content'] as const,
  queue: ['admin', 'queue'] as const,
  subjectTestOptions: ['admin', 'subject-test-options'] as const,
};

export const listUsers = (body: UserListRequest) =>
  inlineCall(() =>
    apiClient.post('/api/user/list', body, { ...inline, parse: (d) => userListResponseSchema.parse(d) }),
  );

export const listRoles = () =>
  inlineCall(() =>
    apiClient.get('/api/user/roles', { ...inline, parse: (d) => roleInfoSchema.array().parse(d) }),
  );

/** `POST /api/User`: create (no id) or update; `pwd` in the query sets the password. */
export const saveUser = (body: UserSaveBody, pwd?: string) =>
  apiClient.post('/api/User', body, {
    ...inline,
    query: pwd ? { pwd } : undefined,
    parse: (d) => userDetailsSchema.parse(d),
  });

/** The subject test's rules for participants' own pauses (admin call beyond the specification). */
export const getPausePolicy = (subjectTestId: number) =>
  apiClient.get(`/api/admin/subjectTests/${subjectTestId}/pausePolicy`, {
    ...inline,
    parse: (d) => pausePolicySchema.parse(d),
  });

export const savePausePolicy = (subjectTestId: number, policy: PausePolicy) =>
  apiClient.put(`/api/admin/subjectTests/${subjectTestId}/pausePolicy`, policy, {
    ...inline,
    parse: (d) => pausePolicySchema.parse(d),
  });

export const setUserPassword = (id: number, password: string) =>
  apiClient.post(`/api/user/${id}/changepassword`, { password }, inline);

export const listSubjects = (body: SubjectListRequest) =>
  inlineCall(() =>
    apiClient.post('/api/kim/subject/list', body, {
      ...inline,
      parse: (d) => subjectListResponseSchema.parse(d),
    }),
  );

export const listSubjectTests = (body: SubjectTestListRequest) =>
  inlineCall(() =>
    apiClient.post('/api/kim/subjectTest/list', body, {
      ...inline,
      parse: (d) => subjectTestListResponseSchema.parse(d),
    }),
  );

export const listVariants = (body: VariantListRequest) =>
  inlineCall(() =>
    apiClient.post('/api/kim/test/list', body, {
      ...inline,
      parse: (d) => variantListResponseSchema.parse(d),
    }),
  );

export const getStaffTask = (variantId: number, position: number) =>
  inlineCall(() =>
    apiClient.get(`/api/task/${variantId}/${position}`, {
      ...inline,
      query: { withClassifiers: true },
      parse: (d) => staffTaskSchema.parse(d),
    }),
  );

export const listQueue = (body: QueueListRequest) =>
  inlineCall(() =>
    apiClient.post('/api/ParticipantTest/queuelist', body, {
      ...inline,
      parse: (d) => queueListResponseSchema.parse(d),
    }),
  );

export const listSubjectTestOptions = () =>
  inlineCall(() =>
    apiClient.get('/api/createDiagnostic/subjectTests', {
      ...inline,
      parse: (d) => subjectTestOptionSchema.array().parse(d),
    }),
  );

export const createDiagnostic = (body: CreateDiagnosticBody) =>
  apiClient.post('/api/createDiagnostic/create', body, {
    ...inline,
    parse: (d) => diagnosticSchema.parse(d),
  });
