import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import {
  IDEMPOTENCY_HEADER,
  type AttestaPushBody,
  type ReportAttesta,
  type UpstreamPushQueued,
} from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import { rowsOf, type Db } from '../../db/client.js';
import { diagnostics } from '../../db/schema/index.js';
import { enqueue, type QueueItemRow } from '../../jobs/queue.js';
import { PermanentJobError, type JobContext, type JobHandler } from '../../jobs/runner.js';
import { audit } from '../../lib/audit.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { attestaData } from '../reports/index.js';
import { signedHeaders } from './signature.js';

/*
 * importResultToAttesta (docs/integrations.md, "Upstream push"): a diagnostic's published results,
 * in the attesta export layout of the reports module, POSTed to the upstream Attesta instance by an
 * `upstream_push` queue item: signed (signature.ts), with an Idempotency-Key per diagnostic and
 * content, retried with the queue's exponential backoff while the upstream fails or is unreachable.
 * Who may ask is the route's rule (an admin, or an API key of the `push` scope whose ОО holds the
 * whole diagnostic); the request and every attempt's outcome are audited.
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

/**
 * Whether every registration and every school of a diagnostic belongs to an ОО: what a key limited
 * to that ОО may push (a push sends the whole diagnostic, so one school of another ОО is enough to
 * refuse). A registration without a school is of no ОО. Null when there is no such diagnostic.
 */
export async function diagnosticWithinOo(
  db: Db,
  diagnosticId: number,
  ooId: number,
): Promise<boolean | null> {
  const [row] = rowsOf<{ within: boolean }>(
    await db.execute(sql`
      select not exists (
          select 1 from diagnostic_schools ds join schools s on s.id = ds.school_id
          where ds.diagnostic_id = d.id and s.oo_id <> ${ooId})
        and not exists (
          select 1 from participant_tests pt left join schools s on s.id = pt.school_id
          where pt.diagnostic_id = d.id and pt.deleted_at is null and (s.oo_id is null or s.oo_id <> ${ooId})
        ) as "within"
      from diagnostics d where d.id = ${diagnosticId} and d.deleted_at is null`),
  );
  return row ? Boolean(row.within) : null;
}

/** Who asked for a push: the audit's actor. */
export interface PushActor {
  auth: AuthContext;
  ip: string | null;
  /** The ОО of the caller's API key (null: an admin, or a key of every ОО). */
  ooId: number | null;
}

/** GET importResultToAttesta/{id}: queues the push (202). 409 when not configured or nothing is published. */
export async function queuePush(
  ctx: AppContext,
  actor: PushActor,
  diagnosticId: number,
): Promise<UpstreamPushQueued> {
  const { auth } = actor;
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
  return ctx.db.transaction(async (tx) => {
    const { item, created } = await enqueue(tx, {
      type: UPSTREAM_PUSH_JOB,
      diagnosticId,
      payload: { diagnosticId },
      // The same content queued twice is one push.
      dedupeKey: `${UPSTREAM_PUSH_JOB}:${idempotencyKey}`,
      createdBy: auth.userId,
      maxAttempts: UPSTREAM_PUSH_ATTEMPTS,
    });
    await audit(tx, {
      userId: auth.userId,
      action: 'integration.push',
      entity: 'diagnostic',
      entityId: diagnosticId,
      details: {
        queueItemId: item.id,
        queued: created,
        idempotencyKey,
        results: report.items.length,
        via: auth.via === 'api_key' ? 'api_key' : 'session',
        ooId: actor.ooId,
      },
      ip: actor.ip,
    });
    return { queueItemId: item.id, idempotencyKey, results: report.items.length };
  });
}

/** One attempt's outcome in the audit trail: who acted is the system (the queue), for who asked. */
function auditAttempt(
  db: Db,
  item: QueueItemRow,
  outcome: { delivered: boolean; details: Record<string, unknown> },
) {
  return audit(db, {
    userId: null,
    action: outcome.delivered ? 'integration.push.delivered' : 'integration.push.failed',
    entity: 'diagnostic',
    entityId: Number(item.payload.diagnosticId),
    details: {
      queueItemId: item.id,
      attempt: item.attempts,
      maxAttempts: item.maxAttempts,
      requestedBy: item.createdBy,
      ...outcome.details,
    },
  });
}

/** The job: one attempt (attemptPush), its outcome audited whatever it is. */
export function upstreamPushJob(ctx: AppContext): JobHandler {
  return async (job) => {
    try {
      const outcome = await attemptPush(ctx, job);
      await auditAttempt(job.db, job.item, { delivered: true, details: outcome.result });
      return outcome;
    } catch (err) {
      const code = err instanceof AppError || err instanceof PermanentJobError ? err.code : 'job_failed';
      await auditAttempt(job.db, job.item, {
        delivered: false,
        details: {
          code,
          reason: err instanceof Error ? err.message : 'error',
          final: err instanceof PermanentJobError || job.item.attempts >= job.item.maxAttempts,
        },
      }).catch((auditErr: unknown) => job.log.warn({ err: auditErr }, 'upstream push: audit failed'));
      throw err;
    }
  };
}

/**
 * One attempt: reads the published results now (the content of the push decides its key), POSTs
 * them and succeeds on a 2xx. A 5xx, 408, 429, timeout or network error is retried with backoff;
 * any other answer of the upstream (a refused signature, a bad body) fails for good.
 */
async function attemptPush(
  ctx: AppContext,
  { db, item, log }: JobContext,
): Promise<{ result: Record<string, unknown> }> {
  const upstream = ctx.config.upstreamAttesta;
  if (!upstream) throw new PermanentJobError('UPSTREAM_ATTESTA_URL is not configured', 'not_configured');
  const diagnosticId = Number(item.payload.diagnosticId);
  const report = await publishedReport(db, diagnosticId);
  if (!report.items.length)
    throw new PermanentJobError('The diagnostic has no published results any more', 'results_not_published');
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
}
