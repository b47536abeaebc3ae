/**
 * The same accommodations profile for many students or workers at once (it replaces theirs). The
 * call comes from the work place that opens it (features never import each other).
 */
import type { Accommodations } from '@attesta/contract';
import { Modal } from '@mantine/core';
import { AccommodationsForm } from './accommodations-form';
import { useAccommodationsT } from './locales';

interface Props {
  ids: number[] | null;
  /** Whose profiles: the words of the title and hint. */
  who?: 'students' | 'workers';
  save: (ids: number[], accommodations: Accommodations | null) => Promise<{ updated: number }>;
  onClose: () => void;
  onSaved: (count: number) => void;
}

export function BulkAccommodationsModal({ ids, who = 'students', save, onClose, onSaved }: Props) {
  const { t } = useAccommodationsT();
  const count = ids?.length ?? 0;
  const prefix = who === 'workers' ? 'accommodations.workers.' : 'accommodations.';
  return (
    <Modal opened={ids !== null} onClose={onClose} title={t(`${prefix}bulkTitle`, { count })}>
      {ids && (
        <AccommodationsForm
          initial={null}
          hint={t(`${prefix}bulkHint`)}
          onCancel={onClose}
          onSubmit={async (accommodations) => {
            const { updated } = await save(ids, accommodations);
            onSaved(updated);
          }}
        />
      )}
    </Modal>
  );
}
