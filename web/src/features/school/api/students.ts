import type { StaffStudent, StaffStudentListRequest, StaffStudentSaveBody } from '@attesta/contract';
import { call } from '../../../lib/call';
import { quiet, type ListCall, type StaffRole } from './shared';

export const listStudents =
  (role: StaffRole): ListCall<StaffStudent, StaffStudentListRequest> =>
  (request, signal) =>
    call(`POST /api/${role}/student/list`, { body: request }, { ...quiet, signal });

export const saveStudent = (role: StaffRole, body: StaffStudentSaveBody): Promise<StaffStudent> =>
  call(`POST /api/${role}/student`, { body }, quiet);

/** Only the coordinator deletes students. */
export const deleteStudent = (id: number) =>
  call('DELETE /api/coordinator/student/{id}', { params: { id } }, quiet);
