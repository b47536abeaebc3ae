/*
 * A room's live stream: the snapshot first, then the rows that changed. Events of the room's
 * participants are gathered for FLUSH_MS and the rows they name read once, so a room of thirty
 * saving at once costs one query per moment, not one per save.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { RoomRow, RoomSnapshot, RoomWorkEvent } from '@attesta/contract';
import type { AppContext } from '../../context.js';
import { participantKey, type EventBus, type WorkEvent } from '../../events/work-bus.js';
import { roomRows, type RoomRef } from './monitoring.service.js';
import type { Sse } from './sse.js';

/** Events are gathered this long, then the rows they name are read once. */
export const FLUSH_MS = 250;

interface RoomStream {
  ctx: AppContext;
  bus: EventBus;
  ref: RoomRef;
  snapshot: RoomSnapshot;
  sse: Sse;
  log: FastifyBaseLogger;
  /** Rows carry the sittings' codes (not for the ugnik: monitoring.service seesCodes). */
  withCodes: boolean;
}

export async function streamRoom({
  ctx,
  bus,
  ref,
  snapshot,
  sse,
  log,
  withCodes,
}: RoomStream): Promise<void> {
  const rows = new Map<number, RoomRow>(snapshot.participants.map((r) => [r.participantTestId, r]));
  const pending = new Map<number, string>();
  let timer: NodeJS.Timeout | null = null;
  let flushing = false;

  const flush = async () => {
    timer = null;
    if (sse.ended || flushing || pending.size === 0) return;
    flushing = true;
    const batch = new Map(pending);
    pending.clear();
    try {
      const fresh = await roomRows(ctx, ref, [...batch.keys()], { withCodes });
      for (const row of fresh) {
        rows.set(row.participantTestId, row);
        const event: RoomWorkEvent = { kind: batch.get(row.participantTestId)!, row };
        sse.write('work', event);
      }
    } catch (err) {
      log.warn({ err }, 'monitoring stream refresh failed');
    } finally {
      flushing = false;
      if (pending.size && !sse.ended && !timer) timer = setTimeout(() => void flush(), FLUSH_MS);
    }
  };

  const onEvent = (event: WorkEvent) => {
    // A heartbeat of someone already shown online changes nothing on the screen.
    if (event.kind === 'heartbeat' && rows.get(event.participantTestId)?.online) return;
    pending.set(event.participantTestId, event.kind);
    if (!timer && !flushing) timer = setTimeout(() => void flush(), FLUSH_MS);
  };
  const unsubscribe = [...rows.keys()].map((ptId) => bus.subscribe(participantKey(ptId), onEvent));
  sse.onEnd(() => {
    if (timer) clearTimeout(timer);
    for (const off of unsubscribe) off();
  });
  await bus.ready();

  sse.write('snapshot', snapshot);
}
