/** The calls of the monitoring area (server/src/modules/monitoring), each with its roles, meaning and schemas. */
import { idPathSchema } from '../calls-participant.js';
import {
  roomQuerySchema,
  roomSnapshotSchema,
  sittingEventsSchema,
  staffMessageBodySchema,
  staffMessageSchema,
} from '../monitoring.js';
import { ROOM_WATCHERS, STAFF, type CallTable } from '../call-schema.js';

export const MONITORING_CALLS = {
  'GET /api/monitoring/room': {
    roles: ROOM_WATCHERS,
    meaning: 'a room now',
    ours: true,
    query: roomQuerySchema,
    response: roomSnapshotSchema,
  },
  'GET /api/monitoring/room/stream': {
    roles: ROOM_WATCHERS,
    meaning: 'a room live (SSE)',
    ours: true,
    query: roomQuerySchema,
    raw: 'stream',
  },
  'GET /api/monitoring/participantTest/{id}/events': {
    roles: ROOM_WATCHERS,
    meaning: "a sitting's event log in the room view (start, pauses, time, finish, integrity…)",
    ours: true,
    params: idPathSchema,
    response: sittingEventsSchema,
  },
  'POST /api/monitoring/participantTest/{id}/message': {
    roles: STAFF,
    meaning: "a short message from the room view to one participant's sitting (shown in the runner)",
    ours: true,
    params: idPathSchema,
    body: staffMessageBodySchema,
    response: staffMessageSchema,
  },
  'GET /api/monitoring/participant/stream': {
    roles: ['participant'],
    meaning: "what staff do to the participant's own work, live (SSE)",
    ours: true,
    raw: 'stream',
  },
} as const satisfies CallTable;
