/**
 * One student's (or worker's) accommodations in a dialog: the current profile read, the form, the
 * change sent. The calls come from the work place that opens it (features never import each other).
 */
import type { Accommodations } from '@attesta/contract';
import { Alert, Group, Loader, Modal } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../lib/form-errors';
import { fullName } from '../staff-format';
import { AccommodationsForm } from './accommodations-form';
import { useAccommodationsT } from './locales';

export interface AccommodationsCalls {
  load: (id: number, signal: AbortSignal) => Promise<{ accommodations: Accommodations | null }>;
  save: (id: number, accommodations: Accommodations | null) => Promise<unknown>;
  /** Keeps a worker's cached profile apart from a student's of the same id. */
  kind?: 'student' | 'worker';
}

type Person = { id: number; surname: string; name: string; patronymic: string | null };

interface Props {
  student: Person | null;
  calls: AccommodationsCalls;
  onClose: () => void;
  onSaved: () => void;
}

export function StudentAccommodationsModal({ student, calls, onClose, onSaved }: Props) {
  const { t } = useAccommodationsT();
  return (
    <Modal
      opened={student !== null}
      onClose={onClose}
      title={t('accommodations.title', { name: student ? fullName(student) : '' })}
    >
      {student && <Body studentId={student.id} calls={calls} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function Body({ studentId, calls, onClose, onSaved }: Omit<Props, 'student'> & { studentId: number }) {
  const { t } = useTranslation();
  const current = useQuery({
    queryKey: ['accommodations', calls.kind ?? 'student', studentId],
    queryFn: ({ signal }) => calls.load(studentId, signal),
    gcTime: 0,
  });
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
        await calls.save(studentId, accommodations);
        onSaved();
      }}
    />
  );
}
