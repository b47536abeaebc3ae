import { sql } from 'drizzle-orm';
import { subscribe, type DomainEvents } from '../../events/domain-events.js';
import { insertNotifications, type NewNotification } from './notifications.repo.js';

/*
 * Where notifications come from (docs/notifications.md): other modules say what happened as domain
 * events, in their own transaction, and each hook here turns one event into notifications for the
 * users it concerns. A hook only inserts rows: it never refuses the change it hears about.
 */

/** Web pages a notification opens (paths from the app's root). */
export const LINKS = {
  participantResult: '/participant/result',
  expertGrading: '/expert/grading',
  coordinatorResults: '/coordinator/reports',
  coordinatorQueue: '/coordinator/queue',
  contentImport: (queueItemId: number) => `/admin/content/import/${queueItemId}`,
  myFeedback: '/account/feedback',
} as const;

/**
 * Results published: every participant of the diagnostic with an account and a published result is
 * told once (a student with two subject tests gets one notification). Accounts are found the way
 * an activation code signs in: by the student, the worker, or the impersonal test's own login.
 * The coordinators of those participants' schools are told too (their reports are complete now).
 * A work scored after the publication tells its participant alone.
 */
export async function onResultsPublished(event: DomainEvents['resultsPublished']) {
  const { tx, diagnosticId, publishedBy, participantTestIds } = event;
  const only = participantTestIds
    ? sql` and pt.id in (${sql.join(
        participantTestIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const pts = sql`participant_tests pt where pt.diagnostic_id = ${diagnosticId}
    and pt.status = 'published' and pt.deleted_at is null${only}`;
  await tx.execute(sql`
    insert into notifications (user_id, kind, params, link)
    select r.user_id, 'results_published',
           jsonb_build_object('diagnosticId', d.id, 'diagnosticName', d.name), ${LINKS.participantResult}
    from diagnostics d,
      (select u.id as user_id from users u, ${pts} and not pt.is_impersonal and u.student_id = pt.student_id
       union
       select u.id from users u, ${pts} and not pt.is_impersonal and u.worker_id = pt.worker_id
       union
       select u.id from users u, ${pts} and lower(u.login) = 'participant-' || pt.id) r
    where d.id = ${diagnosticId}`);
  // The coordinators of the schools with published results, but the one who published them; a
  // result scored after the publication is news for its participant only.
  if (participantTestIds) return;
  await tx.execute(sql`
    insert into notifications (user_id, kind, params, link)
    select distinct u.id, 'results_published',
           jsonb_build_object('diagnosticId', d.id, 'diagnosticName', d.name), ${LINKS.coordinatorResults}
    from diagnostics d
    join users u on u.school_id in (select pt.school_id from ${pts})
    join user_roles r on r.user_id = u.id and r.role = 'coordinator'
    where d.id = ${diagnosticId} and u.id <> ${publishedBy ?? 0} and not u.is_blocked`);
}

/** Answers assigned: each expert is told how many; unread, the count adds up in one notification. */
export async function onExpertsAssigned({ db, assigned }: DomainEvents['expertsAssigned']) {
  await insertNotifications(
    db,
    [...assigned].map(([userId, count]) => ({
      userId,
      kind: 'grading_assigned',
      params: { count },
      link: LINKS.expertGrading,
      groupKey: 'grading_assigned',
    })),
  );
}

/** Where a queue item's creator follows it, by its type (null: the notification says it all). */
function queueLink(item: { id: number; type: string }): string | null {
  if (item.type === 'import') return LINKS.contentImport(item.id);
  if (item.type === 'planning') return LINKS.coordinatorQueue;
  return null;
}

/** A queue item done or failed for good: the user who created it is told (system items tell no one). */
export async function onQueueItemSettled({ db, item, status }: DomainEvents['queueItemSettled']) {
  if (item.createdBy === null) return;
  const row: NewNotification = {
    userId: item.createdBy,
    kind: status === 'done' ? 'queue_done' : 'queue_failed',
    params: {
      queueItemId: item.id,
      type: item.type,
      ...(status === 'failed' ? { errorCode: item.errorCode ?? 'job_failed' } : {}),
    },
    link: queueLink(item),
  };
  await insertNotifications(db, [row]);
}

/** A feedback message answered: its sender (not the admin answering their own message) is told. */
export async function onFeedbackAnswered({
  tx,
  feedbackId,
  senderId,
  answeredBy,
}: DomainEvents['feedbackAnswered']) {
  if (senderId === null || senderId === answeredBy) return;
  await insertNotifications(tx, [
    { userId: senderId, kind: 'feedback_answered', params: { feedbackId }, link: LINKS.myFeedback },
  ]);
}

/** Subscribes the hooks (at the module's registration; twice is once). */
export function registerNotificationProducers(): void {
  subscribe('resultsPublished', onResultsPublished);
  subscribe('expertsAssigned', onExpertsAssigned);
  subscribe('queueItemSettled', onQueueItemSettled);
  subscribe('feedbackAnswered', onFeedbackAnswered);
}
