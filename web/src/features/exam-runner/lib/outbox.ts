/**
 * The answer outbox (docs/design.md §6 "no acknowledged answer is ever lost"). Every change is first
 * written to the store (IndexedDB), then sent; an entry leaves the store only after the server
 * acknowledged its seq. Pure logic: the store, the transport and the clock are injected, so the
 * rules below are tested without a browser.
 *
 * - seq grows per (work, task), starting above the highest seq known from the server or the store;
 * - entries are replayed in the order they were made: one → PUT saveanswer, several (after a
 *   reconnect or a reload) → PUT saveanswers in batches of up to 200;
 * - 409 stale_sequence (another tab or device saved something newer) → drop, report `stale`;
 * - 409 deadline_passed / work_finished → stop, report `finished`;
 * - 409 work_paused → hold until `release()`;
 * - network errors, 408, 429, 5xx → keep, retry with exponential backoff (Retry-After honoured);
 * - 401 → stop (the session is gone), 403/404 → stop (the work is not ours any more); entries stay;
 * - other 4xx (the server refuses this value) → drop that entry and report `rejected`;
 * - a change larger than ANSWER_VALUE_MAX_BYTES is never queued (`too_large`): the server would
 *   refuse it for its size; requests carry at most SAVE_BATCH_MAX_BYTES of answers.
 */
import {
  ANSWER_VALUE_MAX_BYTES,
  SAVE_BATCH_MAX_BYTES,
  type SaveAnswerBody,
  type SaveAnswersBody,
} from '@attesta/contract';
import { ApiError } from '../../../lib/api-client';
import type { OutboxEntry, OutboxStore } from './outbox-store';

export interface OutboxTransport {
  saveOne(body: SaveAnswerBody): Promise<{ seq: number; savedAt: string }>;
  saveMany(body: SaveAnswersBody): Promise<{
    results: {
      variantTaskId: number;
      status: 'saved' | 'duplicate' | 'stale';
      seq: number;
      savedAt: string;
    }[];
  }>;
}

export type StopReason = 'finished' | 'unauthorized' | 'blocked';

export interface OutboxSnapshot {
  pending: number;
  pendingTaskIds: number[];
  sending: boolean;
  /** The last attempt failed for a reason that retrying fixes (no connection, server busy). */
  offline: boolean;
  held: boolean;
  stopped: StopReason | null;
  lastSavedAt: string | null;
  /** IndexedDB refused a write: changes live in memory only until they are sent. */
  storageFailed: boolean;
}

export type OutboxEvent =
  | { type: 'saved'; variantTaskId: number; seq: number; savedAt: string; value: unknown }
  | { type: 'stale'; variantTaskId: number; storedSeq: number | null }
  | { type: 'rejected'; variantTaskId: number; error: unknown }
  /** A change larger than the server takes (ANSWER_VALUE_MAX_BYTES): not queued, not sent. */
  | { type: 'too_large'; variantTaskId: number; bytes: number }
  | { type: 'paused' }
  | { type: 'stopped'; reason: StopReason; error: unknown };

export type SaveErrorKind =
  'retry' | 'stale' | 'finished' | 'paused' | 'unauthorized' | 'blocked' | 'rejected';

export function classifySaveError(error: unknown): SaveErrorKind {
  if (!(error instanceof ApiError)) return 'retry';
  const { status, code } = error;
  if (status === 0 || status === 408 || status === 429 || status >= 500) return 'retry';
  if (code === 'invalid_response') return 'retry';
  if (status === 401) return 'unauthorized';
  if (status === 409) {
    if (code === 'stale_sequence') return 'stale';
    if (code === 'deadline_passed' || code === 'work_finished') return 'finished';
    if (code === 'work_paused') return 'paused';
    return 'blocked';
  }
  if (status === 403 || status === 404) return 'blocked';
  return 'rejected';
}

export const MAX_BATCH = 200;

/** An answer value's size as sent: its JSON in UTF-8 bytes. */
export const answerBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value ?? null)).length;

