/**
 * The calls a participant's browser makes (the login, the session, the exam runner, the staff's
 * messages, help and the integrity reports), each with its roles, meaning and schemas. Kept apart from
 * their modules' other calls so the participant's bundle carries only these (web/src/lib/call.ts;
 * docs/BENCHMARKS.md, issue 24).
 */
import { z } from 'zod';
import {
  POW_PROOF_MAX,
  currentUserSchema,
  logOffResponseSchema,
  loginBodySchema,
  loginResponseSchema,
  okSchema,
  powChallengeSchema,
} from '../account.js';
import { blankLayoutSchema, blanksQuerySchema } from '../blanks.js';
import {
  idPathSchema,
  reasonTextSchema,
  registrationQuerySchema,
  workIdListSchema,
} from '../calls-participant.js';
import {
  activationCodeCheckSchema,
  answerModeResultSchema,
  answerModeSchema,
  changeTimeResultSchema,
  currentParticipantTestSchema,
  examWorkExistsSchema,
  examWorkStateSchema,
  flagBodySchema,
  flagResultSchema,
  keyInAnswersBodySchema,
  participantTestCardSchema,
  participantVariantSchema,
  pauseBodySchema,
  pauseResultSchema,
  pauseStateSchema,
  quizSchema,
  resolvedVariantSchema,
  restBreakBodySchema,
  saveAnswerBodySchema,
  saveAnswerResponseSchema,
  saveAnswersResponseSchema,
  saveAnswersWithFilesResponseSchema,
  saveQuizBodySchema,
  saveQuizResponseSchema,
  subjectTestSummarySchema,
  timeBeforeSchema,
  timeLeftSchema,
} from '../exam.js';
import { helpListQuerySchema, helpListSchema, helpSectionSchema } from '../help.js';
import { fileExtSchema, htmlContainerSchema, subjectTestHtmlSchema } from '../kim.js';
import { integrityEventSchema, staffMessageSchema, staffMessagesSchema } from '../monitoring.js';
import {
  idParamSchema,
  participantCardBodySchema,
  participantCardSchema,
  techSpecQuerySchema,
  techSpecResultSchema,
} from '../user.js';
import type { CallTable } from '../call-schema.js';
import { NOTIFICATIONS_CALLS } from './notifications.js';

