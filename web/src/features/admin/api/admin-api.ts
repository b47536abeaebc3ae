/** The admin work place's calls. Lists handle their failures inline. */
import {
  type AdminExpertProfileBody,
  type PausePolicy,
  type CreateDiagnosticBody,
  type QueueListRequest,
  type SubjectListRequest,
  type SubjectTestListRequest,
  type UserListRequest,
  type UserSaveBody,
  type VariantListRequest,
} from '@attesta/contract';
import { downloadFile } from '../../../components/data-table/download';
import { call, callPath } from '../../../lib/call';

const inline = { suppressRedirect: true } as const;

export const adminKeys = {
  all: ['admin'] as const,
  users: ['admin', 'users'] as const,
  roles: ['admin', 'roles'] as const,
  content: ['admin', 'content'] as const,
  queue: ['admin', 'queue'] as const,
  subjectTestOptions: ['admin', 'subject-test-options'] as const,
  expert: (id: number) => ['admin', 'experts', id] as const,
};

export const listUsers = (body: UserListRequest) => call('POST /api/user/list', { body }, inline);

export const listRoles = () => call('GET /api/user/roles', {}, inline);

/** `POST /api/User`: create (no id) or update; `pwd` in the query sets the password. */
export const saveUser = (body: UserSaveBody, pwd?: string) =>
  call('POST /api/User', { body, query: pwd ? { pwd } : undefined }, inline);

/** The subject test's rules for participants' own pauses (admin call beyond the specification). */
export const getPausePolicy = (subjectTestId: number) =>
  call('GET /api/admin/subjectTests/{id}/pausePolicy', { params: { id: subjectTestId } }, inline);

export const savePausePolicy = (subjectTestId: number, policy: PausePolicy) =>
  call(
    'PUT /api/admin/subjectTests/{id}/pausePolicy',
    { params: { id: subjectTestId }, body: policy },
    inline,
  );

export const setUserPassword = (id: number, password: string) =>
  call('POST /api/user/{id}/changepassword', { params: { id }, body: { password } }, inline);

/** An expert's profile as the admin assigns it: subjects (in grades), subject tests, daily limit. */
export const getExpertProfile = (id: number) =>
  call('GET /api/admin/experts/{id}', { params: { id } }, inline);

export const saveExpertProfile = (id: number, body: AdminExpertProfileBody) =>
  call('PUT /api/admin/experts/{id}', { params: { id }, body }, inline);

export const listSubjects = (body: SubjectListRequest) =>
  call('POST /api/kim/subject/list', { body }, inline);

export const listSubjectTests = (body: SubjectTestListRequest) =>
  call('POST /api/kim/subjectTest/list', { body }, inline);

export const listVariants = (body: VariantListRequest) => call('POST /api/kim/test/list', { body }, inline);

export const getStaffTask = (variantId: number, position: number) =>
  call(
    'GET /api/task/{variantId}/{taskNumber}',
    { params: { variantId, taskNumber: position }, query: { withClassifiers: true } },
    inline,
  );

export const listQueue = (body: QueueListRequest) =>
  call('POST /api/ParticipantTest/queuelist', { body }, inline);

export const listSubjectTestOptions = () => call('GET /api/createDiagnostic/subjectTests', {}, inline);

export const createDiagnostic = (body: CreateDiagnosticBody) =>
  call('POST /api/createDiagnostic/create', { body }, inline);

/** A diagnostic's participants and their codes as a spreadsheet, saved by the browser. */
export const downloadParticipantsExcel = (diagnosticId: number, fallbackName: string) =>
  downloadFile(callPath('GET /api/createDiagnostic/excel'), { diagnosticId }, fallbackName);
