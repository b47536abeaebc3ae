import type { Notification } from '@attesta/contract';
import type { LooseT } from '../../../components/data-table/use-bundle-t';
import { describeErrorCode } from '../../../lib/form-errors';

const JOBS = new Set(['import', 'report', 'export', 'planning', 'result', 'regrade']);

/** The sentence of a notification in the interface language, by its kind and params. */
export function notificationText(n: Pick<Notification, 'kind' | 'params'>, t: LooseT): string {
  const p = n.params;
  switch (n.kind) {
    case 'results_published':
      return t('notifications.kinds.results_published', { diagnosticName: String(p.diagnosticName ?? '') });
    case 'grading_assigned':
      return t('notifications.kinds.grading_assigned', { count: Number(p.count ?? 1) });
    case 'queue_done':
    case 'queue_failed': {
      const type = String(p.type ?? '');
      const job = t(`notifications.jobs.${JOBS.has(type) ? type : 'other'}`);
      return t(`notifications.kinds.${n.kind}`, {
        job,
        queueItemId: p.queueItemId ?? '',
        reason: n.kind === 'queue_failed' ? describeErrorCode(String(p.errorCode ?? 'job_failed'), t) : '',
      });
    }
    default:
      // A kind whose text needs no more than its params (feedback_answered); one this client does
      // not know yet reads as a new notification.
      return t(`notifications.kinds.${String(n.kind)}`, {
        ...p,
        defaultValue: t('notifications.kinds.unknown'),
      });
  }
}
