import type {
  StaffOrganizator,
  StaffOrganizatorBlockBody,
  StaffOrganizatorListRequest,
  StaffOrganizatorSaveBody,
} from '@attesta/contract';
import { call } from '../../../lib/call';
import { quiet, type ListCall } from './shared';

export const listOrganizators: ListCall<StaffOrganizator, StaffOrganizatorListRequest> = (request, signal) =>
  call('POST /api/coordinator/organizator/list', { body: request }, { ...quiet, signal });

export const saveOrganizator = (body: StaffOrganizatorSaveBody) =>
  call('POST /api/coordinator/organizator', { body }, quiet);

export const blockOrganizator = (id: number, body: StaffOrganizatorBlockBody) =>
  call('POST /api/coordinator/organizator/{id}', { params: { id }, body }, quiet);
