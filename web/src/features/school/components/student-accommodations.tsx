/** The coordinator's accommodations: the calls of one student's dialog, the same for the selected. */
import { Modal } from '@mantine/core';
import { getAccommodations, setAccommodations, setManyAccommodations } from '../api/accommodations';
import type { AccommodationsCalls } from '../../../components/accommodations/student-accommodations-modal';
import { AccommodationsForm } from '../../../components/accommodations/accommodations-form';
import { useAccommodationsT } from '../../../components/accommodations/locales';

/** The coordinator's calls for one student's profile. */
export const coordinatorAccommodationsCalls: AccommodationsCalls = {
  load: getAccommodations,
  save: setAccommodations,
};

interface BulkProps {
  studentIds: number[] | null;
  onClose: () => void;
  onSaved: (count: number) => void;
}

export function BulkAccommodationsModal({ studentIds, onClose, onSaved }: BulkProps) {
  const { t } = useAccommodationsT();
  const count = studentIds?.length ?? 0;
  return (
    <Modal opened={studentIds !== null} onClose={onClose} title={t('accommodations.bulkTitle', { count })}>
      {studentIds && (
        <AccommodationsForm
          initial={null}
          hint={t('accommodations.bulkHint')}
          onCancel={onClose}
          onSubmit={async (accommodations) => {
            const { updated } = await setManyAccommodations(studentIds, accommodations);
            onSaved(updated);
          }}
        />
      )}
    </Modal>
  );
}
