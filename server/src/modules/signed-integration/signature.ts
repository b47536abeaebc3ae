import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { lt, sql } from 'drizzle-orm';
import {
  NONCE_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_MAX_SKEW_SECONDS,
  TIMESTAMP_HEADER,
} from '@attesta/contract';
import type { DbOrTx } from '../../db/client.js';
import { integrationNonces } from '../../db/schema/index.js';
import { AppError, unauthorized } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';

/*
 * Signed machine-to-machine requests (docs/integrations.md, "Signed requests"): the body is
 * authenticated by an HMAC-SHA256 over `timestamp \n nonce \n raw body` with a shared secret,
 * the timestamp must be within 5 minutes of our clock and the nonce must be new. Nonces are kept
 * in the database (integration_nonces) while their timestamp could still pass, so a replay is
 * refused by every instance.
 */

/** Who signs: nonces are kept apart per caller kind. */
export type SignedScope = 'proctoring' | 'attesta';

const NONCE_PATTERN = /^[\w-]{16,128}$/;
const TIMESTAMP_PATTERN = /^\d{1,12}$/;
const SIGNATURE_PATTERN = /^(?:sha256=)?([0-9a-f]{64})$/i;

/** The hex signature of a request. */
export function signatureOf(secret: string, timestamp: string, nonce: string, body: Buffer | string): string {
  return createHmac('sha256', secret)
    .update(`${timestamp}\n${nonce}\n`)
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');
}

/** Headers signing `body` (what the upstream push and the tests send). */
export function signedHeaders(
  secret: string,
  body: Buffer | string,
  now = new Date(),
  nonce = randomToken(24),
): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [NONCE_HEADER]: nonce,
    [SIGNATURE_HEADER]: signatureOf(secret, timestamp, nonce, body),
  };
}

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v.trim() : undefined;
};

/** Whether the request presents a signature at all (then no session is needed: access.ts `signed`). */
export const presentsSignature = (req: FastifyRequest) => header(req, SIGNATURE_HEADER) !== undefined;

const badSignature = () =>
  unauthorized('The request signature is missing or does not match its body', 'bad_signature');

/**
 * Checks a signed request: signature (constant time), then the timestamp window, then the nonce,
 * which is recorded. Throws 401 `bad_signature`, 401 `stale_request` or 409 `replayed_request`.
 */
export async function verifySignedRequest(
  db: DbOrTx,
  scope: SignedScope,
  secret: string,
  req: FastifyRequest,
  now = new Date(),
): Promise<void> {
  const timestamp = header(req, TIMESTAMP_HEADER);
  const nonce = header(req, NONCE_HEADER);
  const match = SIGNATURE_PATTERN.exec(header(req, SIGNATURE_HEADER) ?? '');
  if (!timestamp || !TIMESTAMP_PATTERN.test(timestamp) || !nonce || !NONCE_PATTERN.test(nonce) || !match)
    throw badSignature();
  const expected = Buffer.from(signatureOf(secret, timestamp, nonce, req.rawBody ?? Buffer.alloc(0)), 'hex');
  const given = Buffer.from(match[1]!.toLowerCase(), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badSignature();

  const skew = Math.abs(now.getTime() / 1000 - Number(timestamp));
  if (skew > SIGNATURE_MAX_SKEW_SECONDS)
    throw unauthorized(
      `The request timestamp is more than ${SIGNATURE_MAX_SKEW_SECONDS} s off the server clock`,
      'stale_request',
    );

  // A nonce is kept as long as a request carrying it could still pass the window.
  const expiresAt = new Date((Number(timestamp) + SIGNATURE_MAX_SKEW_SECONDS + 60) * 1000);
  await db.delete(integrationNonces).where(lt(integrationNonces.expiresAt, sql`now()`));
  const inserted = await db
    .insert(integrationNonces)
    .values({ scope, nonce, expiresAt })
    .onConflictDoNothing()
    .returning({ nonce: integrationNonces.nonce });
  if (!inserted.length)
    throw new AppError(409, 'replayed_request', 'This nonce was used before: the request is a replay');
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body's bytes as they came, on routes that verify a signature over them. */
    rawBody?: Buffer;
  }
}
