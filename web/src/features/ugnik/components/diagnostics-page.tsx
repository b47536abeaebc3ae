import type { UgnikDiagnosticListItem, UgnikDiagnosticSortField } from '@attesta/contract';
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/ui/page-title';
import { formatDisplayDate } from '../../../lib/format';
import { deleteDiagnostic, listDiagnostics, ugnikKeys } from '../api/ugnik-api';
import { useUgnikT } from '../i18n';
import { ConfirmDelete } from './confirm-delete';
import { ListTable, type Column } from '../../../components/list-table/list-table';
import { useListState } from '../../../components/list-table/use-list-state';

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
  const list = useListState<UgnikDiagnosticSortField, Filter>({ sort: { field: 'startsAt', dir: 'desc' } });
  const [deleting, setDeleting] = useState<UgnikDiagnosticListItem | null>(null);
  const query = useQuery({
    queryKey: [...ugnikKeys.diagnostics, list.request],
    queryFn: () => listDiagnostics(list.request),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: deleteDiagnostic,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ugnikKeys.diagnostics }),
  });

  const columns: Column<UgnikDiagnosticListItem, UgnikDiagnosticSortField>[] = [
    { key: 'id', header: t('diagnostics.id'), cell: (d) => d.id, csv: (d) => d.id, sortField: 'id' },
    {
      key: 'code',
      header: t('diagnostics.code'),
      cell: (d) => d.code,
      csv: (d) => d.code,
      sortField: 'code',
    },
    {
      key: 'name',
      header: t('diagnostics.name'),
      cell: (d) => (
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
      cell: windowText,
      csv: windowText,
      sortField: 'startsAt',
    },
    {
      key: 'parallels',
      header: t('diagnostics.parallels'),
      cell: (d) => d.parallels.join(', '),
      csv: (d) => d.parallels.join(', '),
    },
    {
      key: 'tests',
      header: t('diagnostics.subjectTestCount'),
      cell: (d) => d.subjectTestCount,
      csv: (d) => d.subjectTestCount,
    },
    {
      key: 'schools',
      header: t('diagnostics.schoolCount'),
      cell: (d) => d.schoolCount,
      csv: (d) => d.schoolCount,
    },
    {
      key: 'participants',
      header: t('diagnostics.participants'),
      cell: (d) => d.participantCount,
      csv: (d) => d.participantCount,
    },
    {
      key: 'actions',
      header: t('common.actions'),
      cell: (d) => (
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
          value={list.filter.search ?? ''}
          onChange={(e) =>
            list.setFilter({ search: e.currentTarget.value.trim() ? e.currentTarget.value : undefined })
          }
          w={240}
        />
        <TextInput
          type="date"
          label={t('diagnostics.from')}
          value={list.filter.from ?? ''}
          onChange={(e) => list.setFilter({ from: e.currentTarget.value || undefined })}
        />
        <TextInput
          type="date"
          label={t('diagnostics.till')}
          value={list.filter.till ?? ''}
          onChange={(e) => list.setFilter({ till: e.currentTarget.value || undefined })}
        />
        <Button component={Link} to="/ugnik/diagnostics/new">
          {t('diagnostics.create')}
        </Button>
      </Group>
      <ListTable
        caption={t('diagnostics.caption')}
        columns={columns}
        rows={query.data?.items}
        total={query.data?.total}
        rowKey={(d) => d.id}
        isLoading={query.isFetching}
        error={query.error}
        onRetry={() => void query.refetch()}
        paging={list}
        sort={list.sort}
        onSort={list.toggleSort}
        csvName="diagnostics"
        testId="ugnik-diagnostics-table"
      />
      {deleting && (
        <ConfirmDelete
          question={t('diagnostics.deleteConfirm', { name: deleting.name })}
          conflictCode="has_exam_works"
          conflictMessage={t('diagnostics.hasExamWorks')}
          onConfirm={() => remove.mutateAsync(deleting.id)}
          onClose={() => setDeleting(null)}
        />
      )}
    </Stack>
  );
}
