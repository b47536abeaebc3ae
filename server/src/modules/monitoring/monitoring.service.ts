import { sql, type SQL } from 'drizzle-orm';
import {
  hasAccommodations,
  SERVER_WORK_EVENT_KINDS,
  type Accommodations,
  type IntegrityKind,
  type RoomRow,
  type RoomSnapshot,
  type RoomStatus,
} from '@attesta/contract';
import { hasRole, type AuthContext } from '../../auth/types.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { examWorkEvents } from '../../db/schema/index.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { effectiveDeadline, isPastDeadline, secondsLeft } from '../exam-test/index.js';
import { assignedClassIds, assignedWholeBuildingIds } from '../school-data/index.js';
import { busOf, publishWorkEvent } from '../../events/work-bus.js';

/*
 * The live room view: who is in a room (a class or a whole building of one diagnostic), how far
 * each participant got, their clock and their integrity events. A row is one sitting — a
 * participant test (one participant, one subject test) with its live work — named by its subject
 * test. Rows are built from the database only, so every instance shows the same thing; the stream
 * re-reads the rows events name.
 */

export interface RoomRef {
  diagnosticId: number;
  classId?: number;
  buildingId?: number;
}

export const ONLINE_WINDOW_MS = 60_000;

// ------------------------------------------------------------------ scope

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * Whether the caller may watch the room: admin any; a coordinator a room of their own school; an
 * organizator a class assigned to them (or in a building assigned as a whole), or a building
 * assigned as a whole. 404 for a room that does not exist.
 */
export async function canWatchRoom(db: Db, auth: AuthContext, ref: RoomRef): Promise<boolean> {
  const place =
    ref.classId !== undefined
      ? sql`select c.school_id as "schoolId" from classes c where c.id = ${ref.classId}`
      : sql`select b.school_id as "schoolId" from buildings b where b.id = ${ref.buildingId ?? 0}`;
  const [room] = rowsOf<{ schoolId: number }>(await db.execute(place));
  if (!room) throw notFound('No such room');
  if (hasRole(auth, 'admin')) return true;
  if (hasRole(auth, 'coordinator') && auth.schoolId !== null && Number(room.schoolId) === auth.schoolId)
    return true;
  // The ugnik watches, read-only, the rooms of the schools of its area (docs/ugnik.md).
  if (hasRole(auth, 'ugnik')) {
    const inArea = sql`select 1 as ok from schools s join users u on u.area_id = s.area_id
      where s.id = ${Number(room.schoolId)} and u.id = ${auth.userId}`;
    if (rowsOf(await db.execute(inArea)).length) return true;
  }
  if (hasRole(auth, 'organizator')) {
    const check =
      ref.classId !== undefined
        ? sql`select 1 as ok where ${ref.classId} in ${assignedClassIds(auth.userId)}`
        : sql`select 1 as ok where ${ref.buildingId ?? 0} in ${assignedWholeBuildingIds(auth.userId)}`;
    if (rowsOf(await db.execute(check)).length) return true;
  }
  return false;
}

// ------------------------------------------------------------------ rows

interface RawRow {
  participantTestId: number;
  ptStatus: string;
  activationCode: string;
  registrationCode: string;
  name: string | null;
  className: string | null;
  subjectTestId: number;
  subjectTestName: string;
  workId: number | null;
  status: string | null;
  startedAt: string | Date | null;
  timeLimitSeconds: number | null;
  extraSeconds: number | null;
  pausedSeconds: number | null;
  pausedAt: string | Date | null;
  windowEndsAt: string | Date | null;
  deadlineAt: string | Date | null;
  finishedAt: string | Date | null;
  finishReason: string | null;
  answered: number | string | null;
  total: number | string | null;
  lastSaveAt: string | Date | null;
  lastEventAt: string | Date | null;
  deletedWorkId: number | null;
  pausedByStaff: boolean | null;
  pauseReason: string | null;
  integrity: Record<string, number | string> | string | null;
  proctoringVerdict: string | null;
  accommodations: Accommodations | string | null;
}

const toDate = (v: string | Date | null): Date | null => (v === null ? null : new Date(v));
const toIso = (v: string | Date | null) => toDate(v)?.toISOString() ?? null;

