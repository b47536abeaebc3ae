/** Выгрузки (admin): published results for the upstream Attesta and marks for the MRKO journal. */
import { Alert, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { exportFile, type ExportKind } from '../api/exports';
import type { ReportFilterValues } from '../lib/filters';
import { useReportsT } from '../locales';
import { DownloadLink, Downloads } from './download-link';

const KINDS: ExportKind[] = ['attesta', 'mrko'];

export function ExportsTab({ filters }: { filters: ReportFilterValues }) {
  const { t } = useReportsT();
  return (
    <Stack gap="md">
      <Alert variant="light" color="gray" data-testid="exports-note">
        {t('reports.exports.note')}
      </Alert>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {KINDS.map((kind) => (
          <Paper key={kind} withBorder p="md" data-testid={`export-${kind}`}>
            <Stack gap="sm">
              <Title order={2} size="h4">
                {t(`reports.exports.${kind}.title`)}
              </Title>
              <Text size="sm">{t(`reports.exports.${kind}.text`)}</Text>
              <Downloads>
                <DownloadLink file={exportFile(kind, 'csv', filters)} format="csv" testId={`${kind}-csv`} />
                <DownloadLink
                  file={exportFile(kind, 'xlsx', filters)}
                  format="xlsx"
                  testId={`${kind}-xlsx`}
                />
              </Downloads>
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
