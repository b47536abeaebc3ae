/** Calls of the live room view: the snapshot, the lists to choose a room, and the room actions. */
import {
  roomSnapshotSchema,
  staffClassListResponseSchema,
  staffDiagnosticListResponseSchema,
  type RoomSnapshot,
  type StaffClass,
  type StaffDiagnostic,
} from '@attesta/contract';
import { apiClient } from '../../lib/api-client';

export type RoomRole = 'organizator' | 'coordinator';
export interface RoomRef {
  diagnosticId: number;
  classId: number;
}

const LIST = { page: 1, pageSize: 500 };

export const roomQueryString = (ref: RoomRef) =>
  new URLSearchParams({ diagnosticId: String(ref.diagnosticId), classId: String(ref.classId) }).toString();

export const monitoringApi = {
  diagnostics: (role: RoomRole): Promise<StaffDiagnostic[]> =>
    apiClient
      .post(`/api/${role}/diagnostic/list`, { ...LIST, sort: { field: 'startsAt', dir: 'desc' } })
      .then((d) => staffDiagnosticListResponseSchema.parse(d).items),
  classes: (role: RoomRole): Promise<StaffClass[]> =>
    apiClient
      .post(`/api/${role}/class/list`, { ...LIST, sort: { field: 'name', dir: 'asc' } })
      .then((d) => staffClassListResponseSchema.parse(d).items),
  room: (ref: RoomRef): Promise<RoomSnapshot> =>
    apiClient.get(`/api/monitoring/room?${roomQueryString(ref)}`).then((d) => roomSnapshotSchema.parse(d)),
  streamUrl: (ref: RoomRef) => `/api/monitoring/room/stream?${roomQueryString(ref)}`,

  pause: (examWorkIds: number[], pause: boolean, reason: string) =>
    apiClient.post(
      '/api/exam/test/examwork/pause',
      { pause, examWorkIds, reason },
      { suppressRedirect: true },
    ),
  changeTime: (ids: number[], minutes: number, reason: string) =>
    apiClient.get('/api/exam/test/examwork/ChangeTimeTill', {
      query: { ids: ids.join(','), timeSpan: timeSpanOf(minutes), reason },
      suppressRedirect: true,
    }),
  logout: (activationCode: string, reason: string) =>
    apiClient.post(
      '/api/Account/LogoutByActivationCode',
      { activationCode, reason },
      { suppressRedirect: true },
    ),
  clearSession: (participantTestId: number, reason: string) =>
    apiClient.get(`/api/ParticipantTest/clearSession/${participantTestId}`, {
      query: { reason },
      suppressRedirect: true,
    }),
  restore: (examWorkId: number, reason: string) =>
    apiClient.post(
      '/api/ParticipantTest/RestoreExamWork',
      { examWorkId, reason },
      { suppressRedirect: true },
    ),
};

/** Minutes as the .NET-style span ChangeTimeTill takes: 10 → `00:10:00`, -5 → `-00:05:00`. */
export function timeSpanOf(minutes: number): string {
  const abs = Math.abs(Math.trunc(minutes));
  const h = Math.floor(abs / 60);
  const m = abs % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  const span = h >= 24 ? `${Math.floor(h / 24)}.${pad(h % 24)}:${pad(m)}:00` : `${pad(h)}:${pad(m)}:00`;
  return minutes < 0 ? `-${span}` : span;
}
