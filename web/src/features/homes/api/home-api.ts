/**
 * The calls the role homes read, through the typed client (features do not import each other, so
 * the homes keep their own small set). Every call is one the role's work places already make; the
 * homes only ask for short pages and totals. Failures are shown in the panel, never by a redirect.
 */
import type { HomeRole } from '../../../lib/roles';
import { call } from '../../../lib/call';

const quiet = { suppressRedirect: true } as const;

/** Today as a calendar day in Moscow (school days are Moscow days, as on the server). */
export function moscowToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Moscow',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

type School = 'coordinator' | 'organizator';

export const homeKeys = {
  all: (role: HomeRole) => ['home', role] as const,
};

export const homeApi = {
  /** The school's (coordinator) or the rooms' (organizator) diagnostics whose window covers today. */
  todaysDiagnostics: (role: School, today: string, signal?: AbortSignal) =>
    call(
      `POST /api/${role}/diagnostic/list`,
      {
        body: {
          page: 1,
          pageSize: 20,
          sort: { field: 'startsAt', dir: 'asc' },
          filter: { dateFrom: today, dateTo: today },
        },
      },
      { ...quiet, signal },
    ),
  /** The next diagnostics that have not started yet. */
  upcomingDiagnostics: (role: School, signal?: AbortSignal) =>
    call(
      `POST /api/${role}/diagnostic/list`,
      {
        body: {
          page: 1,
          pageSize: 5,
          sort: { field: 'startsAt', dir: 'asc' },
          filter: { status: 'planned' },
        },
      },
      { ...quiet, signal },
    ),
  /** Diagnostics whose window has closed and whose results are not published yet (total only). */
  awaitingPublication: (signal?: AbortSignal) =>
    call(
      'POST /api/coordinator/diagnostic/list',
      {
        body: {
          page: 1,
          pageSize: 5,
          sort: { field: 'startsAt', dir: 'desc' },
          filter: { status: 'finished' },
        },
      },
      { ...quiet, signal },
    ),
  /** Participant tests of the coordinator's school sitting on a day (total only). */
  participantsOn: (date: string, signal?: AbortSignal) =>
    call(
      'POST /api/coordinator/participantTest/list',
      { body: { page: 1, pageSize: 1, filter: { date } } },
      { ...quiet, signal },
    ),
  /** Queue items of a status (total, and the newest few). */
  queue: (
    filter: { status?: 'queued' | 'running' | 'failed'; type?: string },
    pageSize = 1,
    signal?: AbortSignal,
  ) =>
    call(
      'POST /api/ParticipantTest/queuelist',
      { body: { page: 1, pageSize, sort: { field: 'createdAt', dir: 'desc' }, filter } },
      { ...quiet, signal },
    ),
  expertQueue: (signal?: AbortSignal) => call('GET /api/expert/queue', {}, { ...quiet, signal }),
  adminTodaysDiagnostics: (today: string, signal?: AbortSignal) =>
    call(
      'POST /api/admin/diagnostics/list',
      {
        body: {
          page: 1,
          pageSize: 10,
          sort: { field: 'startsAt', dir: 'asc' },
          filter: { dateFrom: today, dateTo: today },
        },
      },
      { ...quiet, signal },
    ),
  ugnikDiagnostics: (today: string, signal?: AbortSignal) =>
    call(
      'POST /api/ugnik/diagnostic/list',
      { body: { page: 1, pageSize: 10, sort: { field: 'startsAt', dir: 'asc' }, filter: { from: today } } },
      { ...quiet, signal },
    ),
};
