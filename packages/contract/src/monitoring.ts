import { z } from 'zod';
import { accommodationsSchema } from './accommodations.js';
import { finishReasonSchema } from './exam.js';

/*
 * The live room view (/api/monitoring/*, beyond the specification): the room snapshot and its
 * rows (also the data of the stream's `snapshot` and `work` events), and the integrity events the
 * participant's runner reports. A row is one sitting: a participant test (one participant, one
 * subject test of the diagnostic) with its live work, if any.
 */

export const ROOM_STATUSES = ['not_started', 'in_progress', 'paused', 'finished', 'absent'] as const;
export const roomStatusSchema = z.enum(ROOM_STATUSES);
export type RoomStatus = z.infer<typeof roomStatusSchema>;

const iso = z.string().nullable();

export const roomRowSchema = z
  .object({
    participantTestId: z.number().int(),
    examWorkId: z.number().int().nullable(),
    deletedExamWorkId: z
      .number()
      .int()
      .nullable()
      .describe('a deleted work that RestoreExamWork can bring back (only when there is no live work)'),
    name: z.string().nullable(),
    className: z.string().nullable(),
    subjectTestId: z.number().int(),
    subjectTestName: z
      .string()
      .describe('the subject test of this sitting: a participant sitting two tests has a row for each'),
    status: roomStatusSchema,
    answered: z.number().int(),
    total: z.number().int().nullable(),
    secondsLeft: z.number().int().nullable(),
    deadlineAt: iso,
    lastSaveAt: iso,
    online: z.boolean(),
    offlineSince: iso,
    lastSeenAt: iso,
    pausedByStaff: z.boolean(),
    pauseReason: z.string().nullable(),
    finishReason: z.string().nullable(),
    integrity: z.record(z.string(), z.number()).describe('integrity events of the work, counted by kind'),
    proctoringVerdict: z
      .string()
      .nullable()
      .optional()
      .describe("the proctoring service's latest verdict on the work (endsessiondata), or null"),
    activationCode: z
      .string()
      .nullable()
      .describe('the sitting’s activation code (a credential); null for the ugnik, who supervises read-only'),
    registrationCode: z.string().nullable().describe('null for the ugnik, as the activation code'),
    accommodations: accommodationsSchema
      .nullable()
      .optional()
      .describe("the student's accommodations profile (docs/accommodations.md); null: none"),
  })
  .meta({ id: 'RoomRow' });
export type RoomRow = z.infer<typeof roomRowSchema>;

export const roomSnapshotSchema = z
  .object({
    diagnosticId: z.number().int(),
    classId: z.number().int().nullable(),
    buildingId: z.number().int().nullable(),
    serverTime: z.string(),
    participants: z.array(roomRowSchema),
  })
  .meta({ id: 'RoomSnapshot' });
export type RoomSnapshot = z.infer<typeof roomSnapshotSchema>;

const roomId = z.coerce.number().int().positive().max(2_147_483_647);
/** A room: a class (`classId`) or a whole building (`buildingId`) of one diagnostic. */
export const roomQuerySchema = z.strictObject({
  diagnosticId: roomId,
  classId: roomId.optional(),
  buildingId: roomId.optional(),
});
export type RoomQuery = z.infer<typeof roomQuerySchema>;

/** Data of the stream's `work` event: what changed and the participant's row as it is now. */
export const roomWorkEventSchema = z.object({ kind: z.string(), row: roomRowSchema });
export type RoomWorkEvent = z.infer<typeof roomWorkEventSchema>;

/** What a participant's runner hears at once on its own stream: what staff (or the server) did to the work. */
export const RUNNER_EVENT_KINDS = [
  'paused',
  'resumed',
  'time_changed',
  'finished',
  'deleted',
  'restored',
  'session_cleared',
  'logged_out',
] as const;
export type RunnerEventKind = (typeof RUNNER_EVENT_KINDS)[number];
/** After these the runner's session is gone or moved: the stream says so and ends. */
export const ENDING_RUNNER_EVENT_KINDS = [
  'session_cleared',
  'logged_out',
] as const satisfies readonly RunnerEventKind[];

/** Data of the participant stream's `work` event; the runner re-reads the state it needs. */
export const runnerWorkEventSchema = z.object({
  kind: z.enum(RUNNER_EVENT_KINDS),
  examWorkId: z.number().int().nullable().describe('null when the session ends before a work exists'),
  at: z.string(),
});
export type RunnerWorkEvent = z.infer<typeof runnerWorkEventSchema>;