/** The first entries that go in one request: at most MAX_BATCH, and SAVE_BATCH_MAX_BYTES of values. */
export function takeBatch<E extends { value: unknown }>(ready: readonly E[]): E[] {
  const batch: E[] = [];
  let bytes = 0;
  for (const entry of ready) {
    const size = answerBytes(entry.value);
    if (batch.length && (batch.length >= MAX_BATCH || bytes + size > SAVE_BATCH_MAX_BYTES)) break;
    batch.push(entry);
    bytes += size;
  }
  return batch;
}
export const MAX_SEQ = 2_000_000_000;

export interface OutboxOptions {
  examWorkId: number;
  store: OutboxStore;
  transport: OutboxTransport;
  onEvent?: (event: OutboxEvent) => void;
  onChange?: (snapshot: OutboxSnapshot) => void;
  backoff?: { baseMs: number; maxMs: number };
  now?: () => number;
}

export class Outbox {
  readonly examWorkId: number;
  private readonly store: OutboxStore;
  private readonly transport: OutboxTransport;
  private onEvent: (event: OutboxEvent) => void;
  private readonly onChange: (snapshot: OutboxSnapshot) => void;
  private readonly backoff: { baseMs: number; maxMs: number };
  private readonly now: () => number;

  private readonly entries = new Map<number, OutboxEntry>();
  /** Tasks whose newest entry is not yet in the store: they are not sent before it is. */
  private readonly persisting = new Map<number, Promise<void>>();
  private readonly seqs = new Map<number, number>();
  private order = 0;
  private running: Promise<void> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  private sending = false;
  private offline = false;
  private held = false;
  private stopped: StopReason | null = null;
  private lastSavedAt: string | null = null;
  private storageFailed = false;
  private disposed = false;

  constructor(options: OutboxOptions) {
    this.examWorkId = options.examWorkId;
    this.store = options.store;
    this.transport = options.transport;
    this.onEvent = options.onEvent ?? (() => {});
    this.onChange = options.onChange ?? (() => {});
    this.backoff = options.backoff ?? { baseMs: 1000, maxMs: 30_000 };
    this.now = options.now ?? Date.now;
  }

  /**
   * Reads back what waited in the store (a reload, a crash) against what the server holds. An
   * entry the server already has (same or newer seq) is gone; the others are newer than the
   * server's answers: the caller shows their values, and they are replayed.
   */
  async load(serverAnswers: readonly { variantTaskId: number; seq: number }[]): Promise<OutboxEntry[]> {
    this.disposed = false;
    const server = new Map(serverAnswers.map((a) => [a.variantTaskId, a.seq]));
    for (const [taskId, seq] of server) this.raiseSeq(taskId, seq);
    let saved: OutboxEntry[] = [];
    try {
      saved = await this.store.list(this.examWorkId);
    } catch {
      this.storageFailed = true;
    }
    const kept: OutboxEntry[] = [];
    for (const entry of saved) {
      const serverSeq = server.get(entry.variantTaskId) ?? 0;
      this.order = Math.max(this.order, entry.order);
      if (serverSeq >= entry.seq) {
        await this.store.removeUpTo(this.examWorkId, entry.variantTaskId, entry.seq).catch(() => {});
        continue;
      }
      this.raiseSeq(entry.variantTaskId, entry.seq);
      // A newer change of the same session may already be queued: it wins.
      if (!this.entries.has(entry.variantTaskId)) this.entries.set(entry.variantTaskId, entry);
      kept.push(entry);
    }
    this.emitChange();
    this.kick();
    return kept;
  }

  /** The server holds `seq` for this task (e.g. after a refetch): the next change goes above it. */
  raiseSeq(variantTaskId: number, seq: number) {
    if (seq > (this.seqs.get(variantTaskId) ?? 0)) this.seqs.set(variantTaskId, seq);
  }

  /** Who hears about saved / stale / rejected answers and stops (replaces the previous listener). */
  listen(onEvent: (event: OutboxEvent) => void) {
    this.onEvent = onEvent;
  }

