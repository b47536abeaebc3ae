/** The coordinator's accommodations dialogs: one student's profile, or the same for the selected. */
import type { StaffStudent } from '@attesta/contract';
import { Alert, Group, Loader, Modal, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { fullName } from '../../../components/staff-format';
import { describeApiError } from '../../../lib/form-errors';
import { accommodationsQuery, setAccommodations, setManyAccommodations } from '../api/accommodations';
import { useCoordinatorT } from '../locales';
import { AccommodationsForm } from './accommodations-form';

interface SingleProps {
  student: StaffStudent | null;
  onClose: () => void;
  onSaved: () => void;
}

export function StudentAccommodationsModal({ student, onClose, onSaved }: SingleProps) {
  const { t } = useCoordinatorT();
  return (
    <Modal
      opened={student !== null}
      onClose={onClose}
      title={t('coordinatorPages.accommodations.title', { name: student ? fullName(student) : '' })}
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
  const { t } = useCoordinatorT();
  const count = studentIds?.length ?? 0;
  return (
    <Modal
      opened={studentIds !== null}
      onClose={onClose}
      title={t('coordinatorPages.accommodations.bulkTitle', { count })}
    >
      {studentIds && (
        <AccommodationsForm
          initial={null}
          hint={t('coordinatorPages.accommodations.bulkHint')}
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

/** The list's mark for a student with accommodations: a word, not only an icon. */
export function AccommodationsMark({ student }: { student: StaffStudent }) {
  const { t } = useCoordinatorT();
  if (!student.hasAccommodations) return <Text c="dimmed">—</Text>;
  return (
    <Text size="sm" fw={500} data-testid={`student-accommodations-mark-${student.id}`}>
      <span aria-hidden="true">♿ </span>
      {t('coordinatorPages.accommodations.has')}
    </Text>
  );
}
