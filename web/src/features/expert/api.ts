/**
 * The expert's calls (server/src/modules/expert, profile/expert). Their schemas live on the server
 * (not in the contract), so the shapes the pages read are written down here.
 */
import type { ListResponse } from '@attesta/contract';
import { apiClient } from '../../lib/api-client';

const quiet = { suppressRedirect: true } as const;

export interface Criterion {
  code: string;
  text: string;
  maxScore: number;
}

export interface Mark {
  criterionCode: string;
  score: number;
}

export interface AnswerFile {
  id: number;
  name: string;
  mime: string;
  size: number;
}

export interface Assignment {
  id: number;
  anonCode: string;
  round: number;
  status: 'assigned' | 'graded';
  editable: boolean;
  subjectTestId: number;
  subjectTestName: string;
  subjectName: string;
  workDate: string;
  task: {
    position: number;
    answerType: string;
    html: string;
    criteria: Criterion[];
    maxScore: number;
    solutionHtml: string | null;
    reference: unknown;
  };
  answer: { value: unknown; files: AnswerFile[] };
  marks: Mark[] | null;
  total: number | null;
  comment: string | null;
  gradedAt: string | null;
}

export interface Progress {
  done: number;
  total: number;
}

export interface NextAnswer {
  assignment: Assignment | null;
  progress: Progress;
}

export interface QueueItem {
  subjectTestId: number;
  subjectTestName: string;
  subjectName: string;
  date: string;
  assigned: number;
  graded: number;
  thirdChecks: number;
}

export interface ExpertProfile {
  subjectIds: number[];
  subjects: { id: number; name: string }[];
  parallels: number[];
  maxPerDay: number | null;
  openAssignments: number;
}

export interface ExpertProfileBody {
  subjectIds: number[];
  parallels: number[];
  maxPerDay: number | null;
}

export interface QueueFilter {
  subjectTestId?: number;
  date?: string;
}

export const expertKeys = {
  all: ['expert'] as const,
  queue: ['expert', 'queue'] as const,
  next: (filter: QueueFilter) => ['expert', 'next', filter] as const,
  dates: ['expert', 'dates'] as const,
  profile: ['expert', 'profile'] as const,
  subjects: ['expert', 'subjects'] as const,
};

export const getQueue = (signal?: AbortSignal): Promise<{ items: QueueItem[] }> =>
  apiClient.get('/api/expert/queue', { ...quiet, signal });

export const getNext = (filter: QueueFilter, signal?: AbortSignal): Promise<NextAnswer> =>
  apiClient.get('/api/expert/next', { ...quiet, signal, query: { ...filter } });

export const saveMarks = (id: number, body: { marks: Mark[]; comment?: string }): Promise<Assignment> =>
  apiClient.post(`/api/expert/assignment/${id}/marks`, body, quiet);

export const getAnswerDates = (signal?: AbortSignal): Promise<{ dates: string[] }> =>
  apiClient.get('/api/ParticipantTest/getExpertAnswersDates', { ...quiet, signal });

export const ANSWERS_ZIP_PATH = '/api/ParticipantTest/getExpertAnswersFileForDownloader';

export const getProfile = (signal?: AbortSignal): Promise<ExpertProfile> =>
  apiClient.get('/api/Profile/expert/get', { ...quiet, signal });

export const saveProfile = (body: ExpertProfileBody): Promise<ExpertProfile> =>
  apiClient.put('/api/Profile/expert/saveProfile', body, quiet);

export const listSubjects = (signal?: AbortSignal): Promise<ListResponse<{ id: number; name: string }>> =>
  apiClient.post('/api/kim/subject/list', { page: 1, pageSize: 500 }, { ...quiet, signal });