  /** A seq for a save that goes outside the outbox (files travel with their answer). */
  reserveSeq(variantTaskId: number): number {
    const seq = Math.min(MAX_SEQ, (this.seqs.get(variantTaskId) ?? 0) + 1);
    this.seqs.set(variantTaskId, seq);
    return seq;
  }

  /** A save acknowledged outside the outbox still moves the "saved at" time. */
  noteSaved(savedAt: string) {
    this.lastSavedAt = savedAt;
    this.emitChange();
  }

  /**
   * Writes the change to the store, then lets the sender take it. A change the server would refuse
   * for its size is not queued (null): the 'too_large' event tells the participant.
   */
  async enqueue(variantTaskId: number, value: unknown): Promise<OutboxEntry | null> {
    const bytes = answerBytes(value);
    if (bytes > ANSWER_VALUE_MAX_BYTES) {
      this.onEvent({ type: 'too_large', variantTaskId, bytes });
      return null;
    }
    const seq = this.reserveSeq(variantTaskId);
    const entry: OutboxEntry = {
      examWorkId: this.examWorkId,
      variantTaskId,
      value,
      seq,
      order: ++this.order,
      queuedAt: this.now(),
    };
    this.entries.set(variantTaskId, entry);
    const write = this.store.put(entry).catch(() => {
      this.storageFailed = true;
    });
    this.persisting.set(variantTaskId, write);
    this.emitChange();
    await write;
    if (this.persisting.get(variantTaskId) === write) this.persisting.delete(variantTaskId);
    this.kick();
    return entry;
  }

  snapshot(): OutboxSnapshot {
    return {
      pending: this.entries.size,
      pendingTaskIds: [...this.entries.keys()],
      sending: this.sending,
      offline: this.offline,
      held: this.held,
      stopped: this.stopped,
      lastSavedAt: this.lastSavedAt,
      storageFailed: this.storageFailed,
    };
  }

  pendingEntries(): OutboxEntry[] {
    return [...this.entries.values()].sort((a, b) => a.order - b.order);
  }

  /** The work is paused: nothing is sent until `release()`. */
  hold() {
    this.held = true;
    this.emitChange();
  }

  release() {
    this.held = false;
    this.emitChange();
    this.retryNow();
  }

  /** The connection is back (or the participant asked): retry at once instead of waiting. */
  retryNow() {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.kick();
  }

