import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/*
 * The live-monitoring event bus (DESIGN.md §7). Every server process delivers an event to its own
 * subscribers at once (in-process EventEmitter); with Redis it also publishes it for the other
 * instances: events are gathered for FLUSH_MS and sent as one message on one channel (at 1,000
 * saves/s that is 40 messages a second, not 1,000), and a dedicated subscriber connection, open
 * while this process has watchers, brings the other instances' events in. Publish is
 * fire-and-forget: the exam hot path never waits for Redis.
 */

export type WorkEventKind =
  | 'started'
  | 'answer_saved'
  | 'paused'
  | 'resumed'
  | 'time_changed'
  | 'finished'
  | 'deleted'
  | 'restored'
  | 'session_cleared'
  | 'logged_out'
  | 'integrity'
  | 'heartbeat';

export interface WorkEvent {
  kind: WorkEventKind;
  participantTestId: number;
  examWorkId: number | null;
  /** ISO instant on the publishing server's clock. */
  at: string;
  data?: Record<string, unknown>;
}

type Listener = (event: WorkEvent) => void;

/** One Redis message: the events an instance published during FLUSH_MS. */
interface Batch {
  origin: string;
  events: { roomKey: string; event: WorkEvent }[];
}

const FLUSH_MS = 25;

/** The room key of a participant test: a stream subscribes to the keys of the participants it shows. */
export const participantKey = (participantTestId: number) => `pt:${participantTestId}`;

const PRESENCE_WRITE_EVERY_MS = 15_000;
const PRESENCE_TTL_SECONDS = 600;

export class EventBus {
  private readonly local = new EventEmitter();
  private readonly origin = randomBytes(8).toString('hex');
  private readonly subscriber: Redis | null;
  private readonly counts = new Map<string, number>();
  private pending: Batch['events'] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  /** Last activity per participant test seen by this process (the presence store without Redis). */
  private readonly seen = new Map<number, number>();
  private readonly seenWritten = new Map<number, number>();
  private closed = false;

  constructor(
    private readonly redis: Redis | null,
    private readonly prefix = 'attesta:monitoring:',
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.local.setMaxListeners(0);
    this.subscriber = redis ? redis.duplicate() : null;
    this.subscriber?.on('error', (err) => this.onError(err));
    this.subscriber?.on('message', (_channel: string, message: string) => {
      let batch: Batch;
      try {
        batch = JSON.parse(message) as Batch;
      } catch {
        return;
      }
      // Our own events were delivered locally when published.
      if (batch.origin === this.origin || !Array.isArray(batch.events)) return;
      for (const { roomKey, event } of batch.events) {
        if (this.counts.has(roomKey)) this.deliver(roomKey, event);
        else this.markSeen(event.participantTestId, Date.parse(event.at) || Date.now(), false);
      }
    });
  }

  private get channel() {
    return this.prefix + 'events';
  }

  get distributed(): boolean {
    return this.redis !== null;
  }

