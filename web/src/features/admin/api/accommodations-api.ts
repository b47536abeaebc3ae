import type { Accommodations } from '@attesta/contract';
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