export const PARTICIPANT_CALLS = {
  'POST /api/Account/login': {
    roles: 'anon',
    meaning: 'log in by login+password, or by activation code (participant)',
    body: loginBodySchema,
    response: loginResponseSchema,
  },
  'POST /api/Account/LogOff': {
    roles: 'any',
    meaning: 'end the session',
    body: z.strictObject({ returnUrl: z.string().max(2000).optional() }).nullish(),
    response: logOffResponseSchema,
  },
  'PUT /api/exam/test/examwork/{examWorkId}/{variantTaskId}/answertype/{type}': {
    roles: ['participant'],
    meaning: 'answer mode of one task: online or blank (paper form, uploaded later)',
    params: z.strictObject({
      examWorkId: idParamSchema,
      variantTaskId: idParamSchema,
      type: answerModeSchema,
    }),
    response: answerModeResultSchema,
  },
  'PUT /api/exam/test/examwork/{id}/answertype/{type}': {
    roles: ['participant'],
    meaning: 'answer mode of the whole exam work',
    params: z.strictObject({ id: idParamSchema, type: answerModeSchema }),
    response: answerModeResultSchema,
  },
  'GET /api/exam/test/examwork/ChangeTimeTill': {
    roles: ['organizator', 'coordinator', 'admin'],
    meaning: 'extend or cut time; query ids (exam work ids) and timeSpan (e.g. 00:15:00 or -00:05:00)',
    stateChanging: true,
    query: z.object({ ids: workIdListSchema, timeSpan: z.string().max(32), reason: reasonTextSchema }),
    response: changeTimeResultSchema,
  },
  'GET /api/exam/test/checkActivationCode/{code}': {
    roles: 'anon',
    meaning: 'is the code valid, for which test and when',
    params: z.strictObject({ code: z.string().trim().min(1).max(64) }),
    headers: z.looseObject({ 'x-proof-of-work': z.string().min(2).max(POW_PROOF_MAX).optional() }),
    response: activationCodeCheckSchema,
  },
  'GET /api/exam/test/checkActivationCode': {
    roles: ['participant'],
    meaning: "is the current session's code still valid",
    response: activationCodeCheckSchema,
  },
  'GET /api/exam/test/examwork/checkexistsexamwork': {
    roles: ['participant'],
    meaning: 'does an exam work exist for the current participant test (resume)',
    response: examWorkExistsSchema,
  },
  'DELETE /api/exam/test/examwork/{id}': {
    roles: ['organizator', 'coordinator', 'admin'],
    meaning: 'soft-delete an exam work (restorable)',
    params: idPathSchema,
    query: z.object({ reason: reasonTextSchema }),
    response: okSchema,
  },
  'PUT /api/exam/test/examwork/finish/{examWorkId}/{reason}': {
    roles: ['participant'],
    meaning: 'finish; reason manual or timeout',
    params: z.strictObject({ examWorkId: idParamSchema, reason: z.enum(['manual', 'timeout']) }),
    response: examWorkStateSchema,
  },
  'GET /api/exam/test/currentParticipantTest': {
    roles: ['participant'],
    meaning: 'the participant test bound to the session',
    response: currentParticipantTestSchema,
  },
  'GET /api/exam/test/variant/current': {
    roles: ['participant'],
    meaning: 'variant of the current exam work, tasks without reference answers',
    response: participantVariantSchema,
  },
  'GET /api/exam/test/examwork/left/{id}': {
    roles: ['participant'],
    meaning: 'seconds left (server clock)',
    params: idPathSchema,
    response: timeLeftSchema,
  },
  'GET /api/exam/test/getparticipanttestbyresultid/{id}': {
    roles: ['coordinator', 'organizator', 'admin'],
    meaning: 'participant test of a result',
    params: idPathSchema,
    response: participantTestCardSchema,
  },
  'GET /api/exam/test/examwork/pause': {
    roles: ['participant'],
    meaning: 'pause state of the current exam work',
    response: pauseStateSchema,
  },
  'POST /api/exam/test/examwork/pause': {
    roles: ['participant', 'organizator'],
    meaning: 'pause or resume (body says which; organizator may pause others)',
    body: pauseBodySchema,
    response: pauseResultSchema,
  },
  'GET /api/exam/test/getQuizCurrentParticipantTest': {
    roles: ['participant'],
    meaning: 'questionnaire attached to the current participant test',
    response: quizSchema,
  },
  'PUT /api/exam/test/saveQuizCurrentParticipantTest': {
    roles: ['participant'],
    meaning: 'save questionnaire answers',
    body: saveQuizBodySchema,
    response: saveQuizResponseSchema,
  },
  'GET /api/exam/test/examwork/participantTest/subjecttest': {
    roles: ['participant'],
    meaning: 'subject test of the current participant test',
    response: subjectTestSummarySchema,
  },
  'GET /api/exam/test/description/{id}': {
    roles: 'any',
    meaning: 'subject test description',
    params: idPathSchema,
    response: subjectTestHtmlSchema,
  },
  'GET /api/exam/test/examwork/timeBefore': {
    roles: ['participant'],
    meaning: 'seconds until the start window opens',
    response: timeBeforeSchema,
  },
  'GET /api/exam/test/variant/{id}': {
    roles: ['participant', 'admin', 'expert'],
    meaning: 'a variant by id (participant: only the own current one)',
    params: idPathSchema,
    response: participantVariantSchema,
  },
  'GET /api/exam/test/variant/resolve/{id}': {
    roles: ['participant', 'admin'],
    meaning: 'variant with solutions (participant: only after results are published)',
    params: idPathSchema,
    response: resolvedVariantSchema,
  },
  'GET /api/exam/test/examwork/{id}/blanks': {
    roles: ['participant', 'organizator', 'coordinator'],
    meaning: 'PDF answer forms of an exam work (paper mode)',
    params: z.object({ id: idParamSchema }),
    query: blanksQuerySchema,
    // format=pdf (the default) answers the PDF itself; this is the answer of format=layout.
    response: blankLayoutSchema,
  },
  'GET /api/exam/test/examwork/{id}': {
    roles: ['participant', 'organizator', 'coordinator', 'admin'],
    meaning: 'exam work with saved answers and timing',
    params: idPathSchema,
    response: examWorkStateSchema,
  },
  'POST /api/exam/test/examwork/new': {
    roles: ['participant'],
    meaning: 'start (or return the existing) exam work for the current participant test',
    body: z.strictObject({ answerMode: answerModeSchema.optional() }).optional(),
    response: examWorkStateSchema,
  },
  'PUT /api/exam/test/saveanswer': {
    roles: ['participant'],
    meaning: 'save one answer (idempotent, sequence-numbered)',
    body: saveAnswerBodySchema,
    response: saveAnswerResponseSchema,
  },
  'PUT /api/exam/test/saveanswers': {
    roles: ['participant', 'organizator', 'coordinator'],
    meaning: 'save several answers; query registrationCode lets staff key in a paper form',
    query: registrationQuerySchema,
    body: keyInAnswersBodySchema,
    response: saveAnswersResponseSchema,
  },
  'POST /api/exam/test/saveanswers_with_files': {
    roles: ['participant', 'organizator', 'coordinator'],
    meaning: 'multipart: answers plus attached files; query registrationCode',
    query: registrationQuerySchema,
    response: saveAnswersWithFilesResponseSchema,
  },
  'GET /api/files/{id}/ext': {
    roles: 'any',
    meaning: 'file extension / media type',
    params: z.object({ id: idParamSchema }),
    response: fileExtSchema,
  },
  'GET /api/files/{id}': {
    roles: 'any',
    meaning: 'download a file the caller may see',
    params: z.object({ id: idParamSchema }),
    raw: 'file',
  },
  'GET /api/help': {
    roles: 'anon',
    meaning: 'help sections',
    query: helpListQuerySchema,
    response: helpListSchema,
  },
  'GET /api/help/{id}': {
    roles: 'anon',
    meaning: 'one help section',
    params: z.strictObject({ id: idParamSchema }),
    response: helpSectionSchema,
  },
  'GET /api/KimHtmlContainer/{id}': {
    roles: ['participant', 'admin', 'expert'],
    meaning: 'interactive content container metadata',
    params: idPathSchema,
    response: htmlContainerSchema,
  },
  'GET /api/test/procedure/{id}': {
    roles: 'any',
    meaning: 'test procedure (rules) text',
    params: idPathSchema,
    response: subjectTestHtmlSchema,
  },
  'GET /api/user/checkTechSpec': {
    roles: 'anon',
    meaning: 'device/browser check against the technical requirements',
    query: techSpecQuerySchema,
    response: techSpecResultSchema,
  },
  'GET /api/user': {
    roles: 'any',
    meaning: 'current user (roles, school, display name)',
    response: currentUserSchema,
  },
  'GET /api/user/hasSession': {
    roles: 'anon',
    meaning: 'is there a live session',
    response: z.boolean(),
  },
  'PUT /api/user/saveParticipant': {
    roles: ['participant'],
    meaning: 'participant completes own card (names, class) before starting',
    body: participantCardBodySchema,
    response: participantCardSchema,
  },
  'GET /api/user/sessionTime': {
    roles: 'any',
    meaning: 'session expiry as an ISO string',
    response: z.string(),
  },
  'GET /api/Account/LoginChallenge': {
    roles: 'anon',
    meaning: 'a proof-of-work challenge for activation-code attempts',
    ours: true,
    response: powChallengeSchema,
  },
  'GET /api/monitoring/messages': {
    roles: ['participant'],
    meaning: "the participant's own unread staff messages",
    ours: true,
    response: staffMessagesSchema,
  },
  'POST /api/monitoring/messages/{id}/read': {
    roles: ['participant'],
    meaning: 'the participant dismissed a staff message',
    ours: true,
    params: idPathSchema,
    response: staffMessageSchema,
  },
  'POST /api/monitoring/integrity': {
    roles: ['participant'],
    meaning: 'an integrity event of the participant (tab left, paste…)',
    ours: true,
    body: integrityEventSchema,
    response: z.object({ accepted: z.boolean() }),
  },
  'PUT /api/exam/test/examwork/{examWorkId}/{variantTaskId}/flag': {
    roles: ['participant'],
    meaning: 'flag or unflag a task of own running work',
    ours: true,
    params: z.strictObject({ examWorkId: idParamSchema, variantTaskId: idParamSchema }),
    body: flagBodySchema,
    response: flagResultSchema,
  },
  'POST /api/exam/test/examwork/break/start': {
    roles: ['participant'],
    meaning: "start a rest break of the participant's accommodations profile: the clock stops",
    ours: true,
    body: restBreakBodySchema,
    response: pauseStateSchema,
  },
  'POST /api/exam/test/examwork/break/end': {
    roles: ['participant'],
    meaning: 'end the rest break in force: the deadline moves on by its length',
    ours: true,
    body: restBreakBodySchema,
    response: pauseStateSchema,
  },
} as const satisfies CallTable;

/**
 * The schemas the participant's browser has at hand (web/src/lib/call.ts): its own calls and the
 * notifications; every other call's schemas are loaded with the first call outside this set.
 */
export const PARTICIPANT_CALL_SCHEMAS = { ...NOTIFICATIONS_CALLS, ...PARTICIPANT_CALLS } as const;
