import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ENDING_RUNNER_EVENT_KINDS,
  RUNNER_EVENT_KINDS,
  type RoomRow,
  type RoomWorkEvent,
  type RunnerEventKind,
  type RunnerWorkEvent,
  type RoomQuery,
} from '@attesta/contract';
import { authOf, contractRoute, type ScopeRule } from '../../auth/access.js';
import { PgBroadcast, RedisBroadcast } from '../../lib/broadcast.js';
import { badRequest } from '../../lib/errors.js';
import {
  attachBus,
  detachBus,
  EventBus,
  participantKey,
  type WorkEvent,
  type WorkEventKind,
} from '../../events/work-bus.js';
import { canWatchRoom, recordIntegrity, roomRows, roomSnapshot, type RoomRef } from './monitoring.service.js';
import { errorResponses as errors } from '../../lib/route-docs.js';

/*
 * Live monitoring of a room (not in the contract's call table; its shapes are in the contract's
 * `monitoring.ts`): GET /api/monitoring/room (snapshot), GET /api/monitoring/room/stream
 * (Server-Sent Events) and POST /api/monitoring/integrity (the participant's runner reports
 * focus, fullscreen, visibility and connection changes). The room
 * actions are the existing calls (pause, ChangeTimeTill, LogoutByActivationCode, clearSession,
 * RestoreExamWork, saveanswers?registrationCode); each publishes its event on the bus.
 */

const tags = ['monitoring'];
export const PING_MS = 15_000;
/** Events are gathered this long, then the rows they name are read once. */
const FLUSH_MS = 250;

function refOf(q: RoomQuery): RoomRef {
  if ((q.classId === undefined) === (q.buildingId === undefined))
    throw badRequest('validation_failed', 'Name the room by classId or by buildingId (one of them)', [
      { path: 'querystring.classId', message: 'classId or buildingId' },
    ]);
  return q.classId !== undefined
    ? { diagnosticId: q.diagnosticId, classId: q.classId }
    : { diagnosticId: q.diagnosticId, buildingId: q.buildingId! };
}

const roomInScope: ScopeRule = (req, auth) =>
  canWatchRoom(req.server.ctx.db, auth, refOf(req.query as RoomQuery));

