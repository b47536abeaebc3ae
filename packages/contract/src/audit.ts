/**
 * The audit trail (issue 13, item 6): `POST /api/admin/audit/list` and `GET /api/admin/audit/actions`,
 * admin only. Every change the server makes on someone's behalf is a row of `audit_events` (who,
 * what, on which record, why, from where); these calls read it. docs/audit.md lists the actions.
 */
import { z } from 'zod';
import { listResponseSchema } from './paging.js';
import { listRequestOf } from './staff.js';
import { calendarDateSchema } from './user.js';

/**
 * The actions the server records, each with a label in the web client (which is typed by this
 * list, so a new action cannot reach the screen without one). An action missing here still lists;
 * the screen then calls it an unlabelled action.
 */
export const AUDIT_ACTIONS = [
  // sign-in and accounts
  'login',
  'login_failed',
  'login_refused',
  'registered',
  'email_confirmed',
  'password_changed',
  'password_reset',
  'sessions_ended',
  'user.create',
  'user.update',
  'user.password_set',
  'user.profile_update',
  'profile.expert.save',
  'profile.guest.save',
  'open_test.attempt',
  // organisation
  'oo.create',
  'oo.update',
  'school.create',
  'school.update',
  'area.create',
  'building.create',
  'building.update',
  'class.create',
  'class.update',
  'class.delete',
  'student.create',
  'student.update',
  'student.delete',
  'student.accommodations',
  'worker.accommodations',
  'roster.import',
  'roster.staff_import',
  'organizator.create',
  'organizator.update',
  'organizator.block',
  'organizator.unblock',
  // diagnostics and registrations
  'diagnostic.create',
  'diagnostic.delete',
  'diagnostic.export_codes',
  'participant_test.register',
  'participant_test.update',
  'participant_test.delete',
  'participant_test.clear_session',
  'participant_test.create_impersonal',
  'participant_test.import_xml',
  'participant.card_save',
  'participant_codes.print',
  'queue.planning.create',
  'worker_test.create',
  'worker_test.update',
  'worker_test.delete',
  'worker_test.activation_code',
  // the exam
  'exam_work.start',
  'exam_work.pause',
  'exam_work.resume',
  'exam_work.change_time',
  'exam_work.finish',
  'exam_work.timeout',
  'exam_work.restore',
  'exam_work.delete',
  'exam_work.answers_keyed_in',
  'exam_work.paper_created',
  'scan_batch.images_deleted',
  'participant_test.message',
  'subject_test.pause_policy',
  // grading and results
  'expert.marks.save',
  'expert.marks.correct',
  'expert.profile.assign',
  'results.queue',
  'results.regrade',
  'results.regrade_queued',
  'results.publish',
  'results.unpublish',
  'reports.export',
  'equating.adopt',
  'equating.cut_scores',
  // content
  'content.subject.create',
  'content.subject.update',
  'content.subject_exam.create',
  'content.subject_exam.update',
  'content.test_group.create',
  'content.subject_test.create',
  'content.subject_test.update',
  'content.subject_test.publish',
  'content.variant.create',
  'content.variant.update',
  'content.variant.delete',
  'content.variant.generate',
  'content.variant.version',
  'content.task.create',
  'content.task.update',
  'content.task.version',
  'content.task.withdraw',
  'content.task.elements',
  'content.specification.create',
  'content.specification.update',
  'content.specification.delete',
  'content.specification.import',
  'content.element.create',
  'content.element.update',
  'content.element.delete',
  'content.container.create',
  'content.container.version',
  'content.import',
  'content.import.queued',
  'content.import.full_marks',
  // files and feedback
  'file.upload',
  'file.delete',
  'feedback.send',
  'feedback.update',
  'feedback.answer',
  // help and pages
  'help.create',
  'help.update',
  'help.delete',
  'html_text.create',
  'html_text.update',
  // integrations
  'api_key.create',
  'api_key.revoke',
  'integration.export',
  'integration.workers',
  'integration.push',
  'integration.push.delivered',
  'integration.push.failed',
  'integration.push.received',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_SORT_FIELDS = ['at', 'action', 'userLogin'] as const;

export const auditEventSchema = z
  .object({
    id: z.number().int().positive(),
    at: z.string().describe('ISO timestamp'),
    userId: z
      .number()
      .int()
      .positive()
      .nullable()
      .describe('who acted; null for the system or an unknown user'),
    userLogin: z.string().nullable(),
    userName: z.string().nullable().describe('surname, name and patronymic of who acted'),
    action: z.string(),
    entity: z.string().nullable().describe('the kind of record acted on'),
    entityId: z.string().nullable(),
    reason: z.string().nullable().describe('the reason given by who acted (pauses, time changes, deletions)'),
    details: z.record(z.string(), z.unknown()).nullable(),
    ip: z.string().nullable(),
    refs: z
      .record(z.string(), z.string())
      .optional()
      .describe(
        'names of the records the row points at (its record and the ids in its details), by `kind:id` ' +
          '(`diagnostic:12` → its name); a record deleted since has none',
      ),
  })
  .meta({ id: 'AuditEvent' });
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditListFilterSchema = z.strictObject({
  search: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('part of the login or of the surname of who acted'),
  userId: z.number().int().positive().optional(),
  action: z.string().trim().min(1).max(100).optional().describe('one action'),
  area: z
    .string()
    .regex(/^[a-z_]+$/)
    .max(40)
    .optional()
    .describe('every action of one area: the part of its name before the first dot (`exam_work`, `content`)'),
  entity: z
    .string()
    .regex(/^[a-z_]+$/)
    .max(40)
    .optional(),
  entityId: z.string().trim().min(1).max(40).optional(),
  from: calendarDateSchema.optional().describe('on or after this day (Moscow)'),
  to: calendarDateSchema.optional().describe('on or before this day (Moscow)'),
});
export type AuditListFilter = z.infer<typeof auditListFilterSchema>;
export const auditListRequestSchema = listRequestOf(AUDIT_SORT_FIELDS, auditListFilterSchema).meta({
  id: 'AuditListRequest',
});
export type AuditListRequest = z.infer<typeof auditListRequestSchema>;
export type AuditSortField = (typeof AUDIT_SORT_FIELDS)[number];
export const auditListResponseSchema = listResponseSchema(auditEventSchema);

export const auditActionsSchema = z
  .object({
    actions: z.array(z.object({ action: z.string(), count: z.number().int().min(0) })),
  })
  .meta({ id: 'AuditActions' });
export type AuditActions = z.infer<typeof auditActionsSchema>;

/**
 * The kinds of record an audit row may point at by id, whose names the list returns in `refs`
 * (issue 23, item 6): the screen shows the name (and a link), never the id.
 */
export const AUDIT_REF_KINDS = [
  'diagnostic',
  'subject_test',
  'worker_test',
  'participant_test',
  'exam_work',
  'school',
  'class',
  'building',
  'student',
  'worker',
  'user',
  'oo',
  'area',
  'subject',
  'specification',
  'position',
  'file',
  'variant',
  'task',
  'api_key',
  'help_section',
  'html_text',
] as const;
export type AuditRefKind = (typeof AUDIT_REF_KINDS)[number];

/** A detail key's last word names the kind of record its ids are (`droppedParticipantTestIds` → participant test). */
const KEY_KINDS: [suffix: string, kind: AuditRefKind | null][] = [
  ['participanttest', 'participant_test'],
  ['subjecttest', 'subject_test'],
  ['workertest', 'worker_test'],
  ['examwork', 'exam_work'],
  // a task's place in a variant, not a record the screen can name
  ['varianttask', null],
  ['diagnostic', 'diagnostic'],
  ['school', 'school'],
  ['class', 'class'],
  ['building', 'building'],
  ['student', 'student'],
  ['worker', 'worker'],
  ['user', 'user'],
  ['oo', 'oo'],
  ['area', 'area'],
  ['subject', 'subject'],
  ['specification', 'specification'],
  ['position', 'position'],
  ['file', 'file'],
  ['variant', 'variant'],
  ['task', 'task'],
];

/**
 * The kind of record whose ids a detail key holds (`diagnosticId`, `classIds`), or null for any
 * other key (`minutes`, `messageId`). Shared by the server (which names the records) and the
 * screen (which shows the names under the key's label).
 */
export function refKindOfKey(key: string): AuditRefKind | null {
  const m = /^(.*?)Ids?$/.exec(key);
  if (!m) return null;
  const base = m[1]!.toLowerCase();
  for (const [suffix, kind] of KEY_KINDS) if (base === suffix || base.endsWith(suffix)) return kind;
  return null;
}

/** The kind of record an audit row's `entity` is, when it has a name; null otherwise. */
export function refKindOfEntity(entity: string | null): AuditRefKind | null {
  return (AUDIT_REF_KINDS as readonly string[]).includes(entity ?? '') ? (entity as AuditRefKind) : null;
}

/** The key of a record's name in `refs`: `diagnostic:12`. */
export const auditRefKey = (kind: AuditRefKind, id: number | string) => `${kind}:${id}`;
