/** Calls of the live room view: the snapshot, the lists to choose a room, and the room actions. */
import {
  saveAnswersWithFilesResponseSchema,
  type PaperSaveAnswersBody,
  type PaperSitting,
  type SaveAnswersBody,
  type RoomSnapshot,
  type SittingEvents,
  type StaffClass,
  type StaffDiagnostic,
  type StaffMessage,
} from '@attesta/contract';
import { apiClient } from '../../../lib/api-client';
import { call, callPath, type CallResult } from '../../../lib/call';

export type KeyInResult = CallResult<'PUT /api/exam/test/saveanswers'>;
export type KeyInFilesResult = CallResult<'POST /api/exam/test/saveanswers_with_files'>;

export type RoomRole = 'organizator' | 'coordinator';
/** A room: a class or (the ugnik's choice) a whole building of one diagnostic; one of the two. */
export interface RoomRef {
  diagnosticId: number;
  classId?: number;
  buildingId?: number;
}

const LIST = { page: 1, pageSize: 500 };
const quiet = { suppressRedirect: true } as const;

const roomQuery = (ref: RoomRef) =>
  ref.buildingId !== undefined
    ? { diagnosticId: ref.diagnosticId, buildingId: ref.buildingId }
    : { diagnosticId: ref.diagnosticId, classId: ref.classId };

export const roomQueryString = (ref: RoomRef) =>
  new URLSearchParams(
    Object.entries(roomQuery(ref)).map(([k, v]) => [k, String(v)] as [string, string]),
  ).toString();

export const monitoringApi = {
  diagnostics: (role: RoomRole): Promise<StaffDiagnostic[]> =>
    call(`POST /api/${role}/diagnostic/list`, {
      body: { ...LIST, sort: { field: 'startsAt', dir: 'desc' } },
    }).then((d) => d.items),
  classes: (role: RoomRole): Promise<StaffClass[]> =>
    call(`POST /api/${role}/class/list`, { body: { ...LIST, sort: { field: 'name', dir: 'asc' } } }).then(
      (d) => d.items,
    ),
  room: (ref: RoomRef): Promise<RoomSnapshot> => call('GET /api/monitoring/room', { query: roomQuery(ref) }),
  /** A sitting's event log; its failure is shown in the drawer. */
  events: (participantTestId: number, signal?: AbortSignal): Promise<SittingEvents> =>
    call(
      'GET /api/monitoring/participantTest/{id}/events',
      { params: { id: participantTestId } },
      { ...quiet, signal },
    ),
  /** A short message to one sitting, shown in the participant's runner. */
  message: (participantTestId: number, text: string): Promise<StaffMessage> =>
    call(
      'POST /api/monitoring/participantTest/{id}/message',
      { params: { id: participantTestId }, body: { text } },
      quiet,
    ),
  streamUrl: (ref: RoomRef) => `${callPath('GET /api/monitoring/room/stream')}?${roomQueryString(ref)}`,

  pause: (examWorkIds: number[], pause: boolean, reason: string) =>
    call('POST /api/exam/test/examwork/pause', { body: { pause, examWorkIds, reason } }, quiet),
  changeTime: (ids: number[], minutes: number, reason: string) =>
    call(
      'GET /api/exam/test/examwork/ChangeTimeTill',
      { query: { ids: ids.join(','), timeSpan: timeSpanOf(minutes), reason } },
      quiet,
    ),
  logout: (activationCode: string, reason: string) =>
    call('POST /api/Account/LogoutByActivationCode', { body: { activationCode, reason } }, quiet),
  clearSession: (participantTestId: number, reason: string) =>
    call(
      'GET /api/ParticipantTest/clearSession/{id}',
      { params: { id: participantTestId }, query: { reason } },
      quiet,
    ),
  restore: (examWorkId: number, reason: string) =>
    call('POST /api/ParticipantTest/RestoreExamWork', { body: { examWorkId, reason } }, quiet),

  // A paper answer form keyed in by staff: the sitting (its registration code), the tasks as the
  // participant saw them, the answers stored now (with their seq), and the saves by registration code.
  sittingOfWork: (examWorkId: number) =>
    call('GET /api/exam/test/getparticipanttestbyresultid/{id}', { params: { id: examWorkId } }, quiet),
  variantOfWork: (examWorkId: number) =>
    call('GET /api/examresults/variant/{id}', { params: { id: examWorkId } }, quiet),
  workState: (examWorkId: number) =>
    call('GET /api/exam/test/examwork/{id}', { params: { id: examWorkId } }, quiet),
  keyIn: (registrationCode: string, body: SaveAnswersBody | PaperSaveAnswersBody): Promise<KeyInResult> =>
    call('PUT /api/exam/test/saveanswers', { query: { registrationCode }, body }, quiet),
  /** A sitting's paper form: its live work, the variants and (with `variantId`) that variant's tasks. */
  paperSitting: (participantTestId: number, variantId?: number): Promise<PaperSitting> =>
    call(
      'GET /api/exam/test/participantTest/{id}/paper',
      { params: { id: participantTestId }, query: variantId === undefined ? {} : { variantId } },
      quiet,
    ),
  /** A file task's scans: the answer (the files it keeps) first, then the new files, as one request. */
  keyInFiles: (
    registrationCode: string,
    answer: { examWorkId: number; variantTaskId: number; fileIds: number[]; seq: number },
    files: File[],
  ): Promise<KeyInFilesResult> => {
    const form = new FormData();
    form.append(
      'answers',
      JSON.stringify({
        examWorkId: answer.examWorkId,
        answers: [
          { variantTaskId: answer.variantTaskId, value: { fileIds: answer.fileIds }, seq: answer.seq },
        ],
      }),
    );
    for (const file of files) form.append(`file:${answer.variantTaskId}`, file, file.name);
    return apiClient.request(callPath('POST /api/exam/test/saveanswers_with_files'), {
      ...quiet,
      method: 'POST',
      query: { registrationCode },
      body: form,
      parse: (data) => saveAnswersWithFilesResponseSchema.parse(data),
    });
  },
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
