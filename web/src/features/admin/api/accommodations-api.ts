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
