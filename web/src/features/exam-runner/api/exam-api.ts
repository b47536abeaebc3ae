/**
 * The runner's calls (/api/exam/test/*, docs/design.md §5, §8), one function per call, shapes from the
 * contract. Calls made while a work runs suppress the client's redirect: a failed save or a lost
 * connection must never navigate away from the test. A gone session still ends on the unauthorized
 * page (the client's rule): without a session nothing can be saved anyway.
 */
import {
  DEVICE_HEADER,
  type AnswerMode,
  type CallKey,
  type ParticipantCardBody,
  type SaveAnswerBody,
  type SaveAnswersBody,
} from '@attesta/contract';
import { apiClient, ApiError, type ApiClient } from '../../../lib/api-client';
import { call, callPath, type CallInput, type CallResult } from '../../../lib/call';
import { getDeviceId } from '../../../lib/device-id';

export type TimeBefore = CallResult<'GET /api/exam/test/examwork/timeBefore'>;
export type TimeLeft = CallResult<'GET /api/exam/test/examwork/left/{id}'>;
export type PauseState = CallResult<'GET /api/exam/test/examwork/pause'>;
export type Quiz = CallResult<'GET /api/exam/test/getQuizCurrentParticipantTest'>;
export type QuizAnswers = Record<string, string | string[]>;
export type SaveAnswerResponse = CallResult<'PUT /api/exam/test/saveanswer'>;
export type SaveAnswersResponse = CallResult<'PUT /api/exam/test/saveanswers'>;
export type SaveFilesResponse = CallResult<'POST /api/exam/test/saveanswers_with_files'>;
export type ExamWorkExists = CallResult<'GET /api/exam/test/examwork/checkexistsexamwork'>;
export type HtmlContainerInfo = CallResult<'GET /api/KimHtmlContainer/{id}'>;

const deviceHeaders = () => ({ [DEVICE_HEADER]: getDeviceId() });

export function createExamApi(client: ApiClient = apiClient) {
  /** A runner call: the device header, no redirect but a gone session's (the client's rule). */
  const run = <K extends CallKey>(key: K, input: CallInput<K>, signal?: AbortSignal) =>
    call(key, input, { signal, suppressRedirect: true, headers: deviceHeaders() }, client);

  return {
    currentParticipantTest: (signal?: AbortSignal) =>
      run('GET /api/exam/test/currentParticipantTest', {}, signal),
    description: (subjectTestId: number, signal?: AbortSignal) =>
      run('GET /api/exam/test/description/{id}', { params: { id: subjectTestId } }, signal),
    procedure: (subjectTestId: number, signal?: AbortSignal) =>
      run('GET /api/test/procedure/{id}', { params: { id: subjectTestId } }, signal),
    techSpec: (query: CallInput<'GET /api/user/checkTechSpec'>['query']) =>
      run('GET /api/user/checkTechSpec', { query }),
    saveParticipant: (body: ParticipantCardBody) => run('PUT /api/user/saveParticipant', { body }),
    quiz: (signal?: AbortSignal) => run('GET /api/exam/test/getQuizCurrentParticipantTest', {}, signal),
    saveQuiz: (answers: QuizAnswers) =>
      run('PUT /api/exam/test/saveQuizCurrentParticipantTest', { body: { answers } }),
    timeBefore: (signal?: AbortSignal) => run('GET /api/exam/test/examwork/timeBefore', {}, signal),
    checkExists: (signal?: AbortSignal) => run('GET /api/exam/test/examwork/checkexistsexamwork', {}, signal),
    newWork: () => run('POST /api/exam/test/examwork/new', { body: {} }),
    variant: (signal?: AbortSignal) => run('GET /api/exam/test/variant/current', {}, signal),
    work: (examWorkId: number, signal?: AbortSignal) =>
      run('GET /api/exam/test/examwork/{id}', { params: { id: examWorkId } }, signal),
    timeLeft: (examWorkId: number) =>
      run('GET /api/exam/test/examwork/left/{id}', { params: { id: examWorkId } }),
    pauseState: () => run('GET /api/exam/test/examwork/pause', {}),
    /** The participant's own pause: the answer names this one work. */
    setPause: async (pause: boolean) => {
      const { works } = await run('POST /api/exam/test/examwork/pause', { body: { pause } });
      if (!works[0])
        throw new ApiError({ status: 200, code: 'invalid_response', message: 'No work in the answer' });
      return works[0];
    },
    /** A rest break of the accommodations profile: start (`true`) or end it (docs/accommodations.md). */
    restBreak: (start: boolean) =>
      run(start ? 'POST /api/exam/test/examwork/break/start' : 'POST /api/exam/test/examwork/break/end', {
        body: {},
      }),
    /** Resolves only with the server's finished state: the runner says «finished» only then. */
    finish: (examWorkId: number, reason: 'manual' | 'timeout') =>
      run('PUT /api/exam/test/examwork/finish/{examWorkId}/{reason}', { params: { examWorkId, reason } }),
    setFlag: (examWorkId: number, variantTaskId: number, flagged: boolean) =>
      run('PUT /api/exam/test/examwork/{examWorkId}/{variantTaskId}/flag', {
        params: { examWorkId, variantTaskId },
        body: { flagged },
      }),
    setTaskMode: (examWorkId: number, variantTaskId: number, mode: AnswerMode) =>
      run('PUT /api/exam/test/examwork/{examWorkId}/{variantTaskId}/answertype/{type}', {
        params: { examWorkId, variantTaskId, type: mode },
      }),
    saveAnswer: (body: SaveAnswerBody) => run('PUT /api/exam/test/saveanswer', { body }),
    saveAnswers: (body: SaveAnswersBody) => run('PUT /api/exam/test/saveanswers', { body }),
    /** An interactive task's container: its signed entry page URL (docs/html-containers.md). */
    htmlContainer: (id: number, signal?: AbortSignal) =>
      run('GET /api/KimHtmlContainer/{id}', { params: { id } }, signal),
  };
}

export type ExamApi = ReturnType<typeof createExamApi>;

export const blanksUrl = (examWorkId: number) =>
  callPath('GET /api/exam/test/examwork/{id}/blanks', { id: examWorkId });
export const SAVE_WITH_FILES_URL = callPath('POST /api/exam/test/saveanswers_with_files');