/**
 * The server's own work events (a lost connection, a second device) are no sign of the runner being
 * there, and no integrity event of the participant: the row leaves them out (the sitting's log has them).
 */
const serverKinds = sql`(${sql.join(
  SERVER_WORK_EVENT_KINDS.map((k) => sql`${k}`),
  sql`, `,
)})`;

/** Rows of a room (or of some participant tests of it), newest state from the database. */
async function readRows(db: Db, ref: RoomRef, participantTestIds?: number[]): Promise<RawRow[]> {
  const where: SQL[] = [sql`pt.diagnostic_id = ${ref.diagnosticId}`, sql`pt.deleted_at is null`];
  if (ref.classId !== undefined) where.push(sql`pt.class_id = ${ref.classId}`);
  else where.push(sql`pt.building_id = ${ref.buildingId ?? 0}`);
  if (participantTestIds) {
    if (participantTestIds.length === 0) return [];
    where.push(
      sql`pt.id in (${sql.join(
        participantTestIds.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
  }
  const result = await db.execute(sql`
    select pt.id as "participantTestId", pt.status as "ptStatus", pt.activation_code as "activationCode",
      pt.registration_code as "registrationCode",
      coalesce(nullif(concat_ws(' ', s.surname, s.name, s.patronymic), ''),
               nullif(concat_ws(' ', wk.surname, wk.name), '')) as "name",
      c.name as "className", coalesce(s.accommodations, wk.accommodations) as "accommodations",
      st.id as "subjectTestId", st.name as "subjectTestName",
      w.id as "workId", w.status, w.started_at as "startedAt", w.time_limit_seconds as "timeLimitSeconds",
      w.extra_seconds as "extraSeconds", w.paused_seconds as "pausedSeconds", w.paused_at as "pausedAt",
      w.window_ends_at as "windowEndsAt", w.deadline_at as "deadlineAt", w.finished_at as "finishedAt",
      w.finish_reason as "finishReason",
      (select count(*) from answers a where a.exam_work_id = w.id and a.seq > 0 and a.value is not null
         and a.value not in ('null'::jsonb, '""'::jsonb, '[]'::jsonb, '{}'::jsonb, '{"fileIds":[]}'::jsonb)) as "answered",
      coalesce(
        (select count(*) from variant_tasks vt where vt.variant_id = w.variant_id),
        (select count(*) from variant_tasks vt where vt.variant_id =
           (select v.id from variants v where v.subject_test_id = pt.subject_test_id and v.superseded_at is null
              order by v.number limit 1))
      ) as "total",
      (select max(a.saved_at) from answers a where a.exam_work_id = w.id and a.seq > 0) as "lastSaveAt",
      (select max(e.at) from exam_work_events e where e.exam_work_id = w.id
         and e.kind not in ${serverKinds}) as "lastEventAt",
      (select d.id from exam_works d where d.participant_test_id = pt.id and d.deleted_at is not null
         order by d.deleted_at desc limit 1) as "deletedWorkId",
      (select p.by_staff from exam_work_pauses p where p.exam_work_id = w.id and p.ended_at is null
         order by p.id limit 1) as "pausedByStaff",
      (select p.reason from exam_work_pauses p where p.exam_work_id = w.id and p.ended_at is null
         order by p.id limit 1) as "pauseReason",
      (select jsonb_object_agg(k.kind, k.n) from
         (select e.kind, count(*) as n from exam_work_events e where e.exam_work_id = w.id
            and e.kind not in ${serverKinds} group by e.kind) k
      ) as "integrity",
      (select e.details->>'verdict' from exam_work_events e
         where e.exam_work_id = w.id and e.kind = 'proctoring_verdict' order by e.at desc, e.id desc limit 1
      ) as "proctoringVerdict"
    from participant_tests pt
    left join exam_works w on w.participant_test_id = pt.id and w.deleted_at is null
    left join students s on s.id = pt.student_id
    left join workers wk on wk.id = pt.worker_id
    left join classes c on c.id = pt.class_id
    join subject_tests st on st.id = pt.subject_test_id
    where ${sql.join(where, sql` and `)}
    order by "name" nulls last, st.name, pt.id`);
  return rowsOf<RawRow>(result);
}

function toRow(r: RawRow, now: Date, seenMs: number | undefined): RoomRow {
  const work =
    r.workId !== null && r.startedAt !== null
      ? {
          startedAt: toDate(r.startedAt)!,
          timeLimitSeconds: Number(r.timeLimitSeconds),
          extraSeconds: Number(r.extraSeconds),
          pausedSeconds: Number(r.pausedSeconds),
          pausedAt: toDate(r.pausedAt),
          windowEndsAt: toDate(r.windowEndsAt)!,
        }
      : null;
  const finished = r.finishedAt !== null || r.status === 'finished' || r.status === 'scored';
  let status: RoomStatus;
  if (!work) status = r.ptStatus === 'absent' ? 'absent' : 'not_started';
  else if (finished) status = 'finished';
  else if (work.pausedAt) status = 'paused';
  else status = 'in_progress';

  const activity = [seenMs ?? 0, toDate(r.lastSaveAt)?.getTime() ?? 0, toDate(r.lastEventAt)?.getTime() ?? 0];
  if (work) activity.push(work.startedAt.getTime());
  const last = Math.max(...activity);
  const online = !finished && last > 0 && now.getTime() - last < ONLINE_WINDOW_MS;
  const integrity: Record<string, number> = {};
  const rawIntegrity = typeof r.integrity === 'string' ? JSON.parse(r.integrity) : r.integrity;
  for (const [k, v] of Object.entries((rawIntegrity ?? {}) as Record<string, number | string>))
    integrity[k] = Number(v);

  let deadlineAt: string | null = null;
  let left: number | null = null;
  if (work) {
    deadlineAt = finished ? toIso(r.deadlineAt) : effectiveDeadline(work, now).toISOString();
    left = finished ? 0 : isPastDeadline(work, now) ? 0 : secondsLeft(work, now);
  }
  return {
    participantTestId: Number(r.participantTestId),
    examWorkId: r.workId === null ? null : Number(r.workId),
    deletedExamWorkId: r.workId === null && r.deletedWorkId !== null ? Number(r.deletedWorkId) : null,
    name: r.name,
    className: r.className,
    subjectTestId: Number(r.subjectTestId),
    subjectTestName: r.subjectTestName,
    status,
    answered: Number(r.answered ?? 0),
    total: r.total === null ? null : Number(r.total),
    secondsLeft: left,
    deadlineAt,
    lastSaveAt: toIso(r.lastSaveAt),
    online,
    offlineSince: !online && !finished && last > 0 ? new Date(last).toISOString() : null,
    lastSeenAt: last > 0 ? new Date(last).toISOString() : null,
    pausedByStaff: status === 'paused' && !!r.pausedByStaff,
    pauseReason: status === 'paused' ? r.pauseReason : null,
    finishReason: r.finishReason,
    integrity,
    proctoringVerdict: r.proctoringVerdict ?? null,
    activationCode: r.activationCode,
    registrationCode: r.registrationCode,
    accommodations: accommodationsOf(r.accommodations),
  };
}

/** The student's accommodations profile (docs/accommodations.md), null when it gives nothing. */
function accommodationsOf(raw: Accommodations | string | null): Accommodations | null {
  const profile = typeof raw === 'string' ? (JSON.parse(raw) as Accommodations) : raw;
  return hasAccommodations(profile) ? profile : null;
}

/**
 * Whether the caller may see the sittings' activation and registration codes: staff who run the
 * room do (they hand codes out, log a code out); the ugnik supervises read-only and never needs
 * a credential of a participant.
 */
export const seesCodes = (auth: AuthContext) => hasRole(auth, 'organizator', 'coordinator', 'admin');

export async function roomRows(
  ctx: AppContext,
  ref: RoomRef,
  participantTestIds?: number[],
  { withCodes }: { withCodes: boolean } = { withCodes: true },
) {
  const raw = await readRows(ctx.db, ref, participantTestIds);
  const ids = raw.map((r) => Number(r.participantTestId));
  const seen = (await busOf(ctx)?.lastSeen(ids)) ?? new Map<number, number>();
  const now = new Date();
  return raw.map((r) => {
    const row = toRow(r, now, seen.get(Number(r.participantTestId)));
    return withCodes ? row : { ...row, activationCode: null, registrationCode: null };
  });
}

export async function roomSnapshot(ctx: AppContext, ref: RoomRef, auth: AuthContext): Promise<RoomSnapshot> {
  return {
    diagnosticId: ref.diagnosticId,
    classId: ref.classId ?? null,
    buildingId: ref.buildingId ?? null,
    serverTime: new Date().toISOString(),
    participants: await roomRows(ctx, ref, undefined, { withCodes: seesCodes(auth) }),
  };
}

// ------------------------------------------------------------------ integrity events

const RATE_WINDOW_MS = 60_000;
export const RATE_LIMIT_PER_WORK = 120;
/** Per exam work, per process and database (test apps never share counts): a fixed one-minute window. */
const rates = new WeakMap<object, Map<number, { start: number; n: number }>>();

function allowed(db: object, workId: number, now: number): boolean {
  let rate = rates.get(db);
  if (!rate) rates.set(db, (rate = new Map()));
  const slot = rate.get(workId);
  if (!slot || now - slot.start >= RATE_WINDOW_MS) {
    if (rate.size > 50_000) rate.clear();
    rate.set(workId, { start: now, n: 1 });
    return true;
  }
  slot.n += 1;
  return slot.n <= RATE_LIMIT_PER_WORK;
}

/**
 * An integrity event from the participant's own live work: stored and published. Beyond the rate
 * limit events are dropped silently (the answer is the same), so a looping client cannot flood.
 */
export async function recordIntegrity(
  ctx: AppContext,
  auth: AuthContext,
  kind: IntegrityKind,
  at: string | undefined,
): Promise<{ accepted: boolean }> {
  if (auth.participantTestId === null)
    throw forbidden('This session is not bound to a participant test', 'no_participant_test');
  const [work] = rowsOf<{ id: number; finished: boolean }>(
    await ctx.db.execute(sql`select id, finished_at is not null as finished from exam_works
      where participant_test_id = ${auth.participantTestId} and deleted_at is null limit 1`),
  );
  if (!work) throw new AppError(404, 'no_exam_work', 'There is no exam work for this participant test');
  if (work.finished) return { accepted: false };
  const workId = Number(work.id);
  const now = new Date();
  if (!allowed(ctx.db, workId, now.getTime())) return { accepted: false };
  // The client's time is kept as a detail only; the server's clock stamps the event.
  const clientAt = at && !Number.isNaN(Date.parse(at)) ? new Date(at).toISOString() : null;
  await ctx.db.insert(examWorkEvents).values({
    examWorkId: workId,
    at: now,
    kind,
    details: { source: 'participant', ...(clientAt ? { clientAt } : {}) },
  });
  publishWorkEvent(ctx, auth.participantTestId, workId, 'integrity', { integrity: kind });
  return { accepted: true };
}

// ------------------------------------------------------------------ the runner's connection

/**
 * The runner's live stream of a participant test closed from the client's side (a lost network, a
 * closed tab, a reload) while its work runs: a `connection_lost` work event. Nothing when the work
 * has not started, is finished or deleted.
 */
export async function noteConnectionLost(ctx: AppContext, participantTestId: number, now = new Date()) {
  await ctx.db.execute(sql`insert into exam_work_events (exam_work_id, at, kind, details)
    select w.id, ${now.toISOString()}::timestamptz, 'connection_lost', '{"source":"server"}'::jsonb
    from exam_works w
    where w.participant_test_id = ${participantTestId} and w.deleted_at is null
      and w.finished_at is null and w.started_at is not null`);
}

/**
 * The runner's stream is open again: a `connection_restored` work event with how long the
 * connection was down, when the work's last connection event is a loss (so a first connection
 * records nothing).
 */
export async function noteConnectionRestored(ctx: AppContext, participantTestId: number, now = new Date()) {
  const at = now.toISOString();
  await ctx.db.execute(sql`insert into exam_work_events (exam_work_id, at, kind, details)
    select w.id, ${at}::timestamptz, 'connection_restored',
      jsonb_build_object('source', 'server',
        'offlineSeconds', greatest(0, floor(extract(epoch from (${at}::timestamptz - last.at))))::int)
    from exam_works w
    cross join lateral (select e.kind, e.at from exam_work_events e
      where e.exam_work_id = w.id and e.kind in ('connection_lost', 'connection_restored')
      order by e.at desc, e.id desc limit 1) last
    where w.participant_test_id = ${participantTestId} and w.deleted_at is null
      and w.finished_at is null and last.kind = 'connection_lost'`);
}
