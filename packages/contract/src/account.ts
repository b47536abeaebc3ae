import { z } from 'zod';
import { roleSchema } from './roles.js';

export const LOGIN_MAX = 100;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
export const POW_PROOF_MAX = 4000;

/** An ALTCHA (v2) proof-of-work challenge, passed through as the server signed it. */
export const powChallengeSchema = z
  .object({
    parameters: z.record(z.string(), z.unknown()),
    signature: z.string(),
  })
  .meta({ id: 'PowChallenge' });
export type PowChallenge = z.infer<typeof powChallengeSchema>;

export const activationCodeSchema = z
  .string()
  .trim()
  .min(4)
  .max(32)
  .regex(/^[A-Za-z0-9-]+$/, 'letters, digits and dashes only');

export const loginBodySchema = z.union([
  z.strictObject({
    login: z.string().trim().min(1).max(LOGIN_MAX),
    password: z.string().min(1).max(PASSWORD_MAX),
    remember: z.boolean().optional(),
  }),
  z.strictObject({
    activationCode: activationCodeSchema,
    // Asked for (428 `proof_of_work_required`) only after many wrong codes from one address: a
    // solved challenge of `GET /api/Account/LoginChallenge`, as JSON `{challenge, solution}`.
    proof: z.string().min(2).max(POW_PROOF_MAX).optional(),
  }),
]);
export type LoginBody = z.infer<typeof loginBodySchema>;

export const currentUserSchema = z
  .object({
    id: z.number().int().positive(),
    login: z.string(),
    displayName: z.string(),
    roles: z.array(roleSchema),
    email: z.string().nullable().optional(),
    schoolId: z.number().int().nullable().optional(),
    schoolName: z.string().nullable().optional(),
    participantTestId: z.number().int().nullable().optional(),
  })
  .meta({ id: 'CurrentUser' });
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const loginResponseSchema = z
  .object({
    user: currentUserSchema,
    expiresAt: z.string().describe('ISO instant when the session ends unless used'),
    token: z.string().describe('bearer form of the same session, for the app shell'),
  })
  .meta({ id: 'LoginResponse' });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, `at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX);

const personNamePart = z.string().trim().min(1).max(100);

/**
 * `POST /api/Account/Register` — two shapes: a new guest registration (an e-mail with a
 * confirmation link is sent; the account cannot log in until confirmed), or the confirmation
 * itself with the token from that e-mail.
 */
export const registerBodySchema = z.union([
  z.strictObject({
    email: z.email().max(200),
    password: passwordSchema,
    surname: personNamePart,
    name: personNamePart,
    patronymic: z.string().trim().max(100).optional(),
    parallel: z.number().int().min(0).max(11).optional(),
  }),
  z.strictObject({ confirmationToken: z.string().min(10).max(200) }),
]);
export type RegisterBody = z.infer<typeof registerBodySchema>;
export const registerResponseSchema = z.object({
  status: z.enum(['confirmation_sent', 'confirmed']),
});

/** `POST /api/Account/SendRegistrationEMail` — always answers the same, whether the address is known or not. */
export const sendRegistrationEmailBodySchema = z.strictObject({
  email: z.email().max(200),
  kind: z.enum(['confirm', 'reset']).default('confirm'),
});

/** `POST /api/Account/ResetPassword` with the token from the reset e-mail. */
export const resetPasswordBodySchema = z.strictObject({
  token: z.string().min(10).max(200),
  newPassword: passwordSchema,
});

/** `POST /api/Account/ChangePassword` — own password. Other sessions of the user end. */
export const changePasswordBodySchema = z.strictObject({
  oldPassword: z.string().min(1).max(PASSWORD_MAX),
  newPassword: passwordSchema,
});

/** `POST /api/Account/LogOff` answer: where the client should go next (docs/design.md §5). */
export const logOffResponseSchema = z.object({ redirectTo: z.string().nullable() });

export const okSchema = z.object({ ok: z.literal(true) });

export const parallelSchema = z.object({
  id: z.number().int().min(0).max(11),
  name: z.string(),
});
export type Parallel = z.infer<typeof parallelSchema>;

/** `GET /api/Account/hashpassword` (bulk imports): the password in the query, its hash in the answer. */
export const hashPasswordQuerySchema = z.strictObject({ pass: z.string().min(1).max(PASSWORD_MAX) });
export const hashPasswordResultSchema = z.object({ hash: z.string() });

/** `POST /api/Account/LogoutByAppLogin`: end every app-shell session of a login. */
export const logoutByAppLoginBodySchema = z.strictObject({
  login: z.string().trim().min(1).max(LOGIN_MAX),
  reason: z.string().trim().max(500).optional().describe('why (kept in the audit trail)'),
});

/**
 * `GET /api/Account/ExternalLogin`: starting an OpenID Connect login, or the provider's callback.
 * Not strict: providers add parameters of their own to the callback (scope, authuser...).
 */
export const externalLoginQuerySchema = z.object({
  provider: z.string().max(100).optional(),
  error: z.string().max(200).optional(),
  code: z.string().max(2000).optional(),
  state: z.string().max(500).optional(),
  iss: z.string().max(500).optional(),
});

/** `GET /api/Account/ObtainLocalAccessToken`: a provider access token exchanged for a local session. */
export const obtainLocalAccessTokenQuerySchema = z.strictObject({
  provider: z.string().min(1).max(100),
  providerKey: z.string().min(1).max(500),
  externalAccessToken: z.string().min(1).max(8000),
});
