import { Stack } from '@mantine/core';
import { WorkersAccommodations } from '../../../components/accommodations/workers-accommodations';
import { PageTitle } from '../../../components/ui/page-title';
import { useCoordinatorT } from '../locales';

/**
 * `/coordinator/workers`: the staff of the coordinator's school who take worker tests, with their
 * accommodations profiles (docs/accommodations.md) — one worker's dialog, or the same for the
 * selected. The server keeps the list and the changes to the coordinator's school.
 */
export function WorkersPage() {
  const { t } = useCoordinatorT();
  return (
    <Stack gap="md">
      <PageTitle data-testid="coordinator-workers-title">{t('coordinatorPages.workers.title')}</PageTitle>
      <WorkersAccommodations />
    </Stack>
  );
}
