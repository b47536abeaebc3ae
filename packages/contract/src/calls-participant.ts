/**
 * Rows of CALL_SCHEMAS (calls.ts) a participant's browser calls: the login, the session, the exam
 * runner, the staff's messages, notifications, help and the integrity reports. The web client has these at hand and
 * loads the rest of the contract's schemas only when another call is made (web/src/lib/call.ts),
 * so the participant's path does not download every call's schemas (docs/BENCHMARKS.md, issue 24).
 */
import { z } from 'zod';
import type { CallKey } from './endpoints.js';
import type { CallSchemas } from './call-schema.js';
import { NOTIFICATION_CALL_SCHEMAS } from './notifications.js';
import { fileExtSchema } from './kim.js';
import { blankLayoutSchema, blanksQuerySchema } from './blanks.js';
import { helpListQuerySchema, helpListSchema, helpSectionSchema } from './help.js';
import { participantCardBodySchema, participantCardSchema } from './user.js';
import { powChallengeSchema } from './account.js';
import {
  POW_PROOF_MAX,
  currentUserSchema,
  logOffResponseSchema,
  loginBodySchema,
  loginResponseSchema,
  okSchema,
} from './account.js';
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
} from './exam.js';
import { htmlContainerSchema, subjectTestHtmlSchema } from './kim.js';
import { integrityEventSchema, staffMessageSchema, staffMessagesSchema } from './monitoring.js';
import { idParamSchema, techSpecQuerySchema, techSpecResultSchema } from './user.js';

/** `{id}` of a path, as a positive integer. */
export const idPathSchema = z.strictObject({ id: idParamSchema });
/** An optional reason staff give for an action (audited). */
export const reasonTextSchema = z.string().trim().max(500).optional();
/** Staff keying in a paper answer form name the participant test by its registration code. */
export const registrationQuerySchema = z.strictObject({
  registrationCode: z.string().trim().min(1).max(32).optional().describe('staff keying in a paper form'),
});
/** `ids=1,2,3`: exam work ids, each once. */
export const workIdListSchema = z
  .string()
  .regex(/^\d{1,10}(,\d{1,10}){0,999}$/, 'comma-separated exam work ids')
  .transform((s) => [...new Set(s.split(',').map(Number))])
  .pipe(z.array(z.number().int().positive().max(2_147_483_647)));

