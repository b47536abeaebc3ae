import { sql } from 'drizzle-orm';
import {
  FINISH_REASONS,
  INTEGRITY_KINDS,
  SITTING_EVENTS_LIMIT,
  type IntegrityKind,
  type SittingEvent,
  type SittingEventKind,
  type SittingEvents,
} from '@attesta/contract';
import type { AuthContext } from '../../auth/types.js';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { shortUserName } from '../../lib/person-name.js';
import { canWatchRoom } from './monitoring.service.js';

/*
 * A sitting's event log for the room view: what happened to one participant test and its works
 * (deleted ones too), oldest first. Read from what the server already records — the audit trail of
 * the work and the participant test (start, pauses, time changes, keyed-in forms, deletion,
 * restore, session cleared, logged out), the works' own finish (the sweeper's timeouts are audited
 * without a work id), the work events (integrity, proctoring verdict, and the server's own: a lost
 * and restored runner connection, a second device refused) and staff messages. Staff actions carry
 * the staff member's short name. Actions are mapped to a
 * closed set of kinds and only allowlisted details leave the server.
 */

const AUDIT_KINDS: Record<string, SittingEventKind> = {
  'exam_work.start': 'started',
  'exam_work.pause': 'paused',
  'exam_work.resume': 'resumed',
  'exam_work.change_time': 'time_changed',
  'exam_work.answers_keyed_in': 'answers_keyed_in',
  'exam_work.delete': 'deleted',
  'exam_work.restore': 'restored',
  'participant_test.clear_session': 'session_cleared',
  sessions_ended: 'logged_out',
};
const INTEGRITY = new Set<string>(INTEGRITY_KINDS);
const FINISHES = new Set<string>(FINISH_REASONS);

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Scope of a sitting: the room it sits in must be one the caller may watch; 404 when there is none. */
export async function canReadSitting(db: Db, auth: AuthContext, participantTestId: number): Promise<boolean> {
  const [pt] = rowsOf<{ diagnosticId: number; classId: number | null; buildingId: number | null }>(
    await db.execute(sql`select diagnostic_id as "diagnosticId", class_id as "classId", building_id as "buildingId"
      from participant_tests where id = ${participantTestId} and deleted_at is null`),
  );
  if (!pt) throw notFound('No such participant test');
  if (pt.classId === null && pt.buildingId === null) return false;
  return canWatchRoom(db, auth, {
    diagnosticId: Number(pt.diagnosticId),
    ...(pt.classId !== null ? { classId: Number(pt.classId) } : { buildingId: Number(pt.buildingId) }),
  });
}

interface RawEvent {
  at: string | Date;
  source: 'audit' | 'finish' | 'work_event' | 'message';
  action: string;
  examWorkId: number | string | null;
  reason: string | null;
  details: Record<string, unknown> | string | null;
  isParticipant: boolean | null;
  hasUser: boolean;
  userName: string | null;
}

export async function sittingEvents(db: Db, participantTestId: number): Promise<SittingEvents> {
  const actions = Object.keys(AUDIT_KINDS);
  const rows = rowsOf<RawEvent>(
    await db.execute(sql`
      with works as (select id from exam_works where participant_test_id = ${participantTestId}),
      events as (
        select a.at, 'audit' as source, a.action,
          case when a.entity = 'exam_work' then a.entity_id::int end as "examWorkId",
          a.reason, a.details, a.user_id
        from audit_events a
        where a.action in (${sql.join(
          actions.map((x) => sql`${x}`),
          sql`, `,
        )})
          and ((a.entity = 'exam_work' and a.entity_id in (select id::text from works))
            or (a.entity = 'participant_test' and a.entity_id = ${String(participantTestId)}))
        union all
        select w.finished_at, 'finish', 'finish', w.id, w.finish_reason, null, null
        from exam_works w where w.participant_test_id = ${participantTestId} and w.finished_at is not null
        union all
        select e.at, 'work_event', e.kind, e.exam_work_id, null, e.details, null
        from exam_work_events e where e.exam_work_id in (select id from works)
        union all
        select m.created_at, 'message', 'message', null, m.text, null, m.author_id
        from staff_messages m where m.participant_test_id = ${participantTestId}
      )
      select ev.at, ev.source, ev.action, ev."examWorkId", ev.reason, ev.details,
        exists (select 1 from user_roles r where r.user_id = ev.user_id and r.role = 'participant') as "isParticipant",
        ev.user_id is not null as "hasUser",
        ${shortUserName(sql`u`)} as "userName"
      from events ev
      left join users u on u.id = ev.user_id
      order by ev.at desc
      limit ${SITTING_EVENTS_LIMIT + 1}`),
  );
  const truncated = rows.length > SITTING_EVENTS_LIMIT;
  const events = rows
    .slice(0, SITTING_EVENTS_LIMIT)
    .reverse()
    .map(toEvent)
    .filter((e): e is SittingEvent => e !== null);
  return { participantTestId, events, truncated };
}

function toEvent(r: RawEvent): SittingEvent | null {
  const details = (typeof r.details === 'string' ? JSON.parse(r.details) : r.details) ?? {};
  const base = {
    at: new Date(r.at).toISOString(),
    examWorkId: r.examWorkId === null ? null : Number(r.examWorkId),
    reason: null,
    deltaSeconds: null,
    integrityKind: null,
    finishReason: null,
    verdict: null,
    message: null,
    actorName: null,
    offlineSeconds: null,
  };
  const staffName = r.hasUser && !r.isParticipant ? r.userName : null;
  if (r.source === 'finish')
    return {
      ...base,
      kind: 'finished',
      actor: r.reason === 'manual' ? 'participant' : r.reason === 'timeout' ? 'system' : 'staff',
      finishReason:
        r.reason !== null && FINISHES.has(r.reason) ? (r.reason as (typeof FINISH_REASONS)[number]) : null,
    };
  if (r.source === 'message')
    return { ...base, kind: 'message', actor: 'staff', message: r.reason, actorName: staffName };
  if (r.source === 'work_event') {
    if (r.action === 'connection_lost') return { ...base, kind: 'connection_lost', actor: 'system' };
    if (r.action === 'connection_restored') {
      const offline = details.offlineSeconds;
      return {
        ...base,
        kind: 'connection_restored',
        actor: 'system',
        offlineSeconds: typeof offline === 'number' ? Math.trunc(offline) : null,
      };
    }
    if (r.action === 'second_device') return { ...base, kind: 'second_device', actor: 'participant' };
    if (r.action === 'proctoring_verdict')
      return {
        ...base,
        kind: 'proctoring_verdict',
        actor: 'system',
        verdict: typeof details.verdict === 'string' ? details.verdict : null,
      };
    if (!INTEGRITY.has(r.action)) return null;
    return { ...base, kind: 'integrity', actor: 'participant', integrityKind: r.action as IntegrityKind };
  }
  const kind = AUDIT_KINDS[r.action];
  if (!kind) return null;
  const delta = details.deltaSeconds;
  return {
    ...base,
    kind,
    actor: !r.hasUser ? 'system' : r.isParticipant ? 'participant' : 'staff',
    actorName: staffName,
    reason: r.reason,
    deltaSeconds: kind === 'time_changed' && typeof delta === 'number' ? Math.trunc(delta) : null,
  };
}
