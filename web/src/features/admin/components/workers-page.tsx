import { Anchor, Stack } from '@mantine/core';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { WorkersAccommodations } from '../../../components/accommodations/workers-accommodations';
import { PageTitle } from '../../../components/ui/page-title';
import { useAdminT } from '../i18n';
import { RemoteSelect } from './org-selects';

const idParam = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : undefined);

/**
 * `/admin/workers` (`?schoolId=`): the staff who take worker tests, any school, with their
 * accommodations profiles (docs/accommodations.md): one worker's dialog, or the same for the selected.
 */
export function WorkersPage() {
  const t = useAdminT();
  const [params] = useSearchParams();
  const [schoolId, setSchoolId] = useState<number | undefined>(idParam(params.get('schoolId')));
  return (
    <Stack gap="md">
      <PageTitle data-testid="admin-workers-title">{t('workers.title')}</PageTitle>
      <WorkersAccommodations
        schoolId={schoolId}
        schoolFilter={
          <RemoteSelect
            kind="school"
            label={t('workers.school')}
            placeholder={t('common.any')}
            value={schoolId ?? null}
            onChange={(id) => setSchoolId(id ?? undefined)}
            w={280}
            data-testid="workers-school-filter"
          />
        }
        school={(w) => (
          <Anchor component={Link} to={`/admin/schools/${w.schoolId}`} size="sm">
            {w.schoolName}
          </Anchor>
        )}
      />
    </Stack>
  );
}
