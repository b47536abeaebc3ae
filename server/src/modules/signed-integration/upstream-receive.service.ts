import { eq } from 'drizzle-orm';
import type { AttestaPushBody, AttestaPushResult } from '@attesta/contract';
import type { AppContext } from '../../context.js';
import { receivedPushes, receivedResults } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { AppError, badRequest, conflict } from '../../lib/errors.js';
import { contentHashOf } from './upstream-push.service.js';

/*
 * POST /api/integration/attesta/results (ours): the receiving side of an upstream push, after the
 * signature check. Each push is applied once by its Idempotency-Key: the first stores its results
 * (received_results) and its answer (received_pushes) in one transaction; a push with the same
 * key answers that first answer and stores nothing; the same key with other results is 409.
 * Every accepted push leaves an audit row (`integration.push.received`, `repeated` for a second one),
 * in the transaction that stores it.
 */

const KEY_PATTERN = /^[\w.:-]{8,200}$/;

export function receiveSecretOf(ctx: AppContext): string {
  if (!ctx.config.attestaReceiveSecret)
    throw new AppError(
      404,
      'not_configured',
      'Receiving results is not set up on this server (ATTESTA_RECEIVE_SECRET)',
    );
  return ctx.config.attestaReceiveSecret;
}

export async function receivePush(
  ctx: AppContext,
  idempotencyKey: string | undefined,
  body: AttestaPushBody,
  ip: string | null,
): Promise<AttestaPushResult> {
  if (!idempotencyKey || !KEY_PATTERN.test(idempotencyKey))
    throw badRequest('bad_request', 'The Idempotency-Key header is missing or malformed', [
      { path: 'headers.idempotency-key', message: '8–200 of letters, digits and . : _ -' },
    ]);
  const contentHash = contentHashOf(body.report.items);
  return ctx.db.transaction(async (tx) => {
    const receivedAt = new Date();
    const auditReceived = (repeated: boolean) =>
      audit(tx, {
        userId: null,
        action: 'integration.push.received',
        entity: 'received_push',
        entityId: idempotencyKey,
        details: {
          diagnosticExternalId: body.diagnosticExternalId,
          results: body.report.items.length,
          repeated,
        },
        ip,
      });
    const response: AttestaPushResult = {
      idempotencyKey,
      diagnosticExternalId: body.diagnosticExternalId,
      received: body.report.items.length,
      receivedAt: receivedAt.toISOString(),
    };
    // A concurrent push of the same key waits here for the first one's commit, then finds it.
    const [first] = await tx
      .insert(receivedPushes)
      .values({
        idempotencyKey,
        diagnosticExternalId: body.diagnosticExternalId,
        contentHash,
        response: { ...response },
        receivedAt,
      })
      .onConflictDoNothing()
      .returning({ key: receivedPushes.idempotencyKey });
    if (!first) {
      const [earlier] = await tx
        .select()
        .from(receivedPushes)
        .where(eq(receivedPushes.idempotencyKey, idempotencyKey));
      if (
        !earlier ||
        earlier.contentHash !== contentHash ||
        earlier.diagnosticExternalId !== body.diagnosticExternalId
      )
        throw conflict('conflict', 'This Idempotency-Key was used for other results');
      await auditReceived(true);
      return earlier.response as AttestaPushResult;
    }
    if (body.report.items.length)
      await tx.insert(receivedResults).values(
        body.report.items.map((item) => ({
          diagnosticExternalId: body.diagnosticExternalId,
          idempotencyKey,
          participantCode: item.participantCode,
          payload: item as unknown as Record<string, unknown>,
          receivedAt,
        })),
      );
    await auditReceived(false);
    return response;
  });
}
