/*
 * Rooms' live streams: each stream gets its snapshot first, then the rows that changed. The open
 * streams of one room share one watcher: events of the room's participants are gathered for
 * FLUSH_MS, the rows they name are read once, and that one update is written to every stream of
 * the room — so thirty participants saving at once cost one query per moment, and three hundred
 * open views of the room cost the same query, not three hundred. A user holds at most
 * MAX_ROOM_STREAMS_PER_USER open room streams on an instance (429 `too_many_streams` beyond).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { RoomRow, RoomSnapshot, RoomWorkEvent } from '@attesta/contract';
import type { AppContext } from '../../context.js';
import { participantKey, type EventBus, type WorkEvent } from '../../events/work-bus.js';
import { AppError } from '../../lib/errors.js';
import { roomRows, type RoomRef } from './monitoring.service.js';
import type { Sse } from './sse.js';

/** Events are gathered this long, then the rows they name are read once for every stream of the room. */
export const FLUSH_MS = 250;
/** Open room streams one user may hold on one instance (tabs, rooms): enough to watch a school's rooms. */
export const MAX_ROOM_STREAMS_PER_USER = 10;

const roomKeyOf = (ref: RoomRef) =>
  ref.classId !== undefined
    ? `${ref.diagnosticId}:c${ref.classId}`
    : `${ref.diagnosticId}:b${ref.buildingId}`;

/** What a stream without the codes sees of a row (monitoring.service seesCodes: not the ugnik). */
const withoutCodes = (row: RoomRow): RoomRow => ({ ...row, activationCode: null, registrationCode: null });

interface Viewer {
  sse: Sse;
  withCodes: boolean;
  /** Updates that came before the viewer's snapshot went out: written right after it, in order. */
  backlog: RoomWorkEvent[] | null;
}

/** One room's watcher, shared by its open streams. */
class WatchedRoom {
  readonly viewers = new Set<Viewer>();
  /** The newest row of each participant test seen (with codes): whom to listen to, who is online. */
  private readonly rows = new Map<number, RoomRow>();
  private readonly unsubscribe = new Map<number, () => void>();
  private readonly pending = new Map<number, string>();
  private timer: NodeJS.Timeout | null = null;
  private flushing = false;
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly bus: EventBus,
    private readonly ref: RoomRef,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Listens to the participants of a viewer's snapshot (those not listened to yet); its rows are the newest. */
  listen(rows: RoomRow[]) {
    for (const row of rows) {
      this.rows.set(row.participantTestId, row);
      if (!this.unsubscribe.has(row.participantTestId))
        this.unsubscribe.set(
          row.participantTestId,
          this.bus.subscribe(participantKey(row.participantTestId), (e) => this.onEvent(e)),
        );
    }
  }

  close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const off of this.unsubscribe.values()) off();
    this.unsubscribe.clear();
  }

  private onEvent(event: WorkEvent) {
    // A heartbeat of someone already shown online changes nothing on the screen.
    if (event.kind === 'heartbeat' && this.rows.get(event.participantTestId)?.online) return;
    this.pending.set(event.participantTestId, event.kind);
    this.schedule();
  }

  private schedule() {
    if (!this.timer && !this.flushing && !this.closed)
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
  }

  private async flush() {
    this.timer = null;
    if (this.closed || this.flushing || this.pending.size === 0) return;
    this.flushing = true;
    const batch = new Map(this.pending);
    this.pending.clear();
    try {
      // One read for every stream of the room; streams without codes get the rows without them.
      const fresh = await roomRows(this.ctx, this.ref, [...batch.keys()], { withCodes: true });
      for (const row of fresh) {
        this.rows.set(row.participantTestId, row);
        const kind = batch.get(row.participantTestId)!;
        const plain: RoomWorkEvent = { kind, row: withoutCodes(row) };
        for (const viewer of this.viewers) {
          const event = viewer.withCodes ? { kind, row } : plain;
          if (viewer.backlog) viewer.backlog.push(event);
          else viewer.sse.write('work', event);
        }
      }
    } catch (err) {
      this.log.warn({ err }, 'monitoring stream refresh failed');
    } finally {
      this.flushing = false;
      if (this.pending.size) this.schedule();
    }
  }
}

/** The rooms watched by this instance's open streams, and how many streams each user holds. */
export class RoomStreams {
  private readonly rooms = new Map<string, WatchedRoom>();
  private readonly perUser = new Map<number, number>();

  constructor(
    private readonly ctx: AppContext,
    private readonly bus: EventBus,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Counts a stream the user is about to open, before anything is sent: 429 `too_many_streams`
   * when they hold MAX_ROOM_STREAMS_PER_USER already. Answers the function that gives it back
   * (call it once the stream ends, or if it never opens).
   */
  admit(userId: number): () => void {
    const held = this.perUser.get(userId) ?? 0;
    if (held >= MAX_ROOM_STREAMS_PER_USER)
      throw new AppError(
        429,
        'too_many_streams',
        `At most ${MAX_ROOM_STREAMS_PER_USER} room streams may be open at once; close one first`,
      );
    this.perUser.set(userId, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left > 0) this.perUser.set(userId, left);
      else this.perUser.delete(userId);
    };
  }

  /** Joins a stream to its room's watcher, then sends its snapshot and what changed meanwhile. */
  async join(ref: RoomRef, snapshot: RoomSnapshot, sse: Sse, withCodes: boolean): Promise<void> {
    if (sse.ended) return;
    const key = roomKeyOf(ref);
    let room = this.rooms.get(key);
    if (!room) {
      room = new WatchedRoom(this.ctx, this.bus, ref, this.log);
      this.rooms.set(key, room);
    }
    const watched = room;
    const viewer: Viewer = { sse, withCodes, backlog: [] };
    watched.viewers.add(viewer);
    watched.listen(snapshot.participants);
    sse.onEnd(() => {
      watched.viewers.delete(viewer);
      if (watched.viewers.size === 0 && this.rooms.get(key) === watched) {
        watched.close();
        this.rooms.delete(key);
      }
    });
    await this.bus.ready();
    sse.write('snapshot', snapshot);
    const backlog = viewer.backlog ?? [];
    viewer.backlog = null;
    for (const event of backlog) sse.write('work', event);
  }

  /** Rooms watched now (tests). */
  get watchedRooms(): number {
    return this.rooms.size;
  }
}
