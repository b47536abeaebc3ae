import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { Broadcast } from '../lib/broadcast.js';

/*
 * The live event bus of exam works (docs/design.md §7): the organizer's room view and the
 * participant's own runner listen to it. Every server process delivers an event to its own
 * subscribers at once (in-process EventEmitter); with a fan-out channel (Redis pub/sub, or
 * PostgreSQL LISTEN/NOTIFY where there is no Redis) it also sends it to the other instances:
 * events are gathered for FLUSH_MS and sent as few messages (at 1,000 saves/s that is 40 messages
 * a second, not 1,000). Publish is fire-and-forget: the exam hot path never waits for the channel.
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
  | 'heartbeat'
  /** Staff sent the participant a message (data.message: the StaffMessage). */
  | 'message';

export interface WorkEvent {
  kind: WorkEventKind;
  participantTestId: number;
  examWorkId: number | null;
  /** ISO instant on the publishing server's clock. */
  at: string;
  data?: Record<string, unknown>;
}

type Listener = (event: WorkEvent) => void;

/** One fan-out message: events an instance published during FLUSH_MS (split to fit the channel). */
type Batch = { roomKey: string; event: WorkEvent }[];

const FLUSH_MS = 25;

/** The room key of a participant test: a stream subscribes to the keys of the participants it shows. */
export const participantKey = (participantTestId: number) => `pt:${participantTestId}`;

const PRESENCE_WRITE_EVERY_MS = 15_000;
const PRESENCE_TTL_SECONDS = 600;

export class EventBus {
  private readonly local = new EventEmitter();
  private readonly counts = new Map<string, number>();
  private pending: Batch = [];
  private flushTimer: NodeJS.Timeout | null = null;
  /** Last activity per participant test seen by this process (the presence store without Redis). */
  private readonly seen = new Map<number, number>();
  private readonly seenWritten = new Map<number, number>();
  private closed = false;

  /**
   * `fanout` carries events between instances (null: one instance); `redis`, when there is one,
   * also keeps the participants' last activity for every instance to read.
   */
  constructor(
    private readonly fanout: Broadcast | null,
    private readonly redis: Redis | null,
    private readonly prefix = 'attesta:monitoring:',
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.local.setMaxListeners(0);
    this.fanout?.onMessage((message) => {
      let batch: Batch;
      try {
        batch = JSON.parse(message) as Batch;
      } catch {
        return;
      }
      if (!Array.isArray(batch)) return;
      for (const { roomKey, event } of batch) {
        if (this.counts.has(roomKey)) this.deliver(roomKey, event);
        else this.markSeen(event.participantTestId, Date.parse(event.at) || Date.now(), false);
      }
    });
  }

  get distributed(): boolean {
    return this.fanout !== null;
  }

  /** Delivers locally now and, with a fan-out channel, to every other instance. Never throws, never waits. */
  publish(roomKey: string, event: WorkEvent): void {
    if (this.closed) return;
    this.markSeen(event.participantTestId, Date.parse(event.at) || Date.now());
    this.deliver(roomKey, event);
    if (!this.fanout) return;
    this.pending.push({ roomKey, event });
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => this.flush(), FLUSH_MS);
      this.flushTimer.unref();
    }
  }

  /** Sends the gathered events to the other instances, in as few messages as the channel allows. */
  private flush() {
    this.flushTimer = null;
    const events = this.pending;
    this.pending = [];
    if (!events.length || !this.fanout) return;
    const limit = this.fanout.maxMessageBytes;
    let part: string[] = [];
    let size = 2;
    const send = () => {
      if (part.length) this.fanout!.notify(`[${part.join(',')}]`);
      part = [];
      size = 2;
    };
    for (const item of events) {
      const json = JSON.stringify(item);
      if (size + json.length + 1 > limit) send();
      part.push(json);
      size += json.length + 1;
    }
    send();
  }

  /** Listens to a room key; returns the unsubscribe function. */
  subscribe(roomKey: string, fn: Listener): () => void {
    this.local.on(roomKey, fn);
    this.counts.set(roomKey, (this.counts.get(roomKey) ?? 0) + 1);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      this.local.off(roomKey, fn);
      const left = (this.counts.get(roomKey) ?? 1) - 1;
      if (left > 0) this.counts.set(roomKey, left);
      else this.counts.delete(roomKey);
    };
  }

  /** Resolves once this instance hears the other instances' events (tests, stream start). */
  async ready(): Promise<void> {
    if (this.fanout && !this.closed) await this.fanout.ready();
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
    this.fanout?.close();
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