function writeEvent(res: ServerResponse, event: string, data: unknown) {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

const RUNNER_KINDS = new Set<WorkEventKind>(RUNNER_EVENT_KINDS);
const isRunnerKind = (kind: WorkEventKind): kind is RunnerEventKind => RUNNER_KINDS.has(kind);
const ENDING_KINDS = new Set<WorkEventKind>(ENDING_RUNNER_EVENT_KINDS);

interface Sse {
  readonly ended: boolean;
  write(event: string, data: unknown): void;
  onEnd(fn: () => void): void;
  end(): void;
}

/**
 * Starts a Server-Sent Events response: never cached, a ping every `pingMs` that also ends the
 * stream once its session has ended, and an end on disconnect or server close.
 */
function startSse(req: FastifyRequest, reply: FastifyReply, streams: Set<() => void>, pingMs: number): Sse {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.write('retry: 3000\n\n');
  const enders: (() => void)[] = [];
  let ended = false;
  const auth = authOf(req);
  const token = req.sessionToken;
  const ctx = req.server.ctx;
  const ping = setInterval(() => {
    sse.write('ping', { serverTime: new Date().toISOString() });
    // A stream lives no longer than its session.
    if (token && auth.via !== 'api_key')
      void ctx.sessions
        .resolve(token, auth.via, true)
        .then((alive) => {
          if (!alive) sse.end();
        })
        .catch(() => undefined);
  }, pingMs);
  ping.unref();
  const sse: Sse = {
    get ended() {
      return ended;
    },
    write(event, data) {
      if (!ended) writeEvent(res, event, data);
    },
    onEnd(fn) {
      enders.push(fn);
    },
    end() {
      if (ended) return;
      ended = true;
      streams.delete(sse.end);
      clearInterval(ping);
      for (const fn of enders) fn();
      if (!res.writableEnded) res.end();
    },
  };
  streams.add(sse.end);
  req.raw.on('close', sse.end);
  res.on('close', sse.end);
  res.on('error', sse.end);
  return sse;
}

export const monitoringRoutes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const onError = (err: unknown) =>
    app.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'monitoring bus error');
  const prefix = `${ctx.config.redisKeyPrefix}monitoring:`;
  // Several instances share the events through Redis, or through PostgreSQL where there is no Redis.
  const fanout = ctx.redis
    ? new RedisBroadcast(ctx.redis, `${prefix}events`, onError)
    : ctx.database.kind === 'postgres' && ctx.database.url
      ? new PgBroadcast(ctx.database.url, ctx.database, 'attesta_monitoring', onError)
      : null;
  const bus = new EventBus(fanout, ctx.redis, prefix, onError);
  attachBus(ctx, bus);

  /** Open streams, ended when the server closes (they are never idle, so close would wait). */
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });
  app.addHook('onClose', async () => {
    detachBus(ctx);
    bus.close();
  });

  app.route({
    ...contractRoute(
      'GET /api/monitoring/room',
      {
        summary: 'The room now: every participant, their state, progress, clock and integrity events',
        description:
          'A room is a class (`classId`) or a whole building (`buildingId`) of one diagnostic. Organizator: ' +
          'assigned classes and buildings; coordinator: own school; admin: any.',
        tags,
        errors: [400, 401, 403, 404],
      },
      roomInScope,
    ),
    handler: (req) => roomSnapshot(ctx, refOf(req.query)),
  });

  app.route({
    ...contractRoute(
      'GET /api/monitoring/room/stream',
      {
        summary:
          'Server-Sent Events of a room: `snapshot` first, then `work` per changed row, `ping` every 15 s',
        description:
          '`work` data: `{ kind, row }` where kind is the change (answer_saved, paused, resumed, time_changed, ' +
          'finished, deleted, restored, started, session_cleared, logged_out, integrity, heartbeat) and row the ' +
          'participant row as in the snapshot. Events of every server instance arrive (Redis, or PostgreSQL, fan-out).',
        tags,
        errors: [400, 401, 403, 404],
      },
      roomInScope,
    ),
    handler: async (req, reply) => {
      const ref = refOf(req.query);
      const snapshot = await roomSnapshot(ctx, ref);
      const rows = new Map<number, RoomRow>(snapshot.participants.map((r) => [r.participantTestId, r]));

      const sse = startSse(req, reply, streams, PING_MS);
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
          const fresh = await roomRows(ctx, ref, [...batch.keys()]);
          for (const row of fresh) {
            rows.set(row.participantTestId, row);
            const event: RoomWorkEvent = { kind: batch.get(row.participantTestId)!, row };
            sse.write('work', event);
          }
        } catch (err) {
          req.log.warn({ err }, 'monitoring stream refresh failed');
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
    },
  });

  app.route({
    method: 'GET',
    url: '/api/monitoring/participant/stream',
    config: { access: { roles: ['participant'], scope: (_req, auth) => auth.participantTestId !== null } },
    schema: {
      summary: "Server-Sent Events of the participant's own work: what staff do to it, as it happens",
      description:
        '`hello` first, then `work` `{ kind, examWorkId, at }` when the work is paused, resumed, its ' +
        'time changed, finished, deleted, restored, or the session cleared (moved to another device) or ' +
        'logged out — the last two end the stream. `ping` every 15 s. Events of every server instance ' +
        'arrive. The runner re-reads the state it needs; without the stream it polls.',
      tags,
      response: errors(401, 403),
    },
    handler: async (req, reply) => {
      const ptId = authOf(req).participantTestId!;
      const sse = startSse(req, reply, streams, PING_MS);
      const off = bus.subscribe(participantKey(ptId), (event) => {
        if (!isRunnerKind(event.kind)) return;
        const data: RunnerWorkEvent = { kind: event.kind, examWorkId: event.examWorkId, at: event.at };
        sse.write('work', data);
        if (ENDING_KINDS.has(event.kind)) sse.end();
      });
      sse.onEnd(off);
      await bus.ready();
      sse.write('hello', { serverTime: new Date().toISOString() });
    },
  });

  app.route({
    ...contractRoute('POST /api/monitoring/integrity', {
      summary: "An integrity event of the participant's own live work (stored, shown to the organizer)",
      description:
        'At most 120 per minute per work are kept; more are dropped silently (`accepted: false`). Events ' +
        'of a finished work are not kept either.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => recordIntegrity(ctx, authOf(req), req.body.kind, req.body.at),
  });
};
