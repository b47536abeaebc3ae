/**
 * Signed machine-to-machine calls (docs/integrations.md): the proctoring service's webhooks, the
 * push of a diagnostic's results to the upstream Attesta instance, and its receiving side.
 * A signed request carries `X-Timestamp` (Unix seconds), `X-Nonce` (16–128 of A–Z a–z 0–9 _ -)
 * and `X-Signature` (hex HMAC-SHA256 of `timestamp + "\n" + nonce + "\n" + raw body`).
 */
import { z } from 'zod';
import { reportAttestaSchema } from './reports.js';

export const SIGNATURE_HEADER = 'x-signature';
export const TIMESTAMP_HEADER = 'x-timestamp';
export const NONCE_HEADER = 'x-nonce';
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** A signed request whose timestamp is further than this from the server's clock is refused. */
export const SIGNATURE_MAX_SKEW_SECONDS = 300;

const sessionId = z
  .string()
  .regex(/^[\w.:-]{1,200}$/, '1–200 of letters, digits and . : _ -')
  .describe("the proctoring service's session id");
const proctoringToken = z
  .string()
  .min(1)
  .max(4000)
  .describe('the proctoring token Attesta issued for the sitting (getProctoringToken)');

export const proctoringStartBodySchema = z
  .object({ sessionId, token: proctoringToken })
  .meta({ id: 'ProctoringStartSession' });
export type ProctoringStartBody = z.infer<typeof proctoringStartBodySchema>;

export const proctoringEndBodySchema = z
  .object({
    sessionId,
    token: proctoringToken.optional().describe('needed only when start_session was not received'),
    verdict: z.string().trim().min(1).max(200).describe("the service's verdict, e.g. «нарушений нет»"),
    score: z.number().min(0).max(100).optional().describe('a trust score, 0–100'),
    comment: z.string().max(2000).optional(),
  })
  .meta({ id: 'ProctoringEndSession' });
export type ProctoringEndBody = z.infer<typeof proctoringEndBodySchema>;

export const proctoringWebhookResultSchema = z
  .object({
    examWorkId: z.number().int(),
    sessionId: z.string(),
    verdict: z.string().nullable(),
    changed: z.boolean().describe('false when the same call came before and nothing changed'),
  })
  .meta({ id: 'ProctoringWebhookResult' });
export type ProctoringWebhookResult = z.infer<typeof proctoringWebhookResultSchema>;

/** 202 of importResultToAttesta: the queue item pushing the results. */
export const upstreamPushQueuedSchema = z
  .object({
    queueItemId: z.number().int(),
    idempotencyKey: z.string().describe('the key the push carries: per diagnostic and content'),
    results: z.number().int().describe('published results the push holds'),
  })
  .meta({ id: 'UpstreamPushQueued' });
export type UpstreamPushQueued = z.infer<typeof upstreamPushQueuedSchema>;

/** What one instance pushes to another: a diagnostic's published results in the attesta layout. */
export const attestaPushBodySchema = z
  .object({
    diagnosticExternalId: z.string().min(1).max(100).describe("the sender's diagnostic id"),
    report: reportAttestaSchema,
  })
  .meta({ id: 'AttestaResultsPush' });
export type AttestaPushBody = z.infer<typeof attestaPushBodySchema>;

export const attestaPushResultSchema = z
  .object({
    idempotencyKey: z.string(),
    diagnosticExternalId: z.string(),
    received: z.number().int().describe('results stored by this push'),
    receivedAt: z.string(),
  })
  .meta({ id: 'AttestaResultsPushReceived' });
export type AttestaPushResult = z.infer<typeof attestaPushResultSchema>;
