import type { WorkerTest, WorkerTestListRequest, WorkerTestSaveBody } from '@attesta/contract';
import { call, callPath } from '../../../lib/call';
import { quiet, type ListCall } from './shared';

export const listWorkerTests: ListCall<WorkerTest, WorkerTestListRequest> = (request, signal) =>
  call('POST /api/workerTest/list', { body: request }, { ...quiet, signal });

export const saveWorkerTest = (body: WorkerTestSaveBody) => call('PUT /api/workerTest/save', { body }, quiet);

export const deleteWorkerTest = (id: number) =>
  call('DELETE /api/workerTest/{id}', { params: { id } }, quiet);

export const generateActivationCode = (workerTestId: number, workerId: number) =>
  call('GET /api/workerTest/generateActivationCode', { query: { workerTestId, workerId } }, quiet);

export const listPositions = (signal?: AbortSignal) =>
  call('POST /api/workerPosition/list', { body: { page: 1, pageSize: 500 } }, { ...quiet, signal });

/** The xlsx of the organizators' staff-test (training) results. */
export const workerTestReportPath = () => callPath('GET /api/coordinator/organizator/report/workerTest');