  /** Sends everything that waits; true when nothing is left unacknowledged. */
  async flush(): Promise<boolean> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await Promise.all(this.persisting.values());
    if (this.running) await this.running;
    await this.pump();
    return this.entries.size === 0;
  }

  dispose() {
    this.disposed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private kick() {
    if (this.running || this.retryTimer || this.disposed) return;
    void this.pump();
  }

  private pump(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.drain().finally(() => {
      this.running = null;
      this.sending = false;
      this.emitChange();
    });
    return this.running;
  }

  private readyEntries(): OutboxEntry[] {
    return this.pendingEntries().filter((e) => !this.persisting.has(e.variantTaskId));
  }

  private async drain() {
    while (!this.held && !this.stopped && !this.disposed) {
      const ready = this.readyEntries();
      if (!ready.length) return;
      this.sending = true;
      this.emitChange();
      const batch = takeBatch(ready);
      try {
        if (batch.length === 1) {
          const entry = batch[0]!;
          const answer = await this.transport.saveOne({
            examWorkId: this.examWorkId,
            variantTaskId: entry.variantTaskId,
            value: entry.value,
            seq: entry.seq,
          });
          await this.acknowledge(entry, answer.seq, answer.savedAt);
        } else {
          const { results } = await this.transport.saveMany({
            examWorkId: this.examWorkId,
            answers: batch.map(({ variantTaskId, value, seq }) => ({ variantTaskId, value, seq })),
          });
          for (const entry of batch) {
            const result = results.find((r) => r.variantTaskId === entry.variantTaskId);
            if (!result) continue; // not answered: stays and goes again
            if (result.status === 'stale' || result.seq > entry.seq) await this.dropStale(entry, result.seq);
            else await this.acknowledge(entry, entry.seq, result.savedAt);
          }
        }
        this.failures = 0;
        this.offline = false;
      } catch (error) {
        const kind = classifySaveError(error);
        const single = batch.length === 1 ? batch[0]! : null;
        if (kind === 'stale' && single) {
          await this.dropStale(single, null);
          continue;
        }
        if (kind === 'rejected' && single) {
          await this.drop(single);
          this.onEvent({ type: 'rejected', variantTaskId: single.variantTaskId, error });
          continue;
        }
        if ((kind === 'stale' || kind === 'rejected') && !single) {
          // One answer of the batch spoils it: send them one by one to find out which.
          await this.drainOneByOne(batch);
          continue;
        }
        this.handleStop(kind, error);
        return;
      }
    }
  }

  private async drainOneByOne(batch: OutboxEntry[]) {
    for (const entry of batch) {
      if (this.held || this.stopped || this.disposed) return;
      const current = this.entries.get(entry.variantTaskId);
      if (!current) continue;
      try {
        const answer = await this.transport.saveOne({
          examWorkId: this.examWorkId,
          variantTaskId: current.variantTaskId,
          value: current.value,
          seq: current.seq,
        });
        await this.acknowledge(current, answer.seq, answer.savedAt);
      } catch (error) {
        const kind = classifySaveError(error);
        if (kind === 'stale') await this.dropStale(current, null);
        else if (kind === 'rejected') {
          await this.drop(current);
          this.onEvent({ type: 'rejected', variantTaskId: current.variantTaskId, error });
        } else {
          this.handleStop(kind, error);
          return;
        }
      }
    }
  }

  private handleStop(kind: SaveErrorKind, error: unknown) {
    if (kind === 'retry') {
      this.failures += 1;
      this.offline = true;
      const retryAfter = error instanceof ApiError ? error.retryAfterSeconds : null;
      const delay =
        retryAfter !== null
          ? retryAfter * 1000
          : Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** (this.failures - 1));
      if (!this.disposed) {
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          this.kick();
        }, delay);
      }
    } else if (kind === 'paused') {
      this.held = true;
      this.onEvent({ type: 'paused' });
    } else {
      const reason: StopReason =
        kind === 'finished' ? 'finished' : kind === 'unauthorized' ? 'unauthorized' : 'blocked';
      this.stopped = reason;
      this.onEvent({ type: 'stopped', reason, error });
    }
    this.emitChange();
  }

  private async acknowledge(entry: OutboxEntry, seq: number, savedAt: string) {
    this.raiseSeq(entry.variantTaskId, seq);
    const current = this.entries.get(entry.variantTaskId);
    if (current && current.seq <= entry.seq) this.entries.delete(entry.variantTaskId);
    await this.store.removeUpTo(this.examWorkId, entry.variantTaskId, entry.seq).catch(() => {});
    this.lastSavedAt = savedAt;
    this.onEvent({
      type: 'saved',
      variantTaskId: entry.variantTaskId,
      seq: entry.seq,
      savedAt,
      value: entry.value,
    });
    this.emitChange();
  }

  private async drop(entry: OutboxEntry) {
    const current = this.entries.get(entry.variantTaskId);
    if (current && current.seq <= entry.seq) this.entries.delete(entry.variantTaskId);
    await this.store.removeUpTo(this.examWorkId, entry.variantTaskId, entry.seq).catch(() => {});
    this.emitChange();
  }

  private async dropStale(entry: OutboxEntry, storedSeq: number | null) {
    if (storedSeq !== null) this.raiseSeq(entry.variantTaskId, storedSeq);
    await this.drop(entry);
    this.onEvent({ type: 'stale', variantTaskId: entry.variantTaskId, storedSeq });
  }

  private emitChange() {
    if (!this.disposed) this.onChange(this.snapshot());
  }
}
