/** The coordinator's accommodations dialogs: one student's profile, or the same for the selected. */
import type { StaffStudent } from '@attesta/contract';
import { Alert, Group, Loader, Modal } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fullName } from '../../../components/staff-format';
import { describeApiError } from '../../../lib/form-errors';
import { accommodationsQuery, setAccommodations, setManyAccommodations } from '../api/accommodations';
import { AccommodationsForm } from '../../../components/accommodations/accommodations-form';
import { useAccommodationsT } from '../../../components/accommodations/locales';

interface SingleProps {
  student: StaffStudent | null;
  onClose: () => void;
  onSaved: () => void;
}

export function StudentAccommodationsModal({ student, onClose, onSaved }: SingleProps) {
  const { t } = useAccommodationsT();
  return (
    <Modal
      opened={student !== null}
      onClose={onClose}
      title={t('accommodations.title', { name: student ? fullName(student) : '' })}
    >
      {student && <SingleBody studentId={student.id} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function SingleBody({
  studentId,
  onClose,
  onSaved,
}: {
  studentId: number;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const current = useQuery(accommodationsQuery(studentId));
  if (current.error)
    return (
      <Alert color="red" role="alert">
        {describeApiError(current.error, t)}
      </Alert>
    );
  if (!current.data)
    return (
      <Group role="status" gap="sm">
        <Loader size="sm" />
      </Group>
    );
  return (
    <AccommodationsForm
      initial={current.data.accommodations}
      onCancel={onClose}
      onSubmit={async (accommodations) => {
        await setAccommodations(studentId, accommodations);
        await current.refetch();
        onSaved();
      }}
    />
  );
}

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
