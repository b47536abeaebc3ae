import { Stack } from '@mantine/core';
import { useBundleT } from '../../../components/data-table/use-bundle-t';
import { staffBundle } from '../../../components/staff-locales';
import { PageTitle } from '../../../components/ui/page-title';
import { DiagnosticsTable } from './diagnostics-table';

/** Diagnostics with participants in the organizator's rooms. */
export function OrganizatorDiagnosticsPage() {
  const { t } = useBundleT(staffBundle);
  return (
    <Stack gap="lg">
      <PageTitle data-testid="organizator-diagnostics-title">
        {t('staff.diagnostics.titleOrganizator')}
      </PageTitle>
      <DiagnosticsTable role="organizator" basePath="/organizator/diagnostics" />
    </Stack>
  );
}
