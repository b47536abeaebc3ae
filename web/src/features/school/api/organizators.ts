/** Coordinator-only calls: organizators, diagnostics, impersonal codes, XML import, queue, worker tests. */
import {
  participantTestImportResultSchema,
  type CreateDiagnosticBody,
  type CreatedCode,
  type Diagnostic,
  type ImpersonalCreateBody,
  type ListResponse,
  type ParticipantTestImportResult,
  type QueueItem,
  type StaffOrganizator,
  type StaffOrganizatorBlockBody,
  type StaffOrganizatorSaveBody,
  type StaffOrganizatorSaveResult,
  type SubjectTestOption,
  type WorkerPosition,
  type WorkerTest,
  type WorkerTestSaveBody,
} from '@attesta/contract';
import { apiClient } from '../../lib/api-client';
import { call } from '../../lib/call';
import { rawRequest } from '../../components/data-table/download';
import type { PageRequest } from '../../components/data-table/list-request';

const quiet = { suppressRedirect: true } as const;

export const coordinatorKeys = {
  organizators: ['coordinator', 'organizators'] as const,
  queue: ['coordinator', 'queue'] as const,
  workerTests: ['coordinator', 'workerTests'] as const,
  subjectTests: ['coordinator', 'subjectTests'] as const,
  positions: ['coordinator', 'positions'] as const,
};

export const listOrganizators = (
  req: PageRequest,
  signal?: AbortSignal,
): Promise<ListResponse<StaffOrganizator>> =>
  apiClient.post('/api/coordinator/organizator/list', req, { ...quiet, signal });

export const saveOrganizator = (body: StaffOrganizatorSaveBody): Promise<StaffOrganizatorSaveResult> =>
  call('POST /api/coordinator/organizator', { body }, quiet);

export const blockOrganizator = (id: number, body: StaffOrganizatorBlockBody): Promise<StaffOrganizator> =>
  apiClient.post(`/api/coordinator/organizator/${id}`, body, quiet);

export const WORKER_TEST_REPORT_PATH = '/api/coordinator/organizator/report/workerTest';

export const subjectTests = (signal?: AbortSignal): Promise<SubjectTestOption[]> =>
  call('GET /api/createDiagnostic/subjectTests', {}, { ...quiet, signal });

export const createDiagnostic = (body: CreateDiagnosticBody): Promise<Diagnostic> =>
  call('POST /api/createDiagnostic/create', { body }, quiet);

export const DIAGNOSTIC_EXCEL_PATH = '/api/createDiagnostic/excel';

export const createImpersonal = (body: ImpersonalCreateBody): Promise<{ items: CreatedCode[] }> =>
  call('POST /api/ParticipantTest/participantTestCreateImpersonal', { body }, quiet);

/** The XML file itself is the body (docs/participant-test-import.md). */
export async function importXml(xml: string): Promise<ParticipantTestImportResult> {
  const response = await rawRequest('/api/ParticipantTest/participantTestImportFromXml', {
    method: 'POST',
    body: xml,
    contentType: 'application/xml',
  });
  return participantTestImportResultSchema.parse(await response.json());
}

export const createPlanningQueue = (date: string, code: string): Promise<QueueItem> =>
  call('POST /api/ParticipantTest/createplanningqueue', { query: { date, code } }, quiet);

export const listQueue = (req: PageRequest, signal?: AbortSignal): Promise<ListResponse<QueueItem>> =>
  apiClient.post('/api/ParticipantTest/queuelist', req, { ...quiet, signal });

export const listWorkerTests = (req: PageRequest, signal?: AbortSignal): Promise<ListResponse<WorkerTest>> =>
  apiClient.post('/api/workerTest/list', req, { ...quiet, signal });

export const saveWorkerTest = (body: WorkerTestSaveBody): Promise<WorkerTest> =>
  apiClient.put('/api/workerTest/save', body, quiet);

export const deleteWorkerTest = (id: number) =>
  call('DELETE /api/workerTest/{id}', { params: { id } }, quiet);

export const generateActivationCode = (
  workerTestId: number,
  workerId: number,
): Promise<{ activationCode: string; participantTestId: number; created: boolean }> =>
  call('GET /api/workerTest/generateActivationCode', { query: { workerTestId, workerId } }, quiet);

export const listPositions = (signal?: AbortSignal): Promise<ListResponse<WorkerPosition>> =>
  call('POST /api/workerPosition/list', { body: { page: 1, pageSize: 500 } }, { ...quiet, signal });
