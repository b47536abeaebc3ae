/** The expert's grading calls (server/src/modules/expert): the queue, the next answer, marks and the answers zip. */
import type { ExpertMarksBody, ExpertNextQuery } from '@attesta/contract';
import { call, callPath } from '../../../lib/call';

const quiet = { suppressRedirect: true } as const;

export const expertKeys = {
  all: ['expert'] as const,
  queue: ['expert', 'queue'] as const,
  next: (filter: ExpertNextQuery) => ['expert', 'next', filter] as const,
  dates: ['expert', 'dates'] as const,
  profile: ['expert', 'profile'] as const,
  subjects: ['expert', 'subjects'] as const,
};

export const getQueue = (signal?: AbortSignal) => call('GET /api/expert/queue', {}, { ...quiet, signal });

export const getNext = (filter: ExpertNextQuery, signal?: AbortSignal) =>
  call('GET /api/expert/next', { query: { ...filter } }, { ...quiet, signal });

export const saveMarks = (id: number, body: ExpertMarksBody) =>
  call('POST /api/expert/assignment/{id}/marks', { params: { id }, body }, quiet);

export const getAnswerDates = (signal?: AbortSignal) =>
  call('GET /api/ParticipantTest/getExpertAnswersDates', {}, { ...quiet, signal });

/** The zip of answers to grade (a download; `date` and `dateTill` go in its query). */
export const ANSWERS_ZIP_PATH = callPath('GET /api/ParticipantTest/getExpertAnswersFileForDownloader');