  /** Delivers locally now and, with Redis, to every other instance. Never throws, never waits. */
  publish(roomKey: string, event: WorkEvent): void {
    if (this.closed) return;
    this.markSeen(event.participantTestId, Date.parse(event.at) || Date.now());
    this.deliver(roomKey, event);
    if (!this.redis) return;
    this.pending.push({ roomKey, event });
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => this.flush(), FLUSH_MS);
      this.flushTimer.unref();
    }
  }

  /** Sends the gathered events to the other instances in one message. */
  private flush() {
    this.flushTimer = null;
    const events = this.pending;
    this.pending = [];
    if (!events.length || !this.redis) return;
    const batch: Batch = { origin: this.origin, events };
    this.redis.publish(this.channel, JSON.stringify(batch)).catch((err) => this.onError(err));
  }

  /** Listens to a room key; returns the unsubscribe function. */
  subscribe(roomKey: string, fn: Listener): () => void {
    this.local.on(roomKey, fn);
    const n = (this.counts.get(roomKey) ?? 0) + 1;
    this.counts.set(roomKey, n);
    if (n === 1 && this.counts.size === 1 && this.subscriber && !this.closed)
      this.subscriber.subscribe(this.channel).catch((err) => this.onError(err));
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      this.local.off(roomKey, fn);
      const left = (this.counts.get(roomKey) ?? 1) - 1;
      if (left > 0) {
        this.counts.set(roomKey, left);
        return;
      }
      this.counts.delete(roomKey);
      if (this.counts.size === 0 && this.subscriber && !this.closed)
        this.subscriber.unsubscribe(this.channel).catch((err) => this.onError(err));
    };
  }

  /** Resolves once the Redis subscriptions asked for so far are in force (tests, stream start). */
  async ready(): Promise<void> {
    if (!this.subscriber || this.closed) return;
    // Commands on one connection run in order: a PING answered means earlier SUBSCRIBEs are done.
    await this.subscriber.ping().catch(() => undefined);
  }

  /**
   * Last activity of participant tests (ms since epoch): this process's memory, plus with Redis the
   * shared keys every instance writes (at most every 15 s per participant).
   */
  async lastSeen(participantTestIds: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const id of participantTestIds) {
      const t = this.seen.get(id);
      if (t) out.set(id, t);
    }
    if (!this.redis || participantTestIds.length === 0) return out;
    try {
      const values = await this.redis.mget(...participantTestIds.map((id) => this.prefix + 'seen:' + id));
      values.forEach((v, i) => {
        const id = participantTestIds[i]!;
        const t = v ? Number(v) : 0;
        if (t > (out.get(id) ?? 0)) out.set(id, t);
      });
    } catch (err) {
      this.onError(err);
    }
    return out;
  }

  close(): void {
    if (this.closed) return;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flush();
    this.closed = true;
    this.local.removeAllListeners();
    this.subscriber?.disconnect();
  }

  private deliver(roomKey: string, event: WorkEvent) {
    this.markSeen(event.participantTestId, Date.parse(event.at) || Date.now(), false);
    this.local.emit(roomKey, event);
  }

  private markSeen(participantTestId: number, at: number, write = true) {
    if ((this.seen.get(participantTestId) ?? 0) < at) this.seen.set(participantTestId, at);
    if (this.seen.size > 100_000) this.seen.clear();
    if (!write || !this.redis) return;
    const last = this.seenWritten.get(participantTestId) ?? 0;
    if (at - last < PRESENCE_WRITE_EVERY_MS) return;
    this.seenWritten.set(participantTestId, at);
    if (this.seenWritten.size > 100_000) this.seenWritten.clear();
    this.redis
      .set(this.prefix + 'seen:' + participantTestId, String(at), 'EX', PRESENCE_TTL_SECONDS)
      .catch((err) => this.onError(err));
  }
}

// ------------------------------------------------------------------ the bus of an app

/**
 * One bus per server (per AppContext), registered by the monitoring plugin. Services publish
 * through their context, so they need no reference to the plugin; without it (tests of other
 * modules) publishing does nothing.
 */
const buses = new WeakMap<object, EventBus>();

export function attachBus(ctx: object, bus: EventBus): void {
  buses.set(ctx, bus);
}

export function detachBus(ctx: object): void {
  buses.delete(ctx);
}

export function busOf(ctx: object): EventBus | null {
  return buses.get(ctx) ?? null;
}

/**
 * The one call the exam services make at each change of a work: fire-and-forget, never throws.
 * `participantTestId` names the room row; `data` carries only what the caller already has.
 */
export function publishWorkEvent(
  ctx: object,
  participantTestId: number | null | undefined,
  examWorkId: number | null,
  kind: WorkEventKind,
  data?: Record<string, unknown>,
): void {
  const bus = buses.get(ctx);
  if (!bus || !participantTestId) return;
  try {
    bus.publish(participantKey(participantTestId), {
      kind,
      participantTestId,
      examWorkId,
      at: new Date().toISOString(),
      ...(data ? { data } : {}),
    });
  } catch {
    // Monitoring must never break the exam.
  }
}
