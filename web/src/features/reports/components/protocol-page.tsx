/** `/organizator/protocol`: the organizator picks their diagnostic and room and downloads the protocol. */
import { Group, Paper, Stack, Text } from '@mantine/core';
import { PageTitle } from '../../../components/ui/page-title';
import { useReportParams } from '../hooks/use-report-params';
import { readId } from '../lib/filters';
import { useReportsT } from '../locales';
import { BuildingPicker, ClassPicker, DiagnosticPicker } from './pickers';
import { ProtocolView } from './protocol-view';

export function OrganizatorProtocolPage() {
  const { t } = useReportsT();
  const { params, filters, update } = useReportParams();
  const buildingId = readId(params, 'buildingId');
  const room =
    filters.diagnosticId && (filters.classId || buildingId)
      ? { diagnosticId: filters.diagnosticId, classId: filters.classId, buildingId }
      : null;
  return (
    <Stack gap="lg">
      <PageTitle>{t('reports.protocol.title')}</PageTitle>
      <Text c="dimmed">{t('reports.protocol.intro')}</Text>
      <Paper withBorder p="md" component="section" aria-label={t('reports.filters.legend')}>
        <Group align="flex-end" gap="md">
          <DiagnosticPicker
            role="organizator"
            w={380}
            value={filters.diagnosticId}
            onChange={(diagnosticId) => update({ diagnosticId })}
            data-testid="protocol-diagnostic"
          />
          <ClassPicker
            role="organizator"
            schoolId={null}
            w={200}
            value={filters.classId}
            onChange={(classId) => update({ classId })}
            data-testid="protocol-class"
          />
          <BuildingPicker
            w={260}
            value={buildingId}
            onChange={(id) => update({ buildingId: id })}
            data-testid="protocol-building"
          />
        </Group>
      </Paper>
      <ProtocolView room={room} />
    </Stack>
  );
}
