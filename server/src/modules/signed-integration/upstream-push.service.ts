import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  IDEMPOTENCY_HEADER,
  type AttestaPushBody,
  type ReportAttesta,
  type UpstreamPushQueued,
} from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { diagnostics } from '../../db/schema/index.js';
import { enqueue } from '../../jobs/queue.js';
import { PermanentJobError, type JobHandler } from '../../jobs/runner.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { attestaData } from '../reports/index.js';
import { signedHeaders } from './signature.js';

/*
 * importResultToAttesta (docs/integrations.md, "Upstream push"): a diagnostic's published results,
 * in the attesta export layout of the reports module, POSTed to the upstream Attesta instance by an
 * `upstream_push` queue item: signed (signature.ts), with an Idempotency-Key per diagnostic and
 * content, retried with the queue's exponential backoff while the upstream fails or is unreachable.
 */

export const UPSTREAM_PUSH_JOB = 'upstream_push';
/** Attempts of a push: the first and four retries (the queue waits 60 s, 120 s, 240 s, 480 s). */
export const UPSTREAM_PUSH_ATTEMPTS = 5;
/** Where the upstream instance receives pushes, under UPSTREAM_ATTESTA_URL. */
export const RECEIVE_PATH = '/api/integration/attesta/results';
const REQUEST_TIMEOUT_MS = 30_000;

type Upstream = NonNullable<Config['upstreamAttesta']>;

/** The export reads every published result: the push acts for the platform, as an admin would. */
const SYSTEM: AuthContext = {
  userId: 0,
  login: 'system',
  displayName: 'system',
  roles: ['admin'],
  email: null,
  schoolId: null,
  ooId: null,
  studentId: null,
  workerId: null,
  participantTestId: null,
  activationCode: null,
  sessionId: 'system',
  via: 'api_key',
  kind: 'system',
  appShell: false,
  expiresAt: new Date(8.64e15),
};

/** The SHA-256 of the results (not of when they were read), the same on both ends. */
export const contentHashOf = (items: ReportAttesta['items']) =>
  createHash('sha256').update(JSON.stringify(items)).digest('hex');

export const idempotencyKeyOf = (diagnosticId: number, items: ReportAttesta['items']) =>
  `attesta-${diagnosticId}-${contentHashOf(items).slice(0, 32)}`;

async function publishedReport(db: Db, diagnosticId: number): Promise<ReportAttesta> {
  return attestaData({ db, auth: SYSTEM }, { diagnosticId, format: 'json' });
}

function upstreamOf(config: Config): Upstream {
  if (!config.upstreamAttesta)
    throw conflict(
      'not_configured',
      'No upstream Attesta is configured on this server (UPSTREAM_ATTESTA_URL and UPSTREAM_ATTESTA_SECRET)',
    );
  return config.upstreamAttesta;
}

/** GET importResultToAttesta/{id}: queues the push (202). 409 when not configured or nothing is published. */
export async function queuePush(
  ctx: AppContext,
  auth: AuthContext,
  diagnosticId: number,
): Promise<UpstreamPushQueued> {
  upstreamOf(ctx.config);
  const [diagnostic] = await ctx.db
    .select({ id: diagnostics.id })
    .from(diagnostics)
    .where(eq(diagnostics.id, diagnosticId));
  if (!diagnostic) throw notFound('No such diagnostic');
  const report = await publishedReport(ctx.db, diagnosticId);
  if (!report.items.length)
    throw conflict('results_not_published', 'The diagnostic has no published results to push');
  const idempotencyKey = idempotencyKeyOf(diagnosticId, report.items);
  const { item } = await enqueue(ctx.db, {
    type: UPSTREAM_PUSH_JOB,
    diagnosticId,
    payload: { diagnosticId },
    // The same content queued twice is one push.
    dedupeKey: `${UPSTREAM_PUSH_JOB}:${idempotencyKey}`,
    createdBy: auth.userId,
    maxAttempts: UPSTREAM_PUSH_ATTEMPTS,
  });
  return { queueItemId: item.id, idempotencyKey, results: report.items.length };
}

/**
 * The job: reads the published results now (the content of the push decides its key), POSTs them
 * and succeeds on a 2xx. A 5xx, 408, 429, timeout or network error is retried with backoff; any
 * other answer of the upstream (a refused signature, a bad body) fails for good.
 */
export function upstreamPushJob(ctx: AppContext): JobHandler {
  return async ({ db, item, log }) => {
    const upstream = ctx.config.upstreamAttesta;
    if (!upstream) throw new PermanentJobError('UPSTREAM_ATTESTA_URL is not configured', 'not_configured');
    const diagnosticId = Number(item.payload.diagnosticId);
    const report = await publishedReport(db, diagnosticId);
    if (!report.items.length)
      throw new PermanentJobError(
        'The diagnostic has no published results any more',
        'results_not_published',
      );
    const idempotencyKey = idempotencyKeyOf(diagnosticId, report.items);
    const push: AttestaPushBody = { diagnosticExternalId: String(diagnosticId), report };
    const body = JSON.stringify(push);
    let res: Response;
    try {
      res = await fetch(`${upstream.url}${RECEIVE_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [IDEMPOTENCY_HEADER]: idempotencyKey,
          ...signedHeaders(upstream.secret, body),
        },
        body,
        redirect: 'error',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      const timeout = err instanceof Error && err.name === 'TimeoutError';
      log.warn({ err: err instanceof Error ? err.name : 'error' }, 'upstream push: no answer');
      throw new AppError(
        502,
        timeout ? 'upstream_timeout' : 'upstream_failed',
        timeout ? 'The upstream Attesta did not answer in time' : 'The upstream Attesta could not be reached',
      );
    }
    const answer = await res.text();
    if (res.ok) {
      let received: unknown = null;
      try {
        received = (JSON.parse(answer) as { received?: unknown }).received ?? null;
      } catch {
        // The push is delivered; what the upstream said about it is only shown.
      }
      return {
        result: { idempotencyKey, results: report.items.length, upstreamStatus: res.status, received },
      };
    }
    const message = `The upstream Attesta answered HTTP ${res.status}`;
    if (res.status >= 500 || res.status === 408 || res.status === 429)
      throw new AppError(502, 'upstream_failed', message);
    throw new PermanentJobError(message, 'upstream_failed');
  };
}
