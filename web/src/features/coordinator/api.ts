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
  apiClient.post('/api/coordinator/organizator', body, quiet);

export const blockOrganizator = (id: number, body: StaffOrganizatorBlockBody): Promise<StaffOrganizator> =>
  apiClient.post(`/api/coordinator/organizator/${id}`, body, quiet);

export const WORKER_TEST_REPORT_PATH = '/api/coordinator/organizator/report/workerTest';

export const subjectTests = (signal?: AbortSignal): Promise<SubjectTestOption[]> =>
  apiClient.get('/api/createDiagnostic/subjectTests', { ...quiet, signal });

export const createDiagnostic = (body: CreateDiagnosticBody): Promise<Diagnostic> =>
  apiClient.post('/api/createDiagnostic/create', body, quiet);

export const DIAGNOSTIC_EXCEL_PATH = '/api/createDiagnostic/excel';

export const createImpersonal = (body: ImpersonalCreateBody): Promise<{ items: CreatedCode[] }> =>
  apiClient.post('/api/ParticipantTest/participantTestCreateImpersonal', body, quiet);

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
  apiClient.post('/api/ParticipantTest/createplanningqueue', undefined, { ...quiet, query: { date, code } });

export const listQueue = (req: PageRequest, signal?: AbortSignal): Promise<ListResponse<QueueItem>> =>
  apiClient.post('/api/ParticipantTest/queuelist', req, { ...quiet, signal });

export const listWorkerTests = (req: PageRequest, signal?: AbortSignal): Promise<ListResponse<WorkerTest>> =>
  apiClient.post('/api/workerTest/list', req, { ...quiet, signal });

export const saveWorkerTest = (body: WorkerTestSaveBody): Promise<WorkerTest> =>
  apiClient.put('/api/workerTest/save', body, quiet);

export const deleteWorkerTest = (id: number) => apiClient.delete(`/api/workerTest/${id}`, quiet);

export const generateActivationCode = (
  workerTestId: number,
  workerId: number,
): Promise<{ activationCode: string; participantTestId: number; created: boolean }> =>
  apiClient.get('/api/workerTest/generateActivationCode', { ...quiet, query: { workerTestId, workerId } });

export const listPositions = (signal?: AbortSignal): Promise<ListResponse<WorkerPosition>> =>
  apiClient.post('/api/workerPosition/list', { page: 1, pageSize: 500 }, { ...quiet, signal });
