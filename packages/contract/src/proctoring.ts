import { z } from 'zod';

/*
 * Online proctoring (/api/exam/test/getProctoring*): the participant's browser opens the
 * proctoring service with a short-lived token Attesta signed (HS256 JWS, shared secret).
 */

export const proctoringTokenSchema = z
  .object({
    token: z
      .string()
      .describe(
        'compact JWS (HS256): sub = participant test id, ewid = exam work id (absent before the work starts), ' +
          'name, iat, exp, jti, iss = "attesta", aud = provider',
      ),
    expiresAt: z
      .string()
      .describe('ISO instant (UTC, Z): at most 4 hours ahead, never past the deadline + 15 minutes'),
    examWorkId: z.number().int().nullable().describe('the current work, or null before it starts'),
    provider: z.string().describe('the proctoring service, e.g. proctoredu'),
  })
  .meta({ id: 'ProctoringToken' });
export type ProctoringToken = z.infer<typeof proctoringTokenSchema>;

export const proctoringUrlQuerySchema = z.object({
  url: z
    .string()
    .trim()
    .max(2000)
    .optional()
    .describe(
      'proctoring page to open; must be on the configured proctoring service origin (default: its page)',
    ),
  returnUrl: z
    .string()
    .trim()
    .max(2000)
    .optional()
    .describe(
      'where the service sends the participant back: a path of this site ("/exam/run") or a URL on it',
    ),
});
export type ProctoringUrlQuery = z.infer<typeof proctoringUrlQuerySchema>;

export const proctoringUrlSchema = z
  .object({
    url: z.string().describe('the page to open: the service URL with `token` and `returnUrl` appended'),
  })
  .meta({ id: 'ProctoringUrl' });
export type ProctoringUrl = z.infer<typeof proctoringUrlSchema>;
