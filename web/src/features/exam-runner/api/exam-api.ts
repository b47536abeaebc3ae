/**
 * The runner's calls (/api/exam/test/*, docs/design.md §5, §8), one function per call, shapes from the
 * contract. Calls made while a work runs suppress the client's redirect: a failed save or a lost
 * connection must never navigate away from the test. A 401 still ends on the unauthorized page
 * (`redirectOn401`): without a session nothing can be saved anyway.
 */
import {
  answerModeResultSchema,
  currentParticipantTestSchema,
  DEVICE_HEADER,
  examWorkExistsSchema,
  examWorkStateSchema,
  flagResultSchema,
  htmlContainerSchema,
  participantVariantSchema,
  pauseStateSchema,
  quizSchema,
  saveAnswerResponseSchema,
  saveAnswersResponseSchema,
  saveQuizResponseSchema,
  subjectTestHtmlSchema,
  techSpecResultSchema,
  timeBeforeSchema,
  timeLeftSchema,
  type AnswerMode,
  type ParticipantCardBody,
  type SaveAnswerBody,
  type SaveAnswersBody,
  type TechSpecQuery,
} from '@attesta/contract';
import type { saveAnswersWithFilesResponseSchema } from '@attesta/contract';
import { apiClient, ApiError, type ApiClient } from '../../../lib/api-client';
import { getDeviceId } from '../lib/device-id';

export type TimeBefore = ReturnType<typeof timeBeforeSchema.parse>;
export type TimeLeft = ReturnType<typeof timeLeftSchema.parse>;
export type PauseState = ReturnType<typeof pauseStateSchema.parse>;
export type Quiz = ReturnType<typeof quizSchema.parse>;
export type QuizAnswers = Record<string, string | string[]>;
export type SaveAnswerResponse = ReturnType<typeof saveAnswerResponseSchema.parse>;
export type SaveAnswersResponse = ReturnType<typeof saveAnswersResponseSchema.parse>;
export type SaveFilesResponse = ReturnType<typeof saveAnswersWithFilesResponseSchema.parse>;
export type ExamWorkExists = ReturnType<typeof examWorkExistsSchema.parse>;
export type HtmlContainerInfo = ReturnType<typeof htmlContainerSchema.parse>;

const BASE = '/api/exam/test';

/** Suppress every redirect but the 401 one. */
export async function quiet<T>(client: ApiClient, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) client.redirectFor(error);
    throw error;
  }
}

const deviceHeaders = () => ({ [DEVICE_HEADER]: getDeviceId() });

