/**
 * Domain events between modules, in process: the module where something happens says so, the
 * module that must act on it subscribes. A publisher then never imports its subscriber, so the
 * modules form no cycle (exam-test → exam-results → expert, never back).
 *
 * Handlers run at once, in the publisher's transaction, in the order they subscribed, and their
 * errors are the publisher's: what must happen with the change (queue the scoring, store the final
 * mark) commits or rolls back with it. An event that must be handled and has no subscriber is a
 * wiring error and throws, so it cannot be lost silently.
 */
import type { DbOrTx, Tx } from '../db/client.js';

export interface DomainEvents {
  /** Works finished (by the participant, staff or the deadline sweeper): their scoring is queued. */
  worksFinished: { db: DbOrTx; examWorkIds: readonly number[] };
  /**
   * Staff keyed answers from a paper form into works that had already finished: their results are
   * computed again (a work still running is scored when it finishes).
   */
  answersKeyedIn: { db: DbOrTx; examWorkIds: readonly number[] };
  /** Expert marking settled a task's final score: the work's result is recomputed. */
  expertFinal: { tx: Tx; examWorkId: number; variantTaskId: number; finalScore: number };
  /**
   * A diagnostic's results were published (its scored participant tests are `published` now), or
   * only these participant tests' (scored after the publication; publishedBy null).
   */
  resultsPublished: {
    tx: Tx;
    diagnosticId: number;
    publishedBy: number | null;
    participantTestIds?: readonly number[];
  };
  /** Answers were assigned to experts (users), how many each: they are told so. */
  expertsAssigned: { db: DbOrTx; assigned: ReadonlyMap<number, number> };
  /** A queue item ended for good, done or failed: the user who created it is told so. */
  queueItemSettled: {
    db: DbOrTx;
    item: { id: number; type: string; createdBy: number | null; errorCode: string | null };
    status: 'done' | 'failed';
  };
  /** An admin answered a feedback message: its sender (null: the account is gone) is told so. */
  feedbackAnswered: { tx: Tx; feedbackId: number; senderId: number | null; answeredBy: number };
}

type Handler<K extends keyof DomainEvents> = (event: DomainEvents[K]) => Promise<unknown>;

const handlers: { [K in keyof DomainEvents]?: Handler<K>[] } = {};

/** Subscribes at module load; the same handler twice is kept once. */
export function subscribe<K extends keyof DomainEvents>(name: K, handler: Handler<K>): void {
  const list = (handlers[name] ??= []) as Handler<K>[];
  if (!list.includes(handler)) list.push(handler);
}

export async function publish<K extends keyof DomainEvents>(name: K, event: DomainEvents[K]): Promise<void> {
  const list = (handlers[name] ?? []) as Handler<K>[];
  if (!list.length) throw new Error(`domain event ${name} has no subscriber`);
  for (const handler of list) await handler(event);
}
