import type { Accommodations, WorkerListQuery } from '@attesta/contract';
import type { AccommodationsCalls } from '../../../components/accommodations/student-accommodations-modal';
import { call } from '../../../lib/call';

const inline = { suppressRedirect: true } as const;

/** A student's accommodations profile, any school (docs/accommodations.md). */
export const adminAccommodationsCalls: AccommodationsCalls = {
  load: (studentId, signal) =>
    call('GET /api/accommodations/students/{studentId}', { params: { studentId } }, { ...inline, signal }),
  save: (studentId, accommodations) =>
    call(
      'PUT /api/accommodations/students/{studentId}',
      { params: { studentId }, body: { accommodations } },
      inline,
    ),
};

/** The same profile for many students of any school. */
export const adminBulkStudentAccommodations = (studentIds: number[], accommodations: Accommodations | null) =>
  call('PUT /api/accommodations/students', { body: { studentIds, accommodations } }, inline);

/** A worker's accommodations profile, any school (staff taking worker tests). */
export const adminWorkerAccommodationsCalls: AccommodationsCalls = {
  kind: 'worker',
  load: (workerId, signal) =>
    call('GET /api/accommodations/workers/{workerId}', { params: { workerId } }, { ...inline, signal }),
  save: (workerId, accommodations) =>
    call(
      'PUT /api/accommodations/workers/{workerId}',
      { params: { workerId }, body: { accommodations } },
      inline,
    ),
};

export const adminBulkWorkerAccommodations = (workerIds: number[], accommodations: Accommodations | null) =>
  call('PUT /api/accommodations/workers', { body: { workerIds, accommodations } }, inline);

export const workerKeys = { all: ['admin', 'accommodation-workers'] as const };

/** A page of workers (of one school or all) with whether each has a profile. */
export const listWorkers = (query: WorkerListQuery, signal?: AbortSignal) =>
  call('GET /api/accommodations/workers', { query }, { ...inline, signal });
