import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { examWorks } from './exam.js';
import { created } from './types.js';

/*
 * Signed machine-to-machine calls (docs/integrations.md): the proctoring service's webhooks and
 * results pushed between Attesta instances.
 */

/**
 * Nonces of signed requests already accepted, per caller kind (`proctoring`, `attesta`): a nonce
 * seen before is a replay. Kept in the database so the refusal holds across instances; a row is
 * useless once its request's timestamp is outside the accepted window, and is then deleted.
 */
export const integrationNonces = pgTable(
  'integration_nonces',
  {
    scope: text().notNull(),
    nonce: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.nonce] }), index().on(t.expiresAt)],
);

/** A proctoring session the service announced (start_session), and its end with the verdict. */
export const proctoringSessions = pgTable(
  'proctoring_sessions',
  {
    /** The service's own session id. */
    sessionId: text().primaryKey(),
    examWorkId: integer()
      .notNull()
      .references(() => examWorks.id),
    startedAt: created(),
    endedAt: timestamp({ withTimezone: true }),
    verdict: text(),
    score: real(),
    comment: text(),
  },
  (t) => [index().on(t.examWorkId)],
);

/**
 * A push of results received from another Attesta instance, once per idempotency key: a second
 * push with the key answers `response` and stores nothing.
 */
export const receivedPushes = pgTable('received_pushes', {
  idempotencyKey: text().primaryKey(),
  diagnosticExternalId: text().notNull(),
  /** SHA-256 of the pushed results: the same key with other results is refused. */
  contentHash: text().notNull(),
  response: jsonb().$type<Record<string, unknown>>().notNull(),
  receivedAt: created(),
});

/** One result received in a push, as the sender's export layout gives it. */
export const receivedResults = pgTable(
  'received_results',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    diagnosticExternalId: text().notNull(),
    idempotencyKey: text()
      .notNull()
      .references(() => receivedPushes.idempotencyKey),
    participantCode: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    receivedAt: created(),
  },
  (t) => [index().on(t.diagnosticExternalId)],
);
