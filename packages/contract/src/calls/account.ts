/** The calls of the account area (server/src/modules/account), each with its roles, meaning and schemas. */
import { z } from 'zod';
import {
  activationCodeSchema,
  changePasswordBodySchema,
  externalLoginQuerySchema,
  hashPasswordQuerySchema,
  hashPasswordResultSchema,
  loginResponseSchema,
  logoutByAppLoginBodySchema,
  obtainLocalAccessTokenQuerySchema,
  okSchema,
  parallelSchema,
  registerBodySchema,
  registerResponseSchema,
  resetPasswordBodySchema,
  sendRegistrationEmailBodySchema,
} from '../account.js';
import type { CallTable } from '../call-schema.js';

export const ACCOUNT_CALLS = {
  'POST /api/Account/ChangePassword': {
    roles: 'any',
    meaning: 'current user changes own password (old + new)',
    body: changePasswordBodySchema,
    response: okSchema,
  },
  // A redirect (302) to the provider, to the app or to the login page: no JSON answer.
  'GET /api/Account/ExternalLogin': {
    roles: 'anon',
    meaning: 'start/finish external (OIDC/OAuth) login; query provider, error',
    query: externalLoginQuerySchema,
    raw: 'redirect',
  },
  'GET /api/Account/Parallels': {
    roles: 'anon',
    meaning: 'list of parallels (grades 1-11 etc.) for the registration form',
    response: z.array(parallelSchema),
  },
  'GET /api/Account/hashpassword': {
    roles: ['admin'],
    meaning: "hash of query pass with the server's password hasher (for bulk imports)",
    query: hashPasswordQuerySchema,
    response: hashPasswordResultSchema,
  },
  'POST /api/Account/LogoutByActivationCode': {
    roles: ['organizator', 'coordinator', 'admin'],
    meaning: 'end every session bound to an activation code',
    body: z.strictObject({
      activationCode: activationCodeSchema,
      reason: z.string().trim().max(500).optional().describe('why (kept in the audit trail)'),
    }),
    response: z.object({ ended: z.number().int() }),
  },
  'POST /api/Account/LogoutByAppLogin': {
    roles: ['organizator', 'coordinator', 'admin'],
    meaning: 'end every session of a login made from the mobile app shell',
    body: logoutByAppLoginBodySchema,
    response: z.object({ ended: z.number().int() }),
  },
  'POST /api/Account/LogoutParticipant': {
    roles: ['participant'],
    meaning: 'participant leaves; exam work stays saved',
    response: okSchema,
  },
  'GET /api/Account/ObtainLocalAccessToken': {
    roles: 'anon',
    meaning:
      'exchange an external provider token for a local access token; query provider, providerKey, externalAccessToken',
    query: obtainLocalAccessTokenQuerySchema,
    response: loginResponseSchema,
  },
  'POST /api/Account/Register': {
    roles: 'anon',
    meaning: 'self-registration of a guest account',
    body: registerBodySchema,
    response: registerResponseSchema,
  },
  'POST /api/Account/ResetPassword': {
    roles: 'anon',
    meaning: 'reset password with an emailed token',
    body: resetPasswordBodySchema,
    response: okSchema,
  },
  'POST /api/Account/SendRegistrationEMail': {
    roles: 'anon',
    meaning: '(re)send the confirmation / reset e-mail',
    body: sendRegistrationEmailBodySchema,
    response: okSchema,
  },
} as const satisfies CallTable;
