import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ENDING_RUNNER_EVENT_KINDS,
  RUNNER_EVENT_KINDS,
  type RunnerEventKind,
  type RunnerWorkEvent,
  type RoomQuery,
} from '@attesta/contract';
import { authOf, contractRoute, type ScopeRule } from '../../auth/access.js';
import { PgBroadcast, RedisBroadcast } from '../../lib/broadcast.js';
import { badRequest } from '../../lib/errors.js';
import { attachBus, detachBus, EventBus, participantKey, type WorkEventKind } from '../../events/work-bus.js';
import {
  canWatchRoom,
  recordIntegrity,
  roomSnapshot,
  seesCodes,
  type RoomRef,
} from './monitoring.service.js';
import { MAX_ROOM_STREAMS_PER_USER, RoomStreams } from './room-stream.js';
import { attachPresence, RunnerPresence } from './runner-presence.js';
import { canReadSitting, sittingEvents } from './sitting-events.js';
import { startSse } from './sse.js';
import { markMessageRead, sendStaffMessage, unreadMessages } from './staff-messages.js';

/*
 * Live monitoring of a room (calls of ours, in the contract's OUR_ENDPOINTS): GET /api/monitoring/room (snapshot), GET /api/monitoring/room/stream
 * (Server-Sent Events), GET /api/monitoring/participantTest/{id}/events (a sitting's event log), staff messages to a sitting
 * (POST …/participantTest/{id}/message; the participant's GET /api/monitoring/messages and POST …/messages/{id}/read)
 * and POST /api/monitoring/integrity (the participant's runner reports
 * focus, fullscreen, visibility and connection changes). The room
 * actions are the existing calls (pause, ChangeTimeTill, LogoutByActivationCode, clearSession,
 * RestoreExamWork, saveanswers?registrationCode); each publishes its event on the bus.
 */

const tags = ['monitoring'];
export const PING_MS = 15_000;

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

const sittingInScope: ScopeRule = (req, auth) =>
  canReadSitting(req.server.ctx.db, auth, (req.params as { id: number }).id);

const RUNNER_KINDS = new Set<WorkEventKind>(RUNNER_EVENT_KINDS);
const isRunnerKind = (kind: WorkEventKind): kind is RunnerEventKind => RUNNER_KINDS.has(kind);
const ENDING_KINDS = new Set<WorkEventKind>(ENDING_RUNNER_EVENT_KINDS);

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
  const rooms = new RoomStreams(ctx, bus, app.log);

  /** Open streams, ended when the server closes (they are never idle, so close would wait). */
  const streams = new Set<() => void>();
  /** The runners' connection log (runner-presence.ts). */
  const presence = new RunnerPresence(ctx, onError);
  attachPresence(ctx, presence);
  app.addHook('preClose', async () => {
    presence.close();
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
          'assigned classes and buildings; coordinator: own school; ugnik: the schools of its area, ' +
          'read-only (docs/ugnik.md); admin: any.',
        tags,
        errors: [400, 401, 403, 404],
      },
      roomInScope,
    ),
    handler: (req) => roomSnapshot(ctx, refOf(req.query), req.auth!),
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
          'participant row as in the snapshot. Events of every server instance arrive (Redis, or PostgreSQL, fan-out). ' +
          `A user holds at most ${MAX_ROOM_STREAMS_PER_USER} open room streams on a server instance: one more is ` +
          '429 `too_many_streams`.',
        tags,
        errors: [400, 401, 403, 404, 429],
      },
      roomInScope,
    ),
    handler: async (req, reply) => {
      const ref = refOf(req.query);
      const auth = authOf(req);
      // Counted before the snapshot is read, so a refused stream costs no query.
      const leave = rooms.admit(auth.userId);
      let snapshot;
      try {
        snapshot = await roomSnapshot(ctx, ref, auth);
      } catch (err) {
        leave();
        throw err;
      }
      const sse = startSse(req, reply, streams, PING_MS, 'room');
      sse.onEnd(leave);
      await rooms.join(ref, snapshot, sse, seesCodes(auth));
    },
  });

  app.route({
    ...contractRoute(
      'GET /api/monitoring/participantTest/{id}/events',
      {
        summary: "A sitting's event log: what happened to one participant test and its works, oldest first",
        description:
          'Work started, paused and resumed, time changed, answers keyed in from a paper form, finished (with ' +
          'its reason), deleted and restored, session cleared, logged out by code, integrity events and the ' +
          'proctoring verdict; each with who did it (participant, staff, the server) and the reason staff ' +
          'gave. The newest 500 at most (`truncated`). Scope as the room: organizator assigned classes and ' +
          'buildings, coordinator own school, ugnik the schools of its area, admin any; 404 for no such ' +
          'participant test.',
        tags,
        errors: [400, 401, 403, 404],
      },
      sittingInScope,
    ),
    handler: (req) => sittingEvents(ctx.db, req.params.id),
  });

  app.route({
    ...contractRoute(
      'GET /api/monitoring/participant/stream',
      {
        summary: "Server-Sent Events of the participant's own work: what staff do to it, as it happens",
        description:
          '`hello` first, then `work` `{ kind, examWorkId, at }` when the work is paused, resumed, its ' +
          'time changed, finished, deleted, restored, or the session cleared (moved to another device) or ' +
          'logged out — the last two end the stream; `message` (a StaffMessage) when staff send the ' +
          'participant a message. `ping` every 15 s. Events of every server instance ' +
          'arrive. The runner re-reads the state it needs; without the stream it polls.',
        tags,
        errors: [401, 403],
      },
      (_req, auth) => auth.participantTestId !== null,
    ),
    handler: async (req, reply) => {
      const ptId = authOf(req).participantTestId!;
      const sse = startSse(req, reply, streams, PING_MS, 'participant');
      // The connection log of the work (the room's sitting log, the protocol).
      sse.onEnd((by) => presence.closedStream(ptId, by === 'client'));
      await presence.opened(ptId);
      const off = bus.subscribe(participantKey(ptId), (event) => {
        // A staff message goes as an event of its own: runners that do not know it never see it.
        if (event.kind === 'message') {
          if (event.data?.message) sse.write('message', event.data.message);
          return;
        }
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
    ...contractRoute(
      'POST /api/monitoring/participantTest/{id}/message',
      {
        summary: "A short message to one participant's sitting, shown in their runner",
        description:
          "Stored, audited (participant_test.message), listed in the sitting's event log and pushed to the " +
          "runner (the participant stream's `message` event); a runner that was offline reads it on reconnect. " +
          'Text 1–500 characters. Scope as the room: organizator assigned classes and buildings, coordinator ' +
          'own school, admin any; 404 for no such participant test.',
        tags,
        errors: [400, 401, 403, 404],
      },
      sittingInScope,
    ),
    handler: (req) => sendStaffMessage(ctx, authOf(req), req.params.id, req.body.text, req.ip ?? null),
  });

  app.route({
    ...contractRoute('GET /api/monitoring/messages', {
      summary: "The participant's own unread staff messages, oldest first",
      description: 'What the runner shows again after a reload or a lost connection.',
      tags,
      errors: [401, 403],
    }),
    handler: (req) => unreadMessages(ctx, authOf(req)),
  });

  app.route({
    ...contractRoute('POST /api/monitoring/messages/{id}/read', {
      summary: 'The participant dismissed a staff message: it is not shown again',
      description: '404 for a message of another sitting.',
      tags,
      errors: [400, 401, 403, 404],
    }),
    handler: (req) => markMessageRead(ctx, authOf(req), req.params.id),
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
