import { sql } from 'drizzle-orm';
import type { EnableChangePublish, FieldError } from '@attesta/contract';
import { rowsOf, type DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import type { DiagnosticRow } from '../create-diagnostic/index.js';
import { gradingState } from './results.read.js';

/*
 * Where a diagnostic stands for publication (docs/design.md §3, "Publication ends the sitting"): its
 * window, its registrations by where they stand, the grading, and what holds publication back. Keys
 * never reach anyone who can still write, so:
 *  - works not finished (`inProgress`) always hold it back: 409 `publication_participants_unfinished`;
 *  - an open window holds it back (409 `publication_window_open`) unless an admin overrides it; the
 *    registrations not started are then marked absent, and no work of the diagnostic starts again;
 *  - grading not done: 409 `grading_incomplete`, as before.
 */

export type PublicationParticipants = EnableChangePublish['participants'];
export type PublicationBlock = NonNullable<EnableChangePublish['reason']>;

export interface PublicationState {
  window: { startsAt: Date; endsAt: Date; open: boolean };
  participants: PublicationParticipants;
  grading: Awaited<ReturnType<typeof gradingState>>;
  /** What holds publication back, most pressing first; null: nothing. */
  reason: PublicationBlock | null;
  /** Only the open window holds it back: an admin may override it. */
  overridable: boolean;
}

interface CountRow {
  registered: number | string;
  finished: number | string;
  in_progress: number | string;
  not_started: number | string;
  absent: number | string;
  annulled: number | string;
}

/**
 * The registrations of a diagnostic by where they stand at `now` (optionally one school's). A work
 * not finished counts as in progress whatever the registration's status (even annulled: it could
 * still be written); without a work a registration is absent once marked so or once the window has
 * closed (the words of noresult and the reports), and not started while the window is open.
 */
export async function participantCounts(
  db: DbOrTx,
  diagnosticId: number,
  now: Date,
  schoolId: number | null = null,
): Promise<PublicationParticipants> {
  const rows = rowsOf<CountRow>(
    await db.execute(sql`
      select count(*)::int as registered,
        count(*) filter (where w.id is not null and w.finished_at is not null and pt.status <> 'annulled')::int as finished,
        count(*) filter (where w.id is not null and w.finished_at is null)::int as in_progress,
        count(*) filter (where w.id is null and pt.status not in ('annulled', 'absent')
          and d.ends_at > ${now.toISOString()}::timestamptz)::int as not_started,
        count(*) filter (where w.id is null and pt.status <> 'annulled'
          and (pt.status = 'absent' or d.ends_at <= ${now.toISOString()}::timestamptz))::int as absent,
        count(*) filter (where pt.status = 'annulled' and (w.id is null or w.finished_at is not null))::int as annulled
      from participant_tests pt
      join diagnostics d on d.id = pt.diagnostic_id
      left join exam_works w on w.participant_test_id = pt.id and w.deleted_at is null
      where pt.diagnostic_id = ${diagnosticId} and pt.deleted_at is null
        ${schoolId === null ? sql`` : sql`and pt.school_id = ${schoolId}`}`),
  );
  const r = rows[0]!;
  return {
    registered: Number(r.registered),
    finished: Number(r.finished),
    inProgress: Number(r.in_progress),
    notStarted: Number(r.not_started),
    absent: Number(r.absent),
    annulled: Number(r.annulled),
  };
}

export async function publicationState(
  db: DbOrTx,
  d: Pick<DiagnosticRow, 'id' | 'startsAt' | 'endsAt'>,
  now: Date,
  schoolId: number | null = null,
): Promise<PublicationState> {
  const [participants, grading] = await Promise.all([
    participantCounts(db, d.id, now, schoolId),
    gradingState(db, d.id),
  ]);
  const open = now < d.endsAt;
  const reason: PublicationBlock | null =
    participants.inProgress > 0 ? 'participants_unfinished' : open ? 'window_open' : grading.reason;
  return {
    window: { startsAt: d.startsAt, endsAt: d.endsAt, open },
    participants,
    grading,
    reason,
    overridable: reason === 'window_open' && grading.enabled,
  };
}

/** What the refusal names: the window and the counts, as `params` of its one error entry. */
function refusalDetails(state: PublicationState, code: FieldError['code']): FieldError[] {
  const p = state.participants;
  return [
    {
      path: 'diagnostic',
      message: `registered ${p.registered}: finished ${p.finished}, in progress ${p.inProgress}, not started ${p.notStarted}, absent ${p.absent}, annulled ${p.annulled}`,
      code,
      params: {
        startsAt: state.window.startsAt.toISOString(),
        endsAt: state.window.endsAt.toISOString(),
        ...p,
      },
    },
  ];
}

/** 409 when the state holds publication back (the window only when not overridden). */
export function assertPublishable(state: PublicationState, override: boolean): void {
  const p = state.participants;
  if (p.inProgress > 0)
    throw new AppError(
      409,
      'publication_participants_unfinished',
      `Results cannot be published while works are not finished: ${p.inProgress} in progress`,
      refusalDetails(state, 'publication_participants_unfinished'),
    );
  if (state.window.open && !override)
    throw new AppError(
      409,
      'publication_window_open',
      `Results cannot be published before the window ends (${state.window.endsAt.toISOString()}): ` +
        `${p.notStarted} registered participants have not started`,
      refusalDetails(state, 'publication_window_open'),
    );
  if (!state.grading.enabled)
    throw new AppError(
      409,
      'grading_incomplete',
      `Results cannot be published yet: ${state.grading.awaitingGrading} awaiting experts, ${state.grading.unscored} not scored`,
    );
}

const MESSAGES: Record<PublicationBlock, (s: PublicationState) => string> = {
  participants_unfinished: (s) => `Работы ещё не завершены: ${s.participants.inProgress}`,
  window_open: (s) => `Окно диагностики ещё открыто, не начали работу: ${s.participants.notStarted}`,
  awaiting_grading: (s) => `Ожидают проверки экспертами: ${s.grading.awaitingGrading}`,
  unscored: (s) => `Завершённых работ без результата: ${s.grading.unscored}`,
};

export function toEnableChangePublish(
  state: PublicationState,
  d: Pick<DiagnosticRow, 'id' | 'code' | 'name' | 'resultsPublished' | 'publishedAt'>,
  who: { mayPublish: boolean; mayOverride: boolean; scope: 'diagnostic' | 'school' },
): EnableChangePublish {
  return {
    diagnostic: { id: d.id, code: d.code, name: d.name },
    enabled: state.reason === null,
    awaitingGrading: state.grading.awaitingGrading,
    unscored: state.grading.unscored,
    reason: state.reason,
    message: state.reason ? MESSAGES[state.reason](state) : null,
    window: {
      startsAt: state.window.startsAt.toISOString(),
      endsAt: state.window.endsAt.toISOString(),
      open: state.window.open,
    },
    participants: state.participants,
    participantsScope: who.scope,
    overridable: who.mayOverride && state.overridable,
    mayPublish: who.mayPublish,
    resultsPublished: d.resultsPublished,
    publishedAt: d.publishedAt?.toISOString() ?? null,
  };
}