export function createExamApi(client: ApiClient = apiClient) {
  const get = <T>(path: string, parse: (d: unknown) => T, signal?: AbortSignal) =>
    quiet(client, () =>
      client.get(path, { signal, parse, suppressRedirect: true, headers: deviceHeaders() }),
    );
  const put = <T>(path: string, body: unknown, parse: (d: unknown) => T) =>
    quiet(client, () => client.put(path, body, { parse, suppressRedirect: true, headers: deviceHeaders() }));
  const post = <T>(path: string, body: unknown, parse: (d: unknown) => T) =>
    quiet(client, () => client.post(path, body, { parse, suppressRedirect: true, headers: deviceHeaders() }));

  return {
    currentParticipantTest: (signal?: AbortSignal) =>
      get(`${BASE}/currentParticipantTest`, (d) => currentParticipantTestSchema.parse(d), signal),
    description: (subjectTestId: number, signal?: AbortSignal) =>
      get(`${BASE}/description/${subjectTestId}`, (d) => subjectTestHtmlSchema.parse(d), signal),
    procedure: (subjectTestId: number, signal?: AbortSignal) =>
      get(`/api/test/procedure/${subjectTestId}`, (d) => subjectTestHtmlSchema.parse(d), signal),
    techSpec: (query: Partial<Record<keyof TechSpecQuery, string | number | boolean>>) =>
      quiet(client, () =>
        client.get('/api/user/checkTechSpec', {
          query,
          suppressRedirect: true,
          parse: (d) => techSpecResultSchema.parse(d),
        }),
      ),
    saveParticipant: (body: ParticipantCardBody) => put('/api/user/saveParticipant', body, (d) => d),
    quiz: (signal?: AbortSignal) =>
      get(`${BASE}/getQuizCurrentParticipantTest`, (d) => quizSchema.parse(d), signal),
    saveQuiz: (answers: QuizAnswers) =>
      put(`${BASE}/saveQuizCurrentParticipantTest`, { answers }, (d) => saveQuizResponseSchema.parse(d)),
    timeBefore: (signal?: AbortSignal) =>
      get(`${BASE}/examwork/timeBefore`, (d) => timeBeforeSchema.parse(d), signal),
    checkExists: (signal?: AbortSignal) =>
      get(`${BASE}/examwork/checkexistsexamwork`, (d) => examWorkExistsSchema.parse(d), signal),
    newWork: () => post(`${BASE}/examwork/new`, {}, (d) => examWorkStateSchema.parse(d)),
    variant: (signal?: AbortSignal) =>
      get(`${BASE}/variant/current`, (d) => participantVariantSchema.parse(d), signal),
    work: (examWorkId: number, signal?: AbortSignal) =>
      get(`${BASE}/examwork/${examWorkId}`, (d) => examWorkStateSchema.parse(d), signal),
    timeLeft: (examWorkId: number) =>
      get(`${BASE}/examwork/left/${examWorkId}`, (d) => timeLeftSchema.parse(d)),
    pauseState: () => get(`${BASE}/examwork/pause`, (d) => pauseStateSchema.parse(d)),
    setPause: (pause: boolean) => post(`${BASE}/examwork/pause`, { pause }, readPauseResult),
    /** Resolves only with the server's finished state: the runner says «finished» only then. */
    finish: (examWorkId: number, reason: 'manual' | 'timeout') =>
      put(`${BASE}/examwork/finish/${examWorkId}/${reason}`, {}, (d) => examWorkStateSchema.parse(d)),
    setFlag: (examWorkId: number, variantTaskId: number, flagged: boolean) =>
      put(`${BASE}/examwork/${examWorkId}/${variantTaskId}/flag`, { flagged }, (d) =>
        flagResultSchema.parse(d),
      ),
    setTaskMode: (examWorkId: number, variantTaskId: number, mode: AnswerMode) =>
      put(`${BASE}/examwork/${examWorkId}/${variantTaskId}/answertype/${mode}`, {}, (d) =>
        answerModeResultSchema.parse(d),
      ),
    saveAnswer: (body: SaveAnswerBody) =>
      put(`${BASE}/saveanswer`, body, (d) => saveAnswerResponseSchema.parse(d)),
    saveAnswers: (body: SaveAnswersBody) =>
      put(`${BASE}/saveanswers`, body, (d) => saveAnswersResponseSchema.parse(d)),
    /** An interactive task's container: its signed entry page URL (docs/html-containers.md). */
    htmlContainer: (id: number, signal?: AbortSignal) =>
      get(`/api/KimHtmlContainer/${id}`, (d) => htmlContainerSchema.parse(d), signal),
  };
}

export type ExamApi = ReturnType<typeof createExamApi>;

export const blanksUrl = (examWorkId: number) => `${BASE}/examwork/${examWorkId}/blanks`;
export const SAVE_WITH_FILES_URL = `${BASE}/saveanswers_with_files`;

/** POST pause answers `{ works: [...] }`; an older server shape (one state) is accepted too. */
function readPauseResult(data: unknown): PauseState {
  if (data && typeof data === 'object' && 'works' in data) {
    const works = (data as { works: unknown[] }).works;
    return pauseStateSchema.parse(works[0]);
  }
  return pauseStateSchema.parse(data);
}
