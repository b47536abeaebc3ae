import type { WorkerTest, WorkerTestListRequest, WorkerTestSaveBody } from '@attesta/contract';
import { apiClient } from '../../../lib/api-client';
import { call, callPath } from '../../../lib/call';
import { quiet, type ListCall } from './shared';

export const listWorkerTests: ListCall<WorkerTest, WorkerTestListRequest> = (request, signal) =>
  call('POST /api/workerTest/list', { body: request }, { ...quiet, signal });

/** The call has no schemas in the contract yet (its route declares them): the path comes from its row. */
export const saveWorkerTest = (body: WorkerTestSaveBody): Promise<WorkerTest> =>
  apiClient.put(callPath('PUT /api/workerTest/save'), body, quiet);

export const deleteWorkerTest = (id: number) =>
  call('DELETE /api/workerTest/{id}', { params: { id } }, quiet);

export const generateActivationCode = (workerTestId: number, workerId: number) =>
  call('GET /api/workerTest/generateActivationCode', { query: { workerTestId, workerId } }, quiet);

export const listPositions = (signal?: AbortSignal) =>
  call('POST /api/workerPosition/list', { body: { page: 1, pageSize: 500 } }, { ...quiet, signal });

/** The xlsx of the organizators' staff-test (training) results. */
export const workerTestReportPath = () => callPath('GET /api/coordinator/organizator/report/workerTest');
