import type { Accommodations } from '@attesta/contract';
import { call } from '../../../lib/call';
import { quiet } from './shared';

/** Students' accommodations profiles (docs/accommodations.md): the coordinator's own school. */
export const getAccommodations = (studentId: number, signal?: AbortSignal) =>
  call('GET /api/accommodations/students/{studentId}', { params: { studentId } }, { ...quiet, signal });

export const setAccommodations = (studentId: number, accommodations: Accommodations | null) =>
  call(
    'PUT /api/accommodations/students/{studentId}',
    { params: { studentId }, body: { accommodations } },
    quiet,
  );

export const setManyAccommodations = (studentIds: number[], accommodations: Accommodations | null) =>
  call('PUT /api/accommodations/students', { body: { studentIds, accommodations } }, quiet);
