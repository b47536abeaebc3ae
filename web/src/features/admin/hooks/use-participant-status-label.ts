import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { staffBundle } from '../../../components/staff-locales';

/** Labels of participant-test statuses, shared with the staff work places. */
export function useParticipantStatusLabel() {
  const { t } = useBundleT(staffBundle);
  return (status: string) => t(`staff.participants.status_.${status}`);
}
