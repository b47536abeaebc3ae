import type { UgnikDiagnosticListItem, UgnikDiagnosticSortField } from '@attesta/contract';
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { notifications } from '../../../components/lite/notify';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDelete } from '../../../components/ui/confirm-delete';
import { PageTitle } from '../../../components/ui/page-title';
import { formatDisplayDate } from '../../../lib/format';
import { deleteDiagnostic, listDiagnostics, ugnikKeys } from '../api/ugnik-api';
import { useUgnikT } from '../i18n';
import { DataTable, type Column } from '../../../components/data-table/data-table';
import { useFilter } from '../../../components/data-table/use-filter';
import { PeriodFilter } from '../../../components/data-table/period-filter';

interface Filter {
  search?: string;
  from?: string;
  till?: string;
}

export const windowText = (d: { startsAt: string; endsAt: string }) =>
  `${formatDisplayDate(new Date(d.startsAt))} — ${formatDisplayDate(new Date(d.endsAt))}`;

/** `/ugnik/diagnostics`: the authority's inspection diagnostics. */
export function UgnikDiagnosticsPage() {
  const t = useUgnikT();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useFilter<Filter>({});
  const [deleting, setDeleting] = useState<UgnikDiagnosticListItem | null>(null);
  const remove = useMutation({
    mutationFn: deleteDiagnostic,
    onSuccess: () => {
      notifications.show({ color: 'green', message: t('diagnostics.deleted') });
      return queryClient.invalidateQueries({ queryKey: ugnikKeys.diagnostics });
    },
  });

  const columns: Column<UgnikDiagnosticListItem, UgnikDiagnosticSortField>[] = [
    {
      key: 'code',
      header: t('diagnostics.code'),
      render: (d) => d.code,
      csv: (d) => d.code,
      sortField: 'code',
    },
    {
      key: 'name',
      header: t('diagnostics.name'),
      render: (d) => (
        <Anchor component={Link} to={`/ugnik/diagnostics/${d.id}`}>
          {d.name}
        </Anchor>
      ),
      csv: (d) => d.name,
      sortField: 'name',
    },
    {
      key: 'window',
      header: t('diagnostics.window'),
      render: windowText,
      csv: windowText,
      sortField: 'startsAt',
    },
    {
      key: 'parallels',
      header: t('diagnostics.parallels'),
      render: (d) => d.parallels.join(', '),
      csv: (d) => d.parallels.join(', '),
    },
    {
      key: 'tests',
      header: t('diagnostics.subjectTestCount'),
      render: (d) => d.subjectTestCount,
      csv: (d) => d.subjectTestCount,
    },
    {
      key: 'schools',
      header: t('diagnostics.schoolCount'),
      render: (d) => d.schoolCount,
      csv: (d) => d.schoolCount,
    },
    {
      key: 'participants',
      header: t('diagnostics.participants'),
      render: (d) => d.participantCount,
      csv: (d) => d.participantCount,
    },
    {
      key: 'actions',
      header: t('common.actions'),
      render: (d) => (
        <Group gap={4} wrap="nowrap">
          <Button component={Link} to={`/ugnik/diagnostics/${d.id}`} size="compact-xs" variant="light">
            {t('common.open')}
          </Button>
          <Button size="compact-xs" variant="light" color="red" onClick={() => setDeleting(d)}>
            {t('common.delete')}
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageTitle data-testid="ugnik-diagnostics-title">{t('diagnostics.title')}</PageTitle>
      <Group align="flex-end" gap="sm" role="search">
        <TextInput
          label={t('common.search')}
          value={filter.search ?? ''}
          onChange={(e) => setFilter({ search: e.currentTarget.value })}
          w={240}
        />
        <PeriodFilter value={filter} onChange={(p) => setFilter({ from: p.from, till: p.till })} />
        <Button component={Link} to="/ugnik/diagnostics/new">
          {t('diagnostics.create')}
        </Button>
      </Group>
      <DataTable
        caption={t('diagnostics.caption')}
        queryKey={ugnikKeys.diagnostics}
        fetchPage={listDiagnostics}
        filter={filter}
        initialSort={{ field: 'startsAt', dir: 'desc' }}
        pageSize={20}
        columns={columns}
        rowKey={(d) => d.id}
        exportName="diagnostics"
        testId="ugnik-diagnostics-table"
      />
      {deleting && (
        <ConfirmDelete
          title={t('common.confirmTitle')}
          question={t('diagnostics.deleteConfirm', { name: deleting.name })}
          confirmLabel={t('common.delete')}
          cancelLabel={t('common.cancel')}
          conflicts={{ has_exam_works: t('diagnostics.hasExamWorks') }}
          onConfirm={() => remove.mutateAsync(deleting.id)}
          onClose={() => setDeleting(null)}
        />
      )}
    </Stack>
  );
}