export const INTEGRITY_KINDS = [
  'blur',
  'focus',
  'fullscreen_exit',
  'fullscreen_enter',
  'offline',
  'online',
  'visibility_hidden',
  'visibility_visible',
] as const;
export const integrityKindSchema = z.enum(INTEGRITY_KINDS);
export type IntegrityKind = z.infer<typeof integrityKindSchema>;

export const integrityEventSchema = z.strictObject({
  kind: integrityKindSchema,
  at: z.string().max(40).optional().describe("the client's time of the event (kept as a detail)"),
});
export type IntegrityEvent = z.infer<typeof integrityEventSchema>;

/**
 * Work events the server itself records (beside the runner's integrity events, in the same store):
 * the runner's live connection went down while the work ran, came back, and a second device
 * tried to open the work and was refused.
 */
export const SERVER_WORK_EVENT_KINDS = ['connection_lost', 'connection_restored', 'second_device'] as const;
export type ServerWorkEventKind = (typeof SERVER_WORK_EVENT_KINDS)[number];

/** What the per-sitting event log of the room view tells, one word each (the web writes them out). */
export const SITTING_EVENT_KINDS = [
  'started',
  'paused',
  'resumed',
  'time_changed',
  'answers_keyed_in',
  'finished',
  'deleted',
  'restored',
  'session_cleared',
  'logged_out',
  'integrity',
  'proctoring_verdict',
  'message',
  'connection_lost',
  'connection_restored',
  'second_device',
] as const;
export type SittingEventKind = (typeof SITTING_EVENT_KINDS)[number];
export const SITTING_EVENT_ACTORS = ['participant', 'staff', 'system'] as const;

export const sittingEventSchema = z
  .object({
    at: z.string().describe('ISO instant (server clock)'),
    kind: z.enum(SITTING_EVENT_KINDS),
    actor: z.enum(SITTING_EVENT_ACTORS).describe('who did it: the participant, a staff member, the server'),
    examWorkId: z.number().int().nullable(),
    reason: z.string().nullable().describe('the reason staff gave (pause, time change, deletion…)'),
    deltaSeconds: z.number().int().nullable().describe('time_changed: seconds added (negative: removed)'),
    integrityKind: integrityKindSchema.nullable().describe('integrity: which event'),
    finishReason: finishReasonSchema.nullable().describe('finished: why the work ended'),
    verdict: z.string().nullable().describe("proctoring_verdict: the proctoring service's verdict"),
    message: z.string().nullable().optional().describe('message: the text staff sent to the participant'),
    actorName: z
      .string()
      .nullable()
      .optional()
      .describe(
        'staff: who did it, as «Иванов И. И.» (their login when the account has no name); null otherwise',
      ),
    offlineSeconds: z
      .number()
      .int()
      .nullable()
      .optional()
      .describe("connection_restored: seconds the runner's connection was down"),
  })
  .meta({ id: 'SittingEvent' });
export type SittingEvent = z.infer<typeof sittingEventSchema>;

export const SITTING_EVENTS_LIMIT = 500;
/** `GET /api/monitoring/participantTest/{id}/events`: a sitting's events, oldest first. */
export const sittingEventsSchema = z
  .object({
    participantTestId: z.number().int(),
    events: z.array(sittingEventSchema),
    truncated: z.boolean().describe(`true when only the newest ${SITTING_EVENTS_LIMIT} events are listed`),
  })
  .meta({ id: 'SittingEvents' });
export type SittingEvents = z.infer<typeof sittingEventsSchema>;

/** Longest text staff may send to a participant from the room view. */
export const STAFF_MESSAGE_MAX = 500;

/** `POST /api/monitoring/participantTest/{id}/message`: a short text to one sitting. */
export const staffMessageBodySchema = z.strictObject({
  text: z.string().trim().min(1).max(STAFF_MESSAGE_MAX).describe('the message, 1–500 characters'),
});
export type StaffMessageBody = z.infer<typeof staffMessageBodySchema>;

/** A message staff sent to a participant's sitting (also the data of the runner stream's `message` event). */
export const staffMessageSchema = z
  .object({
    id: z.number().int(),
    participantTestId: z.number().int(),
    text: z.string(),
    at: z.string().describe('ISO instant it was sent (server clock)'),
    readAt: z.string().nullable().describe('when the participant dismissed it; null while unread'),
  })
  .meta({ id: 'StaffMessage' });
export type StaffMessage = z.infer<typeof staffMessageSchema>;

/** `GET /api/monitoring/messages`: the participant's own unread messages, oldest first. */
export const staffMessagesSchema = z.object({ messages: z.array(staffMessageSchema) });
export type StaffMessages = z.infer<typeof staffMessagesSchema>;