export const PARTICIPANT_CALL_SCHEMAS = {
  ...NOTIFICATION_CALL_SCHEMAS,
  'GET /api/exam/test/checkActivationCode/{code}': {
    params: z.strictObject({ code: z.string().trim().min(1).max(64) }),
    headers: z.looseObject({ 'x-proof-of-work': z.string().min(2).max(POW_PROOF_MAX).optional() }),
    response: activationCodeCheckSchema,
  },
  'GET /api/exam/test/checkActivationCode': { response: activationCodeCheckSchema },
  'GET /api/exam/test/currentParticipantTest': { response: currentParticipantTestSchema },
  'GET /api/exam/test/examwork/timeBefore': { response: timeBeforeSchema },
  'GET /api/exam/test/examwork/participantTest/subjecttest': { response: subjectTestSummarySchema },
  'POST /api/exam/test/examwork/new': {
    body: z.strictObject({ answerMode: answerModeSchema.optional() }).optional(),
    response: examWorkStateSchema,
  },
  'GET /api/exam/test/examwork/checkexistsexamwork': { response: examWorkExistsSchema },
  'GET /api/exam/test/examwork/{id}': { params: idPathSchema, response: examWorkStateSchema },
  'GET /api/exam/test/examwork/left/{id}': { params: idPathSchema, response: timeLeftSchema },
  'PUT /api/exam/test/examwork/finish/{examWorkId}/{reason}': {
    params: z.strictObject({ examWorkId: idParamSchema, reason: z.enum(['manual', 'timeout']) }),
    response: examWorkStateSchema,
  },
  'PUT /api/exam/test/examwork/{id}/answertype/{type}': {
    params: z.strictObject({ id: idParamSchema, type: answerModeSchema }),
    response: answerModeResultSchema,
  },
  'PUT /api/exam/test/examwork/{examWorkId}/{variantTaskId}/answertype/{type}': {
    params: z.strictObject({
      examWorkId: idParamSchema,
      variantTaskId: idParamSchema,
      type: answerModeSchema,
    }),
    response: answerModeResultSchema,
  },
  'PUT /api/exam/test/examwork/{examWorkId}/{variantTaskId}/flag': {
    params: z.strictObject({ examWorkId: idParamSchema, variantTaskId: idParamSchema }),
    body: flagBodySchema,
    response: flagResultSchema,
  },
  'PUT /api/exam/test/saveanswer': { body: saveAnswerBodySchema, response: saveAnswerResponseSchema },
  'PUT /api/exam/test/saveanswers': {
    query: registrationQuerySchema,
    body: keyInAnswersBodySchema,
    response: saveAnswersResponseSchema,
  },
  'POST /api/exam/test/saveanswers_with_files': {
    query: registrationQuerySchema,
    response: saveAnswersWithFilesResponseSchema,
  },
  'GET /api/exam/test/examwork/pause': { response: pauseStateSchema },
  'POST /api/exam/test/examwork/pause': { body: pauseBodySchema, response: pauseResultSchema },
  'POST /api/exam/test/examwork/break/start': { body: restBreakBodySchema, response: pauseStateSchema },
  'POST /api/exam/test/examwork/break/end': { body: restBreakBodySchema, response: pauseStateSchema },
  'GET /api/exam/test/variant/current': { response: participantVariantSchema },
  'GET /api/exam/test/variant/{id}': { params: idPathSchema, response: participantVariantSchema },
  'GET /api/exam/test/variant/resolve/{id}': { params: idPathSchema, response: resolvedVariantSchema },
  'DELETE /api/exam/test/examwork/{id}': {
    params: idPathSchema,
    query: z.object({ reason: reasonTextSchema }),
    response: okSchema,
  },
  'GET /api/exam/test/examwork/ChangeTimeTill': {
    query: z.object({ ids: workIdListSchema, timeSpan: z.string().max(32), reason: reasonTextSchema }),
    response: changeTimeResultSchema,
  },
  'GET /api/exam/test/getparticipanttestbyresultid/{id}': {
    params: idPathSchema,
    response: participantTestCardSchema,
  },
  'GET /api/exam/test/getQuizCurrentParticipantTest': { response: quizSchema },
  'PUT /api/exam/test/saveQuizCurrentParticipantTest': {
    body: saveQuizBodySchema,
    response: saveQuizResponseSchema,
  },
  'GET /api/exam/test/description/{id}': { params: idPathSchema, response: subjectTestHtmlSchema },
  'GET /api/test/procedure/{id}': { params: idPathSchema, response: subjectTestHtmlSchema },
  'GET /api/KimHtmlContainer/{id}': { params: idPathSchema, response: htmlContainerSchema },
  'GET /api/user/checkTechSpec': { query: techSpecQuerySchema, response: techSpecResultSchema },
  'GET /api/monitoring/messages': { response: staffMessagesSchema },
  'POST /api/monitoring/messages/{id}/read': { params: idPathSchema, response: staffMessageSchema },
  'GET /api/user': { response: currentUserSchema },
  'GET /api/user/sessionTime': { response: z.string() },
  'POST /api/Account/login': { body: loginBodySchema, response: loginResponseSchema },
  'POST /api/monitoring/integrity': {
    body: integrityEventSchema,
    response: z.object({ accepted: z.boolean() }),
  },
  'POST /api/Account/LogOff': {
    body: z.strictObject({ returnUrl: z.string().max(2000).optional() }).nullish(),
    response: logOffResponseSchema,
  },
  'GET /api/Account/LoginChallenge': { response: powChallengeSchema },
  'GET /api/files/{id}': { params: z.object({ id: idParamSchema }), raw: 'file' },
  'GET /api/user/hasSession': { response: z.boolean() },
  'GET /api/help': { query: helpListQuerySchema, response: helpListSchema },
  'GET /api/help/{id}': { params: z.strictObject({ id: idParamSchema }), response: helpSectionSchema },
  'GET /api/exam/test/examwork/{id}/blanks': {
    params: z.object({ id: idParamSchema }),
    query: blanksQuerySchema,
    // format=pdf (the default) answers the PDF itself; this is the answer of format=layout.
    response: blankLayoutSchema,
  },
  'PUT /api/user/saveParticipant': { body: participantCardBodySchema, response: participantCardSchema },
  'GET /api/files/{id}/ext': { params: z.object({ id: idParamSchema }), response: fileExtSchema },
} as const satisfies Partial<Record<CallKey, CallSchemas>>;
